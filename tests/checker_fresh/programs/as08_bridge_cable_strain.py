# fresh-expect: E0499 at line 60
# fresh-note: Cable-stayed bridge strain monitor; the arena's `sag` view forgets the header offset that `tension` includes, so the two output views overlap and one launch writes both.
"""Tension and sag estimates for the stay cables of a cable-stayed bridge."""
from __future__ import annotations
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


HEADER = 4                 # span id, deck temperature, wind speed, sample count
YOUNG_MODULUS_GPA = 195.0
CABLES_PER_SPAN = 48


@simt.kernel
@simt.launch_contract(block=64)
def strain_split(strain: Slice[f32], length: Slice[f32], tension: DisjointSlice[f32],
                 sag: DisjointSlice[f32], modulus: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (t := tension.get_mut(idx)) is not None:
        t.set(strain[i] * modulus)
    idx2 = thread.index_1d()
    if (s := sag.get_mut(idx2)) is not None:
        s.set(length[i] * length[i] / (8.0 * (strain[i] * modulus + 1.0)))


class CableArena:
    """One device allocation per span: a small header, then tension, then sag."""

    def __init__(self, n_cables: int, stream: sk.Stream) -> None:
        self.n = n_cables
        self.buf = sk.zeros(HEADER + 2 * n_cables, f32, stream)

    @property
    def tension(self) -> sk.DeviceBuffer:
        return self.buf.view(HEADER, HEADER + self.n)

    @property
    def sag(self) -> sk.DeviceBuffer:
        return self.buf.view(self.n, 2 * self.n)    # the second block of n values

    def header(self, stream: sk.Stream) -> np.ndarray:
        return self.buf.to_numpy(stream)[:HEADER]


class SpanMonitor:
    def __init__(self, span_id: int, dev: sk.Device, stream: sk.Stream, lengths_m: np.ndarray) -> None:
        self.span_id = span_id
        self.stream = stream
        self.arena = CableArena(len(lengths_m), stream)
        self.lengths = sk.to_device(lengths_m.astype(np.float32), stream)
        self.prepared = strain_split.prepare(simt.LaunchConfig1D.for_len(len(lengths_m), block=64), dev)

    def ingest(self, microstrain: np.ndarray) -> dict[str, float]:
        strain = sk.to_device((microstrain * 1e-3).astype(np.float32), self.stream)
        strain_split.launch(self.prepared, self.stream, strain, self.lengths,
                            self.arena.tension, self.arena.sag, YOUNG_MODULUS_GPA)
        values = self.arena.buf.to_numpy(self.stream)
        tension = values[HEADER:HEADER + self.arena.n]
        sag = values[HEADER + self.arena.n:]
        return {"max_tension": float(tension.max()), "max_sag": float(sag.max()),
                "slack": float((tension < 50.0).sum())}


def cable_lengths(n: int) -> np.ndarray:
    return np.linspace(40.0, 210.0, n)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    monitors = [SpanMonitor(k, dev, stream, cable_lengths(CABLES_PER_SPAN)) for k in range(3)]
    alarms = []
    for hour in range(4):
        for mon in monitors:
            readings = rng.normal(600.0, 80.0, CABLES_PER_SPAN) + 40.0 * np.sin(hour)
            stats = mon.ingest(readings)
            if stats["slack"] > 0 or stats["max_tension"] > 160.0:
                alarms.append((hour, mon.span_id, stats))
    print(f"{len(alarms)} alarms")
    for hour, span, stats in alarms[:5]:
        print(f"  hour {hour} span {span}: {stats}")


if __name__ == "__main__":
    main()
