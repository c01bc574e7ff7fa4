"""The clean twin of `e0308_dict_of_prepared_launches`: each kernel launched with the prepared launch stored
under its own key."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=32)
def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] * 2.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(32, block=32)
    launches = {"add": vecadd.prepare(cfg, dev), "scale": scale.prepare(cfg, dev)}
    a = sk.zeros(32, f32, stream)
    out = sk.zeros(32, f32, stream)
    scale.launch(launches["scale"], stream, a, out)
    vecadd.launch(launches["add"], stream, a, a, out)
