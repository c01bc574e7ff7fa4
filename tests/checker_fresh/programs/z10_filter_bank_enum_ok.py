# fresh-expect: clean
# look-alike: the prepared launches zip Filter with (blur, sharpen) in declaration order, so each case launches its kernel with its own PreparedLaunch
"""A small 1-D image-filter bank: every filter kind is prepared once for the row length,
and a match statement dispatches each requested filter to its kernel."""
from __future__ import annotations

import enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ROW = 640


@simt.kernel
@simt.launch_contract(block=128)
def blur(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[max(i - 1, 0)] + src[i] + src[min(i + 1, n - 1)]) / 3.0)


@simt.kernel
@simt.launch_contract(block=128)
def sharpen(src: Slice[f32], dst: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        edge = 2.0 * src[i] - src[max(i - 1, 0)] - src[min(i + 1, n - 1)]
        o.set(src[i] + amount * edge)


class Filter(enum.Enum):
    BLUR = enum.auto()
    SHARPEN = enum.auto()


class FilterBank:
    def __init__(self, dev: sk.Device, n: int) -> None:
        config = simt.LaunchConfig1D.for_len(n, block=128)
        self.launches = {kind: kernel.prepare(config, dev) for kind, kernel in zip(Filter, (blur, sharpen))}

    def apply(self, kind: Filter, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        match kind:
            case Filter.BLUR:
                blur.launch(self.launches[kind], stream, src, dst)
            case Filter.SHARPEN:
                sharpen.launch(self.launches[kind], stream, src, dst, 0.5)
            case _:
                raise ValueError(kind)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    bank = FilterBank(dev, ROW)
    row = sk.to_device((np.arange(ROW) % 32 < 16).astype(np.float32), stream)
    for kind in (Filter.SHARPEN, Filter.BLUR):
        out = sk.zeros(ROW, f32, stream)
        bank.apply(kind, stream, row, out)
        host = out.to_numpy(stream)
        print(f"{kind.name:>8}: min {host.min():.3f} max {host.max():.3f}")
        row = out


if __name__ == "__main__":
    main()
