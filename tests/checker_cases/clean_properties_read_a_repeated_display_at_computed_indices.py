"""The clean twin: the pair is built by a list comprehension, two buffers, so the properties reading it at the
two computed indices give two buffers."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def relax(src: Slice[f32], dst: DisjointSlice[f32], alpha: f32) -> None:
    i = thread.index_1d().get()
    if (o := dst.get_mut(thread.index_1d())) is not None:
        o.set(src[i] * alpha)


class Sheet:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self._pair = [sk.zeros(n, f32, stream) for _ in range(2)]
        self._tick = 0
        self._relax = relax.prepare(simt.LaunchConfig1D.for_len(n, block=32), dev)

    @property
    def front(self) -> sk.DeviceBuffer:
        return self._pair[self._tick % 2]

    @property
    def back(self) -> sk.DeviceBuffer:
        return self._pair[(self._tick + 1) % 2]

    def settle(self, passes: int) -> "Sheet":
        for _ in range(passes):
            relax.launch(self._relax, self.stream, self.front, self.back, 0.5)
            self._tick += 1
        return self


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Sheet(dev, stream, 64).settle(3)


if __name__ == "__main__":
    main()
