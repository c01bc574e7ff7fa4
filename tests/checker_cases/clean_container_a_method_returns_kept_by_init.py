"""The clean twin: the method `__init__` stores the result of builds a new buffer under each key (a dict
comprehension), so the two items spread as the launch's two mutable outputs are two buffers."""

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
        return {p: sk.zeros(self.n, f32, self.stream) for p in PHASES}

    def run(self, rate: sk.DeviceBuffer) -> None:
        classify.launch(self.prepared, self.stream, rate, *(self.outputs[p] for p in PHASES))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    triage = Triage(dev, stream, 64)
    triage.run(sk.zeros(64, f32, stream))


if __name__ == "__main__":
    main()
