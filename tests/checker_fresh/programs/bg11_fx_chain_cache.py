# fresh-expect: E0308 at line 52
# fresh-note: Audio effects chain with a PlanCache of prepared launches keyed by frame length only, so soft_clip is launched with the launch gain prepared for the same length.
"""An audio effects chain (gain, soft clip, DC blocker) that caches prepared launches per frame length."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def gain(x: Slice[f32], y: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * g)


@simt.kernel
@simt.launch_contract(block=128)
def soft_clip(x: Slice[f32], y: DisjointSlice[f32], drive: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        v = x[i] * drive
        o.set(v / (1.0 + abs(v)))


class PlanCache:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self._plans: dict[object, simt.PreparedLaunch] = {}

    def get(self, kernel: simt.SimtKernel, n: int) -> simt.PreparedLaunch:
        key = n
        if key not in self._plans:
            self._plans[key] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=128), self.dev)
        return self._plans[key]


def process(frame: np.ndarray, plans: PlanCache, stream: sk.Stream, level: float) -> np.ndarray:
    n = frame.size
    x = sk.to_device(frame, stream)
    boosted = sk.zeros(n, f32, stream)
    shaped = sk.zeros(n, f32, stream)
    gain.launch(plans.get(gain, n), stream, x, boosted, level)
    soft_clip.launch(plans.get(soft_clip, n), stream, boosted, shaped, 2.0)
    out = shaped.to_numpy(stream)
    return out - out.mean()  # DC blocker on the host: the frames are short


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(17)
    plans = PlanCache(dev)
    frames = [(0.5 * rng.standard_normal(n)).astype(np.float32) for n in (480, 480, 960)]
    for k, frame in enumerate(frames):
        level = 1.0 + 0.5 * k
        out = process(frame, plans, stream, level)
        v = frame * np.float32(level) * np.float32(2.0)
        want = v / (1.0 + np.abs(v))
        np.testing.assert_allclose(out, want - want.mean(), rtol=1e-4, atol=1e-5)
        print(f"frame {k}: {frame.size} samples, peak {np.abs(out).max():.3f}")
    print(f"{len(plans._plans)} prepared launches cached")


if __name__ == "__main__":
    main()
