"""The clean twin of `e0499_init_stores_a_dict_display_of_one_buffer`: `__init__` allocates a buffer per bus in
the display, so the two outputs of `split` are two buffers."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BUS_NAMES = ("left", "right")
N = 64


@simt.kernel
@simt.launch_contract(block=32)
def deinterleave(frames: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := left.get_mut(idx)) is not None:
        lo.set(frames[2 * i])
    again = thread.index_1d()
    if (ro := right.get_mut(again)) is not None:
        ro.set(frames[2 * i + 1])


class StereoSession:
    def __init__(self, dev: sk.Device, stream: sk.Stream, interleaved: np.ndarray) -> None:
        self.stream = stream
        self.frames = sk.to_device(interleaved.astype(np.float32), stream)
        scratch = sk.zeros(N, f32, stream)
        self.buses = {"left": scratch, "right": sk.zeros(N, f32, stream)}
        self.launch = deinterleave.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def split(self) -> None:
        deinterleave.launch(self.launch, self.stream, self.frames, self.buses["left"], self.buses["right"])


def main() -> None:
    dev = sk.Device.cpu()
    session = StereoSession(dev, dev.new_stream(), np.arange(2 * N, dtype=np.float32))
    session.split()
    print(session.buses["left"].to_numpy(session.stream)[:4])


if __name__ == "__main__":
    main()
