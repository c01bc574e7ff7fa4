"""A dict display of buffers that `__init__` stores on `self` under literal keys: different keys are different
buffers (`self.buffers[into or "freqs"]` reads `"freqs"` or an unknown key, never `"counts"`), and a method that
stores under a key (or hands the dict on) reads new items after it."""

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
        src = self.buffers["counts"]
        dst = self.buffers[into or "freqs"]
        scale.launch(self.prepared, self.stream, src, dst, 0.5)
        return dst.to_numpy(self.stream)

    def staging(self) -> sk.DeviceBuffer:
        self.buffers["freqs"].copy_from_numpy(np.ones(N, np.float32), self.stream)
        return self.buffers["freqs"]

    def rescale(self) -> None:
        src = self.staging()
        scale.launch(self.prepared, self.stream, src, self.buffers["counts"], 2.0)

    def refresh(self) -> None:
        old = self.buffers["freqs"]
        self.buffers["freqs"] = sk.zeros(N, f32, self.stream)
        scale.launch(self.prepared, self.stream, old, self.buffers["freqs"], 1.0)


def main() -> None:
    dev = sk.Device.cpu()
    profile = Profile(dev, dev.new_stream())
    profile.refresh()
    profile.rescale()
    print(profile.normalize()[:4])


if __name__ == "__main__":
    main()
