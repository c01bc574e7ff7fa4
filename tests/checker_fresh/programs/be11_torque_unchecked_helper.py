# fresh-expect: E0133 at line 39
# fresh-note: A torque limiter for a batch of robot joints launches a contract-less SIMT clamp kernel with launch_unchecked from a small helper method; the caller wraps the helper call in `with simt.unsafe():`, but unsafe is lexical, so the helper's own launch_unchecked is outside any unsafe block.
"""Joint torque limiting inside a 1 kHz-style control loop: the clamp kernel has no launch contract, so it is
launched with launch_unchecked over a grid that covers every joint exactly."""
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
def clamp_torque(tau: Slice[f32], limit: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(tau):
        return
    lim = limit[i % len(limit)]
    if (o := out.get_mut(idx)) is not None:
        o.set(min(max(tau[i], -lim), lim))


class TorqueLimiter:
    def __init__(self, robots: int, joint_limits: list[float], stream: sk.Stream) -> None:
        self.n = robots * len(joint_limits)
        self.stream = stream
        self.limits = sk.to_device(np.array(joint_limits, np.float32), stream)
        self.tau = sk.zeros(self.n, f32, stream)
        self.out = sk.zeros(self.n, f32, stream)
        self.config = simt.LaunchConfig1D((self.n + BLOCK - 1) // BLOCK, BLOCK)
        self.saturated = 0

    def _fire(self) -> None:
        clamp_torque.launch_unchecked(self.config, self.stream, self.tau, self.limits, self.out)

    def apply(self, tau: np.ndarray) -> np.ndarray:
        self.tau.copy_from_numpy(tau.astype(np.float32), self.stream)
        with simt.unsafe():  # the grid covers n exactly and the kernel guards its tail
            self._fire()
        limited = self.out.to_numpy(self.stream)
        self.saturated += int(np.count_nonzero(limited != tau.astype(np.float32)))
        return limited


def control_ticks(limiter: TorqueLimiter, steps: int, seed: int = 0) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    q = np.zeros(limiter.n, np.float32)
    qd = np.zeros_like(q)
    goal = rng.uniform(-1.0, 1.0, limiter.n).astype(np.float32)
    for _ in range(steps):
        raw = 60.0 * (goal - q) - 4.0 * qd
        tau = limiter.apply(raw)
        qd += 0.01 * tau
        q += 0.01 * qd
        yield np.abs(goal - q)


def main() -> None:
    stream = sk.Device.default().new_stream()
    limiter = TorqueLimiter(robots=5, joint_limits=[30.0, 30.0, 20.0, 10.0, 5.0, 5.0], stream=stream)
    errors = [err.mean() for err in control_ticks(limiter, 20)]
    print(f"tracking error {errors[0]:.3f} -> {errors[-1]:.3f}, saturated commands: {limiter.saturated}")


if __name__ == "__main__":
    main()
