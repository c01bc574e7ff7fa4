# fresh-expect: E0382 at line 81
# fresh-known-miss: cli,mypy a `(step, rod.front)` tuple appended to a list in a `match` case, then `rod.advance()` moves `rod.front`: a loop over the list unpacks new values, not the stored parts
"""Explicit finite-difference heat diffusion along a metal rod, on the tile track.

The rod keeps two temperature arrays and swaps them every step.  A list of probes decides what to record
while the run goes: periodic snapshots of the whole profile and the temperature at a thermocouple.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

T = 128


@tile.kernel
def diffuse(nxt: Partition[f32], cur: Tensor[f32], r: f32) -> None:
    idx = tile.iota(T, i32) + tile.bid(0) * T
    n = cur.shape[0]
    c = tile.load_like(cur, nxt)
    left = tile.gather(cur, idx - 1, mask=idx > 0, other=0.0)
    right = tile.gather(cur, idx + 1, mask=idx < n - 1, other=0.0)
    inner = (idx > 0) & (idx < n - 1)
    nxt.store(tile.where(inner, c + r * (left + right - 2.0 * c), c))


@dataclass(frozen=True)
class Snapshot:
    every: int


@dataclass(frozen=True)
class Thermocouple:
    at: int


class Rod:
    def __init__(self, initial: np.ndarray, r: float, stream: sk.Stream) -> None:
        self.r = r
        self.stream = stream
        self.front = tile.from_numpy(initial).sync_on(stream)
        self.back = tile.zeros(initial.shape, f32).sync_on(stream)

    def advance(self) -> None:
        part, src, _ = diffuse(self.back.partition((T,)), self.front, self.r).sync_on(self.stream)
        self.front, self.back = part.unpartition(), src


def run(rod: Rod, steps: int, probes: list) -> tuple[list, list[float]]:
    history, readings = [], []
    for step in range(steps):
        rod.advance()
        for probe in probes:
            match probe:
                case Snapshot(every=k) if step % k == 0:
                    history.append((step, rod.front))
                case Thermocouple(at=i):
                    readings.append(float(rod.front.to_numpy(rod.stream)[i]))
    return history, readings


def main() -> None:
    stream = sk.Device.default().new_stream()
    n = 400
    x = np.linspace(0.0, 1.0, n, dtype=np.float32)
    initial = np.where(np.abs(x - 0.5) < 0.1, 400.0, 20.0).astype(np.float32)
    initial[0] = initial[-1] = 20.0
    rod = Rod(initial, r=0.4, stream=stream)
    history, readings = run(rod, steps=120, probes=[Snapshot(every=40), Thermocouple(at=3 * n // 8)])
    final = rod.front.to_numpy(stream)
    assert abs(final[0] - 20.0) < 1e-4 and abs(final[-1] - 20.0) < 1e-4
    print(f"thermocouple rose from {readings[0]:.2f} to {readings[-1]:.2f} C")
    for step, profile in history:
        temps = profile.to_numpy(stream)
        print(f"step {step:4d}: peak {temps.max():7.2f} C, mean {temps.mean():6.2f} C")


if __name__ == "__main__":
    main()
