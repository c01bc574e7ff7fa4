"""A launch cache that an attribute holds (`self.launches.get(kernel, n)`) returns the launch it prepares for the
kernel it is given, keyed by the kernel's name: each launch runs the kernel it was prepared for."""

from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 0.5)


@simt.kernel
@simt.launch_contract(block=64)
def clamp(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(src[i], 1.0))


class LaunchCache:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self._prepared: dict[tuple[str, int], Any] = {}

    def get(self, kernel: Any, n: int) -> Any:
        key = (kernel.name, n)
        if key not in self._prepared:
            self._prepared[key] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), self.dev)
        return self._prepared[key]


class Pipeline:
    def __init__(self, dev: sk.Device, s: sk.Stream) -> None:
        self.launches = LaunchCache(dev)
        self.s = s

    def run(self, src: sk.DeviceBuffer[f32], dst: sk.DeviceBuffer[f32]) -> None:
        smooth.launch(self.launches.get(smooth, N), self.s, src, dst)
        clamp.launch(self.launches.get(clamp, N), self.s, dst, src)


def main() -> None:
    dev = sk.Device.cpu()
    s = dev.new_stream()
    Pipeline(dev, s).run(sk.zeros(N, f32, s), sk.zeros(N, f32, s))
