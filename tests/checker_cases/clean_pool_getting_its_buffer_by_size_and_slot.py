"""A scratch pool keeps one buffer per size and slot and looks it up with `get` (`if (buf :=
self._pool.get((n, slot))) is None: buf = self._pool[n, slot] = sk.zeros(...)`): two requests for different slots
hand back different buffers, so passing them as the two outputs of one launch is allowed."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def split(src: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := low.get_mut(idx)) is not None:
        lo.set(min(src[i], 0.5))
    if (hi := high.get_mut(thread.index_1d())) is not None:
        hi.set(max(src[i], 0.5))


class ScratchPool:
    """Device buffers reused between batches, one per size and slot."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._pool: dict[tuple[int, int], sk.DeviceBuffer] = {}

    def take(self, n: int, slot: int) -> sk.DeviceBuffer:
        if (buf := self._pool.get((n, slot))) is None:
            buf = self._pool[n, slot] = sk.zeros(n, f32, self.stream)
        return buf

    def take_sized(self, n: int, slot: int) -> sk.DeviceBuffer:
        found = self._pool.get((n, slot))
        if found is None:
            found = sk.zeros(n, f32, self.stream)
            self._pool[n, slot] = found
        return found


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    prep = split.prepare(simt.LaunchConfig1D.for_len(N, block=64), device)
    src = sk.to_device(np.linspace(0.0, 1.0, N, dtype=np.float32), stream)
    pool = ScratchPool(stream)
    low, high = pool.take(N, 0), pool.take(N, 1)
    split.launch(prep, stream, src, low, high)
    other = ScratchPool(stream)
    first, second = other.take_sized(N, 0), other.take_sized(N, 1)
    split.launch(prep, stream, src, first, second)
    print(low.to_numpy(stream)[:2], first.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
