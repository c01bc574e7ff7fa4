# fresh-expect: clean
# fresh-note: Twin of bk03: the workspace cache keys buffers by their full name and size, so the kinetic and potential diagnostics are distinct buffers and each launch has three distinct outputs.
"""1-D wave equation, leapfrog in time, with per-cell kinetic and potential energy diagnostics.

Three time levels rotate through a list; the diagnostic outputs come from a small workspace cache so that
repeated runs of the same size reuse their scratch memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread


@dataclass(frozen=True)
class WaveConfig:
    n: int = 200
    steps: int = 30
    courant: float = 0.5
    diag_every: int = 10


@simt.kernel
@simt.launch_contract(block=64)
def leapfrog(prev: Slice[f32], cur: Slice[f32], nxt: DisjointSlice[f32], kinetic: DisjointSlice[f32],
             potential: DisjointSlice[f32], c2: f32, n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= n:
        return
    lap = f32(0.0)
    if i > 0 and i < n - 1:
        lap = cur[i - 1] - f32(2.0) * cur[i] + cur[i + 1]
    if (o := nxt.get_mut(idx)) is not None:
        o.set(f32(2.0) * cur[i] - prev[i] + c2 * lap)
    vel = cur[i] - prev[i]
    if (k := kinetic.get_mut(thread.index_1d())) is not None:
        k.set(f32(0.5) * vel * vel)
    grad = f32(0.0)
    if i < n - 1:
        grad = cur[i + 1] - cur[i]
    if (p := potential.get_mut(thread.index_1d())) is not None:
        p.set(f32(0.5) * c2 * grad * grad)


@dataclass
class Workspace:
    stream: sk.Stream
    _cache: dict[tuple[str, int], sk.DeviceBuffer] = field(default_factory=dict)

    def get(self, name: str, n: int) -> sk.DeviceBuffer:
        kind = name                            # "diag_kinetic" and "diag_potential" stay apart
        key = (kind, n)
        if key not in self._cache:
            self._cache[key] = sk.zeros(n, f32, self.stream)
        return self._cache[key]


class WaveSolver:
    def __init__(self, cfg: WaveConfig, device: sk.Device) -> None:
        self.cfg = cfg
        self.stream = device.new_stream()
        self.ws = Workspace(self.stream)
        x = np.linspace(0.0, 1.0, cfg.n, dtype=np.float32)
        pulse = np.exp(-200.0 * (x - 0.5) ** 2).astype(np.float32)
        self.levels = [sk.to_device(pulse, self.stream), sk.to_device(pulse, self.stream),
                       sk.zeros(cfg.n, f32, self.stream)]
        self.prepared = leapfrog.prepare(simt.LaunchConfig1D.for_len(cfg.n, block=64), device)
        self.history: list[float] = []

    def step(self) -> None:
        prev, cur, nxt = self.levels
        kinetic = self.ws.get("diag_kinetic", self.cfg.n)
        potential = self.ws.get("diag_potential", self.cfg.n)
        leapfrog.launch(self.prepared, self.stream, prev, cur, nxt, kinetic, potential,
                        self.cfg.courant ** 2, self.cfg.n)
        self.levels = [cur, nxt, prev]

    def energy(self) -> float:
        kin = self.ws.get("diag_kinetic", self.cfg.n).to_numpy(self.stream)
        pot = self.ws.get("diag_potential", self.cfg.n).to_numpy(self.stream)
        return float(kin.sum() + pot.sum())

    def run(self) -> list[float]:
        for s in range(self.cfg.steps):
            self.step()
            if (s + 1) % self.cfg.diag_every == 0:
                self.history.append(self.energy())
        return self.history


def main() -> None:
    solver = WaveSolver(WaveConfig(), sk.Device.cpu())
    energies = solver.run()
    drift = max(energies) - min(energies)
    print("energies:", [round(e, 5) for e in energies], "drift", round(drift, 6))


if __name__ == "__main__":
    main()
