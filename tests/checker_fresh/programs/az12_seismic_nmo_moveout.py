# fresh-expect: E0382 at line 59
# fresh-note: Scans NMO stacking velocities for a CMP gather through a lambda around the tile launch; the lambda captures gather and offsets, the first call moves them into nmo_stack and the handed-back handles are discarded, so the second call launches with the moved gather.
"""Velocity analysis of a common-midpoint gather: NMO-correct and stack for trial velocities.

For a trial stacking velocity v the normal-moveout time of offset x at zero-offset time t0 is
t = sqrt(t0^2 + x^2 / v^2); the tile kernel gathers each trace at that time and sums over the
offsets. The velocity that maximises stack power at each reflector is the picked velocity.
"""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

N_OFF = 16
N_SAMP = 256
T = 64
DT = 0.004                     # 4 ms
V_TRUE = 2200.0


@tile.kernel
def nmo_stack(stack: Partition[f32], gather: Tensor[f32], offsets: Tensor[f32], slowness2: f32) -> None:
    t0 = tile.reshape((tile.iota(T, f32) + f32(tile.bid(1) * T)) * DT, (1, T))
    x = offsets.load((0, 0), (N_OFF, 1))
    t = tile.sqrt(t0 * t0 + x * x * slowness2)
    sample = (t / DT + 0.5).astype(i32)
    rows = tile.reshape(tile.iota(N_OFF, i32), (N_OFF, 1))
    vals = tile.gather(gather, (rows, sample), mask=sample < N_SAMP, other=0.0)
    stack.store(tile.sum(vals, axis=0, keepdims=True))


def synthetic_gather(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.linspace(100.0, 1600.0, N_OFF)
    data = rng.normal(0.0, 0.05, (N_OFF, N_SAMP))
    wavelet = np.array([-0.3, -0.6, 0.2, 1.0, 0.2, -0.6, -0.3])
    for t0, amp in ((0.25, 1.0), (0.45, -0.7), (0.65, 0.5)):
        t = np.sqrt(t0**2 + (offsets / V_TRUE) ** 2)
        for k, tk in enumerate(t):
            c = int(round(tk / DT))
            lo, hi = max(c - 3, 0), min(c + 4, N_SAMP)
            data[k, lo:hi] += amp * wavelet[lo - c + 3 : hi - c + 3]
    return data.astype(np.float32), offsets.reshape(N_OFF, 1).astype(np.float32)


def windowed_power(trace: np.ndarray, t0: float, half: int = 5) -> float:
    c = int(round(t0 / DT))
    return float(np.sum(trace[max(c - half, 0) : c + half + 1] ** 2))


def main() -> None:
    stream = sk.Device.default().new_stream()
    data, offs = synthetic_gather(np.random.default_rng(88))
    gather = tile.from_numpy(data).sync_on(stream)
    offsets = tile.from_numpy(offs).sync_on(stream)
    empty_stack = lambda: tile.zeros((1, N_SAMP), f32).partition((1, T))
    scan = lambda v: nmo_stack(empty_stack(), gather, offsets, 1.0 / (v * v)).sync_on(stream)

    velocities = np.arange(1600.0, 2801.0, 200.0)
    stacks = []
    for v in velocities:
        stack, *_ = scan(v)
        stacks.append(stack.unpartition().to_numpy(stream)[0])

    for t0 in (0.25, 0.45, 0.65):
        power = [windowed_power(s, t0) for s in stacks]
        best = velocities[int(np.argmax(power))]
        print(f"t0 = {t0:.2f} s: picked v_nmo = {best:.0f} m/s (power {max(power):.1f})")


if __name__ == "__main__":
    main()
