# fresh-expect: E0382 at line 74
# fresh-known-miss: cli,mypy ops a deque returned by a helper holds, taken into a list by a comprehension and consumed by head.zip(*rest), then synced by iterating the deque; and false E0382 at 50: a parameter annotated sk.DeviceOp is a plain op whatever the caller passes (a .shared() one here)
# fresh-note: Bagpipe drone pitch-correction ops are queued in a deque and zipped into one submission, but the tenor second pass iterates the deque and syncs ops that zip already consumed.
"""Great Highland bagpipe: retune the bass and two tenor drones against the chanter's Low A.
Each drone's pitch-correction op reads the shared reference spectrum; the ops are queued in a
deque, zipped into one submission, and the per-drone cent offsets are then reported.
"""
from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BINS = 128
TILE = (32,)
LOW_A_HZ = 480.0
DRONES = {"bass": 0.5, "tenor_left": 1.0, "tenor_right": 1.0}


@tile.kernel
def correct(spectrum: Partition[f32], reference: Tensor[f32], octave: f32, gain: f32) -> None:
    ref = tile.load_like(reference, spectrum)
    mine = spectrum.load()
    spectrum.store(mine + (ref * octave - mine) * gain)


def synth_spectrum(rng: np.random.Generator, octave: float, detune_cents: float) -> np.ndarray:
    freqs = np.linspace(60.0, 1200.0, BINS, dtype=np.float32)
    f0 = LOW_A_HZ * octave * 2.0 ** (detune_cents / 1200.0)
    peaks = np.exp(-((freqs - f0) ** 2) / 400.0) + 0.5 * np.exp(-((freqs - 2 * f0) ** 2) / 400.0)
    return (peaks + rng.normal(0.0, 0.01, BINS)).astype(np.float32)


def centroid_hz(spectrum: np.ndarray) -> float:
    freqs = np.linspace(60.0, 1200.0, BINS, dtype=np.float32)
    weights = np.clip(spectrum, 0.0, None)
    return float((freqs * weights).sum() / max(weights.sum(), 1e-6))


def queue_drones(rng: np.random.Generator, reference: sk.DeviceOp, gain: float) -> deque:
    queue: deque = deque()
    for name, octave in DRONES.items():
        detune = float(rng.uniform(-30.0, 30.0))
        part = tile.from_numpy(synth_spectrum(rng, octave, detune)).partition(TILE)
        queue.append((name, octave, correct(part, reference, octave, gain)))
    return queue


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1905)

    chanter = synth_spectrum(rng, 1.0, 0.0)
    reference = tile.from_numpy(chanter).shared()
    target = centroid_hz(chanter)

    queue = queue_drones(rng, reference, gain=0.6)
    head_name, _, head_op = queue.popleft()
    rest = [op for _, _, op in queue]
    submission = head_op.zip(*rest)

    tuned = submission.sync_on(stream)
    head_spec = tuned[0][0].to_numpy(stream)
    print(f"{head_name:>12}: centroid {centroid_hz(head_spec):7.2f} Hz (target {target * DRONES[head_name]:.2f})")

    # second pass for the tenors, which the piper tunes by ear after the bass
    for name, octave, op in queue:
        spectrum, _ref, _oct, _gain = op.sync_on(stream)
        hz = centroid_hz(spectrum.to_numpy(stream))
        cents = 1200.0 * np.log2(hz / (target * octave))
        print(f"{name:>12}: centroid {hz:7.2f} Hz, {cents:+6.1f} cents")


if __name__ == "__main__":
    main()
