# fresh-expect: clean
# fresh-known-false-alarm: cli,mypy base-class method conflicting only for base objects; only a subclass is built
"""Filter hierarchy with an overridden output and a callable wrapper, applied to feature maps with zip()."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 320


@simt.kernel
@simt.launch_contract(block=64)
def clamp01(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        v = src[i]
        o.set(0.0 if v < 0.0 else (1.0 if v > 1.0 else v))


class Filter:
    def __init__(self, dev: sk.Device, src: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        self.prep = clamp01.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.src = src
        self.out = out

    def target(self) -> sk.DeviceBuffer:
        return self.src

    def run(self, stream) -> None:
        clamp01.launch(self.prep, stream, self.src, self.target())


class OutOfPlaceFilter(Filter):
    def target(self) -> sk.DeviceBuffer:
        return self.out

    def __call__(self, stream) -> sk.DeviceBuffer:
        self.run(stream)
        return self.out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    maps = [sk.to_device(np.linspace(-1, 2, N, dtype=np.float32) * k, stream) for k in (1, 2)]
    outs = [sk.zeros(N, f32, stream) for _ in maps]
    for i, (fmap, out) in enumerate(zip(maps, outs, strict=True)):
        filt = OutOfPlaceFilter(dev, fmap, out)
        print(i, filt(stream).to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
