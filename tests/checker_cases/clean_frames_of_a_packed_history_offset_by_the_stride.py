"""Twin of `e0502_frames_of_a_packed_history_offset_by_the_wrong_stride`: `frame(k)` views `buf[k * stride :
k * stride + stride]`, so `frame(k - 1)` ends where `frame(k)` begins (`(k - 1) * stride + stride` is `k * stride`
whatever `k` and `stride` are) and shifting the history down a descending counter copies between disjoint views."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def copy_frame(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(src[i])


class History:
    def __init__(self, width: int, frames: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.width, self.frames, self.stream = width, frames, stream
        self.stride = width + 1  # the values, then the frame's timestamp
        self.buf = sk.zeros(frames * self.stride, f32, stream)
        self.prep = copy_frame.prepare(simt.LaunchConfig1D.for_len(self.stride, block=32), dev)

    def frame(self, k: int) -> sk.DeviceBuffer:
        start = k * self.stride
        return self.buf.view(start, start + self.stride)

    def push(self, values: np.ndarray, t: float) -> None:
        for k in range(self.frames - 1, 0, -1):
            copy_frame.launch(self.prep, self.stream, self.frame(k - 1), self.frame(k))
        self.frame(0).copy_from_numpy(np.append(values, t).astype(np.float32), self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    history = History(6, 3, dev, stream)
    for t in range(4):
        history.push(np.full(6, float(t), np.float32), float(t))
    print(history.buf.to_numpy(stream))


if __name__ == "__main__":
    main()
