"""Prepared launches kept in a dict display by kernel name: `launches["add"]` is `vecadd`'s prepared launch, so
launching `scale` with it is refused (`BrandError` at run time)."""

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


def main(flag: bool) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(32, block=32)
    launches = {"add": vecadd.prepare(cfg, dev), "scale": scale.prepare(cfg, dev)}
    a = sk.zeros(32, f32, stream)
    out = sk.zeros(32, f32, stream)
    scale.launch(launches["add"], stream, a, out)  # expect: E0308
    scale.launch(launches["add"] if flag else launches["scale"], stream, a, out)  # expect: E0308
