# fresh-expect: clean
# fresh-note: Surface-EMG gait analysis: a dict comprehension gives each muscle its own envelope buffer, the per-muscle `launch_async` ops are run in a loop, then onsets are detected on the host (clean twin of the sleep-staging program).
"""Surface EMG gait analysis: RMS envelope of each leg muscle over 50 ms windows, and onset detection.

Every muscle gets its own envelope buffer; the channels are launched asynchronously, run one after another
when synchronised, and the host marks muscle onsets where the envelope crosses a fraction of its peak.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

FS = 2000  # Hz
WINDOW = FS // 20  # 50 ms
MUSCLES = ("tibialis_anterior", "gastrocnemius", "vastus_lateralis", "biceps_femoris")


@simt.kernel
@simt.launch_contract(block=32, requires=("len(emg) >= len(envelope) * window",))
def rms_envelope(emg: Slice[f32], envelope: DisjointSlice[f32], window: u32) -> None:
    idx = thread.index_1d()
    w = idx.get()
    if (out := envelope.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(window):
            v = emg[w * window + k]
            acc += v * v
        out.set(math.sqrt(acc / f32(window)))


def gait_trial(rng: np.random.Generator, seconds: float) -> OrderedDict[str, np.ndarray]:
    t = np.arange(int(seconds * FS)) / FS
    phase = (t % 1.1) / 1.1  # one stride every 1.1 s
    bursts = {"tibialis_anterior": (0.6, 0.95), "gastrocnemius": (0.3, 0.55),
              "vastus_lateralis": (0.0, 0.2), "biceps_femoris": (0.8, 1.0)}
    trial = OrderedDict()
    for muscle in MUSCLES:
        lo, hi = bursts[muscle]
        active = ((phase >= lo) & (phase < hi)).astype(np.float32)
        trial[muscle] = (rng.normal(0.0, 0.02, t.size) + active * rng.normal(0.0, 0.4, t.size)).astype(np.float32)
    return trial


def envelopes(trial: OrderedDict[str, np.ndarray], device: sk.Device, stream: sk.Stream) -> dict[str, np.ndarray]:
    windows = len(next(iter(trial.values()))) // WINDOW
    prepared = rms_envelope.prepare(simt.LaunchConfig1D.for_len(windows, block=32), device)
    outputs = {muscle: sk.zeros(windows, f32, stream) for muscle in trial}
    raw = {muscle: sk.to_device(signal, stream) for muscle, signal in trial.items()}
    pending = [rms_envelope.launch_async(prepared, raw[m], outputs[m], WINDOW) for m in trial]
    for op in pending:
        op.sync_on(stream)
    return {muscle: buf.to_numpy(stream) for muscle, buf in outputs.items()}


def onsets(env: np.ndarray, fraction: float = 0.3) -> list[float]:
    above = env > fraction * env.max()
    rising = np.flatnonzero(above[1:] & ~above[:-1]) + 1
    return [round(float(i) * WINDOW / FS, 2) for i in rising]


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    trial = gait_trial(np.random.default_rng(10), seconds=6.6)
    env = envelopes(trial, device, stream)
    for muscle, e in env.items():
        times = onsets(e)
        print(f"{muscle:<18} peak {e.max():.3f} mV, {len(times)} onsets, first at {times[:3]} s")


if __name__ == "__main__":
    main()
