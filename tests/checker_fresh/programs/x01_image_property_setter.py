# fresh-expect: E0502 at line 35
"""An image pipeline: a Frame keeps its pixels and a target buffer that a property setter can redirect."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def brighten(src: Slice[f32], dst: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * gain)


class Frame:
    def __init__(self, pixels: sk.DeviceBuffer[f32], n: int, stream: sk.Stream) -> None:
        self.pixels = pixels
        self._target = sk.zeros(n, f32, stream)

    @property
    def target(self) -> sk.DeviceBuffer[f32]:
        return self._target

    @target.setter
    def target(self, buf: sk.DeviceBuffer[f32]) -> None:
        self._target = buf


def apply_gain(frame: Frame, prep: simt.PreparedLaunch, stream: sk.Stream, gain: float) -> None:
    brighten.launch(prep, stream, frame.pixels, frame.target, gain)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 32 * 32
    host = np.random.default_rng(0).random(n, dtype=np.float32)
    frame = Frame(sk.to_device(host, stream), n, stream)
    prep = brighten.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    apply_gain(frame, prep, stream, 1.25)
    low_memory = n > 512
    if low_memory:
        frame.target = frame.pixels  # "save a buffer": write the result over the input
    apply_gain(frame, prep, stream, 0.8)
    print(frame.target.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
