"""Methods whose body only returns a call of a hand-written cache (`def drive_trace(self): return
self._buffer(self.samples)`) give what the cache keeps for that key: two such accessors asking for the same size
hand back one buffer, so passing both as a launch's two mutable outputs is E0499 (the key `self.samples` is not
known here, so the second call may give the first one's buffer; at run time it does)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def split(x: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (lo := low.get_mut(thread.index_1d())) is not None:
        lo.set(x[i] * f32(0.5))
    if (hi := high.get_mut(thread.index_1d())) is not None:
        hi.set(x[i] * f32(2.0))


class Splitter:
    def __init__(self, dev: sk.Device, stream: sk.Stream, samples: int) -> None:
        self.stream = stream
        self.samples = samples
        self._workspace: dict[tuple[int, str], sk.DeviceBuffer] = {}
        self._prepared = split.prepare(simt.LaunchConfig1D.for_len(samples, block=32), dev)

    def _buffer(self, length: int, kind: str = "f32") -> sk.DeviceBuffer:
        key = (length, kind)
        if key not in self._workspace:
            self._workspace[key] = sk.zeros(length, f32, self.stream)
        return self._workspace[key]

    def low_trace(self) -> sk.DeviceBuffer:
        return self._buffer(self.samples)

    def high_trace(self) -> sk.DeviceBuffer:
        return self._buffer(self.samples)

    def run(self, x: sk.DeviceBuffer) -> None:
        low, high = self.low_trace(), self.high_trace()
        split.launch(self._prepared, self.stream, x, low, high)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    splitter = Splitter(dev, stream, 64)
    splitter.run(sk.zeros(64, f32, stream))


if __name__ == "__main__":
    main()
