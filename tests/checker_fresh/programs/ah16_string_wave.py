# fresh-expect: clean
# fresh-note: a vibrating-string solver rotates three displacement tensors through a leapfrog tile launch, rebinding every handle the launch hands back, and its match-driven probes record snapshots as host copies.
"""Vibrating string (1-D wave equation) with a leapfrog scheme on the tile track.

The solver keeps the previous, current and next displacement and rotates them each step.  Probes matched
on their type record the displacement at a pickup position and snapshots of the whole string.
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
def leapfrog(nxt: Partition[f32], cur: Tensor[f32], prev: Tensor[f32], c2: f32) -> None:
    idx = tile.iota(T, i32) + tile.bid(0) * T
    n = cur.shape[0]
    u = tile.load_like(cur, nxt)
    left = tile.gather(cur, idx - 1, mask=idx > 0, other=0.0)
    right = tile.gather(cur, idx + 1, mask=idx < n - 1, other=0.0)
    inner = (idx > 0) & (idx < n - 1)
    nxt.store(tile.where(inner, 2.0 * u - tile.load_like(prev, nxt) + c2 * (left + right - 2.0 * u), 0.0))


@dataclass(frozen=True)
class Snapshot:
    every: int


@dataclass(frozen=True)
class Pickup:
    at: int


class String:
    def __init__(self, shape0: np.ndarray, courant: float, stream: sk.Stream) -> None:
        self.c2 = courant * courant
        self.stream = stream
        self.prev = tile.from_numpy(shape0).sync_on(stream)
        self.cur = tile.from_numpy(shape0).sync_on(stream)
        self.nxt = tile.zeros(shape0.shape, f32).sync_on(stream)

    def advance(self) -> None:
        part, cur, prev, _ = leapfrog(self.nxt.partition((T,)), self.cur, self.prev, self.c2).sync_on(self.stream)
        self.prev, self.cur, self.nxt = cur, part.unpartition(), prev


def run(string: String, steps: int, probes: list) -> tuple[list, list[float]]:
    snapshots, signal = [], []
    for step in range(steps):
        string.advance()
        for probe in probes:
            match probe:
                case Snapshot(every=k) if step % k == 0:
                    snapshots.append((step, string.cur.to_numpy(string.stream)))
                case Pickup(at=i):
                    signal.append(float(string.cur.to_numpy(string.stream)[i]))
    return snapshots, signal


def main() -> None:
    stream = sk.Device.default().new_stream()
    n = 300
    x = np.linspace(0.0, 1.0, n, dtype=np.float32)
    pluck = np.where(x < 0.3, x / 0.3, (1.0 - x) / 0.7).astype(np.float32) * 0.01
    string = String(pluck, courant=0.9, stream=stream)
    snapshots, signal = run(string, steps=400, probes=[Snapshot(every=100), Pickup(at=n // 5)])
    final = string.cur.to_numpy(stream)
    assert final[0] == 0.0 and final[-1] == 0.0
    spectrum = np.abs(np.fft.rfft(np.asarray(signal) - np.mean(signal)))
    print(f"pickup signal: {len(signal)} samples, strongest bin {int(np.argmax(spectrum[1:]) + 1)}")
    for step, profile in snapshots:
        print(f"step {step:4d}: max displacement {np.abs(profile).max() * 1000:.3f} mm")


if __name__ == "__main__":
    main()
