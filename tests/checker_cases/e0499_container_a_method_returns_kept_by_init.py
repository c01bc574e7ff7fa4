"""`__init__` stores what a method of its class returns (`self.outputs = self._allocate()`): when that method
returns a container whose every item is one object (`dict.fromkeys(PHASES, buf)`), the class's other methods know
every item of `self.outputs` is that one buffer, so spreading two of them as a launch's two mutable outputs
(`*(self.outputs[p] for p in PHASES)`) is E0499, as the runtime's `BorrowError`."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PHASES = ("viable", "dormant")


@simt.kernel
@simt.launch_contract(block=32)
def classify(rate: Slice[f32], viable: DisjointSlice[f32], dormant: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (v := viable.get_mut(thread.index_1d())) is not None:
        v.set(rate[i])
    if (d := dormant.get_mut(thread.index_1d())) is not None:
        d.set(f32(1.0) - rate[i])


class Triage:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.n = n
        self.prepared = classify.prepare(simt.LaunchConfig1D.for_len(n, block=32), dev)
        self.outputs = self._allocate()

    def _allocate(self) -> dict[str, sk.DeviceBuffer]:
        return dict.fromkeys(PHASES, sk.zeros(self.n, f32, self.stream))

    def run(self, rate: sk.DeviceBuffer) -> None:
        classify.launch(self.prepared, self.stream, rate, *(self.outputs[p] for p in PHASES))  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    triage = Triage(dev, stream, 64)
    triage.run(sk.zeros(64, f32, stream))


if __name__ == "__main__":
    main()
