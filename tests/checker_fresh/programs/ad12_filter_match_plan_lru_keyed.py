# fresh-expect: clean
# idiom: match statement with sequence patterns choosing the kernel, an OrderedDict LRU of prepared launches, ping-pong swap
"""A small 1-D filter pipeline described by strings ("blur", "gain:1.5", "clip:0:1").

Each step is parsed with a `match` statement, its launch is prepared once and kept in an
LRU cache so long pipelines do not re-validate the same configuration, and the data
ping-pongs between two device buffers.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1000
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def box3(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[max(i - 1, 0)] + src[i] + src[min(i + 1, n - 1)]) / 3.0)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def gain(src: Slice[f32], dst: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * g)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def clip(src: Slice[f32], dst: DisjointSlice[f32], lo: f32, hi: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(max(src[i], lo), hi))


class PlanCache:
    def __init__(self, dev: sk.Device, capacity: int = 4) -> None:
        self.dev = dev
        self.capacity = capacity
        self._plans: OrderedDict[tuple[str, int, int], simt.PreparedLaunch] = OrderedDict()

    def get(self, kernel: simt.SimtKernel, n: int, block: int) -> simt.PreparedLaunch:
        key = (kernel.__name__, n, block)
        if key in self._plans:
            self._plans.move_to_end(key)
            return self._plans[key]
        plan = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=block), self.dev)
        self._plans[key] = plan
        if len(self._plans) > self.capacity:
            self._plans.popitem(last=False)
        return plan


def run_pipeline(steps: list[str], host: np.ndarray, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    cache = PlanCache(dev)
    src = sk.to_device(host, stream)
    dst = sk.zeros(len(host), f32, stream)
    for step in steps:
        match step.split(":"):
            case ["blur"]:
                kernel, extra = box3, ()
            case ["gain", g]:
                kernel, extra = gain, (float(g),)
            case ["clip", lo, hi]:
                kernel, extra = clip, (float(lo), float(hi))
            case _:
                raise ValueError(f"unknown step {step!r}")
        plan = cache.get(kernel, len(host), BLOCK)
        kernel.launch(plan, stream, src, dst, *extra)
        src, dst = dst, src
    return src.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    host = rng.random(N, dtype=np.float32)
    out = run_pipeline(["blur", "gain:1.5", "blur", "clip:0.2:1"], host, dev, stream)
    print(f"min {out.min():.3f} max {out.max():.3f} mean {out.mean():.3f}")


if __name__ == "__main__":
    main()
