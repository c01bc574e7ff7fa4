"""A ping-pong pair `__init__` stores as a repeated display (`[sk.zeros(n)] * 2`) is one buffer under every index:
properties reading it at computed indices (`self._pair[self._tick % 2]`, `self._pair[(self._tick + 1) % 2]`) give
that one buffer, so a launch reading `self.front` and writing `self.back` reads and writes one buffer, E0502. A
method that ends with `return self` (a fluent method) changes none of the pair's items."""

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
        self._pair = [sk.zeros(n, f32, stream)] * 2
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
            relax.launch(self._relax, self.stream, self.front, self.back, 0.5)  # expect: E0502
            self._tick += 1
        return self


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Sheet(dev, stream, 64).settle(3)


if __name__ == "__main__":
    main()
