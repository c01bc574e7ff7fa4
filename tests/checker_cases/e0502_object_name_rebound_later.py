"""A name bound to an object of a class of the module is bound to something else later in the function (`with
contextlib.nullcontext(a) as held:`); where only the first binding reaches, `held.target` and `held.get("out")`
are still that object's property and method, so the launch reading one and writing the other is E0502 and the
prepared launch its property gives is the other kernel's (E0308), as the runtime says."""

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
        return self.plans["add"]

    def get(self, name: str) -> sk.DeviceBuffer:
        return self.bufs[name] if name in self.bufs else self.bufs["inp"]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N, block=64)
    a = sk.to_device(np.ones(N, np.float32), stream)
    held = Holder(cfg, dev, stream)
    vecmul.launch(held.mul_plan, stream, held.target, a, held.get("out"))  # expect: E0308, E0502
    vecmul.launch(held.mul_plan, stream, a, a, held.get("inp"))  # expect: E0308
    with contextlib.nullcontext(a) as held:
        print(held.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
