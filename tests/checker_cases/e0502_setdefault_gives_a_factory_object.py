"""`trace = self.traces.setdefault(name, Trace.allocate(n, s))` is the default it builds, or the object the dict
already holds under the key: in the first case its fields are what the factory made, and a `@classmethod` that
reuses one buffer for two of them on large inputs makes a launch reading `trace.height` and writing
`trace.filtered` read and write one buffer, E0502."""

from __future__ import annotations

from dataclasses import dataclass

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BUDGET = 1024


@simt.kernel
@simt.launch_contract(block=32)
def smooth(height: Slice[f32], filtered: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := filtered.get_mut(thread.index_1d())) is not None:
        o.set(height[i] * f32(0.5))


@dataclass
class Trace:
    height: sk.DeviceBuffer
    filtered: sk.DeviceBuffer

    @classmethod
    def allocate(cls, n: int, stream: sk.Stream) -> Trace:
        height = sk.zeros(n, f32, stream)
        filtered = height if 4 * n > BUDGET else sk.zeros(n, f32, stream)
        return cls(height, filtered)


class Analyzer:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.traces: dict[str, Trace] = {}

    def landing(self, hill: str, n: int) -> None:
        trace = self.traces.setdefault(hill, Trace.allocate(n, self.stream))
        prepared = smooth.prepare(simt.LaunchConfig1D.for_len(n, block=32), self.dev)
        smooth.launch(prepared, self.stream, trace.height, trace.filtered)  # expect: E0502


def main() -> None:
    analyzer = Analyzer(sk.Device.cpu())
    analyzer.landing("normal", 128)
    analyzer.landing("large", 512)


if __name__ == "__main__":
    main()
