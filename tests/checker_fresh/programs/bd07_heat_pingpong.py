# fresh-expect: clean
# fresh-note: An explicit 1-D heat-equation solver keeps two device buffers in a class, swaps them after every stencil launch and snapshots the field to numpy every few steps.
"""FTCS heat equation on a rod with fixed ends, ported from a numpy loop."""
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64, requires=("len(dst) == len(src)",))
def ftcs(src: Slice[f32], dst: DisjointSlice[f32], r: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (cell := dst.get_mut(idx)) is not None:
        if i == 0 or i == n - 1:
            cell.set(src[i])
        else:
            cell.set(src[i] + r * (src[i - 1] - 2.0 * src[i] + src[i + 1]))


@dataclass
class RodHistory:
    every: int
    frames: list = field(default_factory=list)

    def record(self, step: int, values: np.ndarray) -> None:
        if step % self.every == 0:
            self.frames.append((step, values))


class HeatRod:
    def __init__(self, initial: np.ndarray, r: float, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.r = r
        self.u = sk.to_device(initial.astype(np.float32), self.stream)
        self.v = sk.zeros(len(initial), f32, self.stream)
        self.plan = ftcs.prepare(simt.LaunchConfig1D.for_len(len(initial), block=64), device)

    def step(self) -> None:
        ftcs.launch(self.plan, self.stream, self.u, self.v, self.r)
        self.u, self.v = self.v, self.u

    def snapshot(self) -> np.ndarray:
        return self.u.to_numpy(self.stream)


def numpy_reference(u: np.ndarray, r: float, steps: int) -> np.ndarray:
    u = u.astype(np.float32).copy()
    for _ in range(steps):
        nxt = u.copy()
        nxt[1:-1] = u[1:-1] + np.float32(r) * (u[:-2] - 2.0 * u[1:-1] + u[2:])
        u = nxt
    return u


def main() -> None:
    n, steps, r = 200, 60, 0.4
    x = np.linspace(0.0, 1.0, n)
    initial = np.exp(-((x - 0.5) ** 2) / 0.005)
    rod = HeatRod(initial, r, sk.Device.default())
    history = RodHistory(every=20)
    for step in range(steps):
        rod.step()
        history.record(step + 1, rod.snapshot())
    final = rod.snapshot()
    np.testing.assert_allclose(final, numpy_reference(initial, r, steps), rtol=1e-4, atol=1e-5)
    peaks = [float(frame.max()) for _, frame in history.frames]
    assert all(a >= b for a, b in zip(peaks, peaks[1:])), peaks
    print("peak decay:", [round(p, 4) for p in peaks])


if __name__ == "__main__":
    main()
