# fresh-expect: W0003 at line 55
# fresh-known-miss: cli,mypy W0003 of a pending op overwritten in a dict attribute under a key that repeats at run time: keys computed at run time are not compared
# fresh-note: Estimates mbira tine power with launch_async ops kept in a dict keyed by tine name; the re-struck tine L3 is submitted twice, so the second submit overwrites the first pending op, which is dropped without ever being run.
"""Mbira dzavadzimu tuning bench: windows each struck tine's recording and estimates its spectral power."""
from __future__ import annotations
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES = 256


@simt.kernel
@simt.launch_contract(block=64)
def windowed_power(strike: Slice[f32], window: Slice[f32], power: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := power.get_mut(idx)) is not None:
        v = strike[i] * window[i]
        cell.set(v * v)


@dataclass(frozen=True)
class Tine:
    name: str
    row: str
    target_hz: float


@dataclass
class Strike:
    tine: Tine
    samples: np.ndarray


class TuningBench:
    """Keeps one in-flight power estimate per tine name until collect() runs them all."""

    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        self.prepared = windowed_power.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)
        hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n - 1))
        self.window = sk.to_device(hann.astype(np.float32), self.stream)
        self.pending: dict[str, sk.DeviceOp] = {}
        self.outputs: dict[str, sk.DeviceBuffer] = {}

    def submit(self, strike: Strike) -> "TuningBench":
        raw = sk.to_device(strike.samples.astype(np.float32), self.stream)
        power = sk.zeros(self.n, f32, self.stream)
        self.pending[strike.tine.name] = windowed_power.launch_async(self.prepared, raw, self.window, power)
        self.outputs[strike.tine.name] = power
        return self

    def collect(self) -> dict[str, float]:
        energies = {}
        for name, op in self.pending.items():
            op.sync_on(self.stream)
            energies[name] = float(self.outputs[name].to_numpy(self.stream).sum())
        self.pending.clear()
        return energies


def record(tine: Tine, rng: np.random.Generator, buzz: float = 0.0) -> Strike:
    t = np.arange(SAMPLES) / 8000.0
    tone = np.sin(2 * np.pi * tine.target_hz * t) * np.exp(-t * 30.0)
    return Strike(tine, tone + buzz * rng.standard_normal(SAMPLES))


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(31)
    tines = [Tine("L1", "left-low", 98.0), Tine("L3", "left-low", 130.8), Tine("R2", "right", 196.0)]
    bench = TuningBench(device, SAMPLES)
    session = [record(tines[0], rng), record(tines[1], rng, buzz=0.4), record(tines[2], rng)]
    # the player re-strikes the buzzing tine after pressing the rattle shell down
    session.append(record(tines[1], rng))
    for strike in session:
        bench.submit(strike)
    for name, energy in sorted(bench.collect().items()):
        print(f"{name}: energy {energy:.3f}")


if __name__ == "__main__":
    main()
