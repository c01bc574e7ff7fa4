# fresh-expect: E0133 at line 34
# fresh-note: Violin bow pressure analysis with a per-block shared-memory reduction; the block mean is read from the shared array after the `with simt.unsafe():` block has ended.
"""Bow-pressure statistics from a sensorised violin bow, one block per stroke."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STROKE = 32


@simt.kernel
@simt.launch_contract(block=STROKE)
def stroke_deviation(pressure: Slice[f32], deviation: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    with simt.unsafe():
        scratch = simt.shared_array(f32, STROKE)
        scratch[t] = pressure[i]
    thread.sync_threads()
    stride = STROKE // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2
    mean = scratch[0] / f32(STROKE)
    if (d := deviation.get_mut(idx)) is not None:
        d.set(pressure[i] - mean)


class BowSession:
    def __init__(self, dev: sk.Device, stream: sk.Stream, player: str) -> None:
        self.player = player
        self.stream = stream
        self.dev = dev
        self.strokes: list[np.ndarray] = []

    def record(self, samples: np.ndarray) -> None:
        usable = len(samples) - len(samples) % STROKE
        self.strokes.append(samples[:usable].astype(np.float32))

    def analyse(self) -> dict[str, float]:
        trace = np.concatenate(self.strokes)
        pressure = sk.to_device(trace, self.stream)
        deviation = sk.zeros(len(trace), f32, self.stream)
        prepared = stroke_deviation.prepare(simt.LaunchConfig1D.for_len(len(trace), block=STROKE), self.dev)
        stroke_deviation.launch(prepared, self.stream, pressure, deviation)
        dev = deviation.to_numpy(self.stream)
        return {"steadiness": float(1.0 / (1e-3 + np.abs(dev).mean())), "strokes": len(trace) // STROKE}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    sessions = [BowSession(dev, stream, name) for name in ("student", "concertmaster")]
    for jitter, session in zip((0.3, 0.08), sessions):
        for _ in range(2):
            session.record(1.2 + rng.normal(0, jitter, 70))
    ranking = sorted(((s.analyse()["steadiness"], s.player) for s in sessions), reverse=True)
    for score, player in ranking:
        print(f"{player}: steadiness {score:.1f}")


if __name__ == "__main__":
    main()
