"""A nested function takes a view of a captured buffer and launches with it and an item of a captured dict
that is the same buffer: inside the nested function the two are different caller's values, but at its call the
caller knows `named["a"]` is `a`, so the view `c` overlaps the argument read from it: E0502 at the call, as the
runtime's `AliasingError` in the launch."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=64), dev)
    a = sk.zeros(64, f32, stream)
    named = {"a": a}

    def overlapping() -> None:
        c = a.view(16, 48)
        vecadd.launch(prep, stream, named["a"].view(0, 32), sk.zeros(32, f32, stream), c)

    overlapping()  # expect: E0502
