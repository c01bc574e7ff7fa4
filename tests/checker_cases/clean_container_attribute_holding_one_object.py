"""Clean twin of e0502_container_attribute_holding_one_object: containers of distinct buffers (a comprehension
builds one per item), so cycling through them alternates two buffers and each channel's op writes its own."""

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
        self.scratch = [sk.zeros(N, f32, stream) for _ in range(2)]
        self.outputs = {ch: sk.zeros(N, f32, stream) for ch in CHANNELS}

    def run(self, clip: sk.DeviceBuffer) -> sk.DeviceBuffer:
        src = clip
        ring = itertools.cycle(self.scratch)
        for k in (0.5, 2.0, 1.5):
            dst = next(ring)
            scale.launch(self.prepared, self.stream, src, dst, k)
            src = dst
        return src

    def submit(self, planes: dict[str, sk.DeviceBuffer]) -> list[sk.DeviceOp]:
        return [scale.launch_async(self.prepared, planes[ch], self.outputs[ch], 2.0) for ch in CHANNELS]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    chain = Chain(dev, stream)
    print(chain.run(sk.to_device(np.ones(N, np.float32), stream)).to_numpy(stream)[:2])
    planes = {ch: sk.to_device(np.ones(N, np.float32), stream) for ch in CHANNELS}
    sk.zip(*chain.submit(planes)).sync_on(stream)
    print("ok")


if __name__ == "__main__":
    main()
