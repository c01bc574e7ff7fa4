"""A dict display of buffers that `__init__` stores on `self` under literal keys is one object per key in the
other methods: `self.buffers["freqs"]` read twice is one buffer, also through a conditional key
(`self.buffers[into or "freqs"]` may be the item under `"freqs"`) and through a method returning it
(`self.staging()`), so a launch reading one and writing the other is E0502, as the runtime's `AliasingError` says
when `into` is None."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], dst: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * k)


class Profile:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.buffers: dict[str, sk.DeviceBuffer] = {
            "counts": sk.to_device(np.ones(N, np.float32), stream),
            "freqs": sk.zeros(N, f32, stream),
        }
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)

    def normalize(self, into: str | None = None) -> np.ndarray:
        src = self.buffers["freqs"]
        dst = self.buffers[into or "freqs"]
        scale.launch(self.prepared, self.stream, src, dst, 0.5)  # expect: E0502
        return dst.to_numpy(self.stream)

    def staging(self) -> sk.DeviceBuffer:
        self.buffers["freqs"].copy_from_numpy(np.ones(N, np.float32), self.stream)
        return self.buffers["freqs"]

    def rescale(self) -> None:
        src = self.staging()
        scale.launch(self.prepared, self.stream, src, self.buffers["freqs"], 2.0)  # expect: E0502

    def twice(self) -> None:
        scale.launch(self.prepared, self.stream, self.buffers["counts"], self.buffers["counts"], 2.0)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    print(Profile(dev, dev.new_stream()).normalize()[:4])


if __name__ == "__main__":
    main()
