"""The twin of `e0502_view_in_nested_function_overlaps_captured_item`: the nested function's views of the captured
buffer, one through the captured dict, are disjoint halves, so its launch reads one and writes the other: clean
at the call too (the caller replays the views with their regions)."""

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

    def disjoint() -> None:
        lo = a.view(0, 32)
        hi = named["a"].view(32, 64)
        vecadd.launch(prep, stream, lo, sk.zeros(32, f32, stream), hi)

    disjoint()
