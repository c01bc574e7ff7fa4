# fresh-expect: clean
"""Double buffering inside one allocation: the two halves of split_at are read and written in turn."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def blend(prev: Slice[f32], nxt: DisjointSlice[f32], keep: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := nxt.get_mut(idx)) is not None:
        o.set(prev[i] * keep + f32(1.0) - keep)


class DoubleBuffer:
    def __init__(self, storage: sk.DeviceBuffer[f32]) -> None:
        half = len(storage) // 2
        self.front, self.back = storage.split_at(half)

    def flip(self) -> None:
        self.front, self.back = self.back, self.front


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    storage = sk.to_device(np.zeros(2 * n, dtype=np.float32), stream)
    buffers = DoubleBuffer(storage)
    prep = blend.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    for _ in range(4):
        blend.launch(prep, stream, buffers.front, buffers.back, 0.5)
        buffers.flip()
    print(buffers.front.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
