"""A container `__init__` stores whose every item is one object (`[buf] * 2`, `dict.fromkeys(names, buf)`) gives
that object under every key and to every iteration: cycling through `self.scratch` hands out the buffer the
previous step wrote (E0502, as the runtime's `AliasingError` says), and a comprehension launching one async op
per channel into `self.outputs[ch]` writes the one buffer twice while the first op is pending (E0499)."""

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64
CHANNELS = ("red", "green", "blue")


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], dst: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * k)


class Chain:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.scratch = [sk.zeros(N, f32, stream)] * 2
        self.outputs = dict.fromkeys(CHANNELS, sk.zeros(N, f32, stream))

    def run(self, clip: sk.DeviceBuffer) -> sk.DeviceBuffer:
        src = clip
        ring = itertools.cycle(self.scratch)
        for k in (0.5, 2.0, 1.5):
            dst = next(ring)
            scale.launch(self.prepared, self.stream, src, dst, k)  # expect: E0502
            src = dst
        return src

    def submit(self, planes: dict[str, sk.DeviceBuffer]) -> list[sk.DeviceOp]:
        return [scale.launch_async(self.prepared, planes[ch], self.outputs[ch], 2.0) for ch in CHANNELS]  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    chain = Chain(dev, stream)
    print(chain.run(sk.to_device(np.ones(N, np.float32), stream)).to_numpy(stream)[:2])
    planes = {ch: sk.to_device(np.ones(N, np.float32), stream) for ch in CHANNELS}
    sk.zip(*chain.submit(planes)).sync_on(stream)


if __name__ == "__main__":
    main()
