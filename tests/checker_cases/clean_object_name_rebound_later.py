"""The twin of `e0502_object_name_rebound_later`: where only the first binding of `held` reaches, its property
and method give the object's own distinct buffers and the right prepared launch; after the name is bound to a
buffer in a loop, its reads are no longer the class's (a later binding in the loop may reach them)."""

import contextlib

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=64)
def vecmul(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * b[i])


class Holder:
    def __init__(self, cfg: simt.LaunchConfig1D, dev: sk.Device, stream: sk.Stream) -> None:
        self.bufs = {"inp": sk.zeros(N, f32, stream), "out": sk.zeros(N, f32, stream)}
        self.plans = {"add": vecadd.prepare(cfg, dev), "mul": vecmul.prepare(cfg, dev)}

    @property
    def target(self) -> sk.DeviceBuffer:
        return self.bufs["out"]

    @property
    def mul_plan(self) -> simt.PreparedLaunch:
        return self.plans["mul"]

    def get(self, name: str) -> sk.DeviceBuffer:
        return self.bufs[name] if name in self.bufs else self.bufs["inp"]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N, block=64)
    a = sk.to_device(np.ones(N, np.float32), stream)
    held = Holder(cfg, dev, stream)
    vecmul.launch(held.mul_plan, stream, held.get("inp"), a, held.target)
    vecmul.launch(held.mul_plan, stream, a, a, held.get("inp"))
    with contextlib.nullcontext(a) as held:
        print(held.to_numpy(stream)[:2])
    for _ in range(2):
        print(held.to_numpy(stream)[:1])
        held = a


if __name__ == "__main__":
    main()
