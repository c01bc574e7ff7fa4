# fresh-expect: E0502 at line 56
# fresh-note: RK4 for an ensemble of mean-reverting ODEs with every stage queued by launch_async; the second stage's launch reads the k1 buffer that the still-pending first-stage op writes.
"""Fourth-order Runge-Kutta for an ensemble of nonlinear mean-reverting rate ODEs, stages queued asynchronously."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024
BLOCK = 256
KAPPA, CUBIC, FORCING = 1.5, 4.0, 0.01
STAGE_COEFFS = (0.0, 0.5, 0.5, 1.0)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def rhs(y: Slice[f32], k_prev: Slice[f32], target: Slice[f32], k_out: DisjointSlice[f32], h: f32, t: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := k_out.get_mut(idx)) is not None:
        ys = y[i] + h * k_prev[i]
        o.set(KAPPA * (target[i] - ys) - CUBIC * ys * ys * ys + FORCING * math.sin(t))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def combine(y: Slice[f32], k1: Slice[f32], k2: Slice[f32], k3: Slice[f32], k4: Slice[f32],
            y_out: DisjointSlice[f32], h: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y_out.get_mut(idx)) is not None:
        o.set(y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))


class RK4:
    def __init__(self, target: np.ndarray, h: float, dev: sk.Device, stream: sk.Stream) -> None:
        self.h = h
        self.stream = stream
        self.target = sk.to_device(target, stream)
        self.k = [sk.zeros(len(target), f32, stream) for _ in STAGE_COEFFS]
        cfg = simt.LaunchConfig1D.for_len(len(target), block=BLOCK)
        self.p_rhs = rhs.prepare(cfg, dev)
        self.p_combine = combine.prepare(cfg, dev)

    def step(self, y: sk.DeviceBuffer, y_next: sk.DeviceBuffer, t: float) -> sk.DeviceOp:
        """Queue the four stages and the combination; nothing runs until the caller syncs."""
        ops = []
        prev = y
        for coeff, k in zip(STAGE_COEFFS, self.k):
            ops.append(rhs.launch_async(self.p_rhs, y, prev, self.target, k, coeff * self.h, t + coeff * self.h))
            prev = k
        ops.append(combine.launch_async(self.p_combine, y, *self.k, y_next, self.h))
        return sk.zip(*ops)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    target = rng.uniform(0.01, 0.08, N).astype(np.float32)
    y = sk.to_device(rng.uniform(0.0, 0.1, N).astype(np.float32), stream)
    y_next = sk.zeros(N, f32, stream)
    solver = RK4(target, h=0.05, dev=dev, stream=stream)
    t = 0.0
    for _ in range(20):
        solver.step(y, y_next, t).sync_on(stream)
        y, y_next = y_next, y
        t += solver.h
    final = y.to_numpy(stream)
    print(f"t={t:.2f}: mean rate {final.mean():.4f}, max gap to target {np.abs(final - target).max():.4f}")


if __name__ == "__main__":
    main()
