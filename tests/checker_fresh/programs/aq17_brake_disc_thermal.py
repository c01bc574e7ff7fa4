# fresh-expect: clean
# fresh-note: Brake-disc heat diffusion: a checked first step, then `launch_unchecked` steps inside the method's own `with simt.unsafe():` block, and a block-max kernel using a shared array and `get_unchecked_mut` inside unsafe blocks (clean twin of the tire-wear stint).
"""Brake disc thermal model: explicit heat diffusion around the disc ring during a braking sequence.

Each time step diffuses temperature around the ring and adds the frictional heat input; a block-level
reduction in shared memory reports each block's hottest cell so the host can flag fade risk.  The stepping
loop uses `launch_unchecked` inside its own `with simt.unsafe():` block after one checked launch.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
CELLS = 2048


@simt.kernel
@simt.launch_contract(block=BLOCK)
def diffuse(temp: Slice[f32], heat: Slice[f32], out: DisjointSlice[f32], alpha: f32, cooling: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(temp)
    left = temp[(i + n - 1) % n]
    right = temp[(i + 1) % n]
    if (o := out.get_mut(idx)) is not None:
        o.set(temp[i] + alpha * (left - f32(2.0) * temp[i] + right) + heat[i] - cooling * (temp[i] - f32(30.0)))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def block_max(temp: Slice[f32], hottest: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    i = thread.block_idx_x() * BLOCK + t
    with simt.unsafe():
        cache = simt.shared_array(f32, BLOCK)
        cache[t] = temp[i]
    thread.sync_threads()
    stride = BLOCK // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                cache[t] = max(cache[t], cache[t + stride])
        thread.sync_threads()
        stride = stride // 2
    if t == 0:
        with simt.unsafe():  # one writer per block, and the grid has exactly len(hottest) blocks
            hottest.get_unchecked_mut(thread.block_idx_x()).set(cache[0])


class Disc:
    def __init__(self, device: sk.Device, stream: sk.Stream, alpha: float = 0.2, cooling: float = 0.002) -> None:
        self.stream = stream
        self.alpha, self.cooling = alpha, cooling
        self.config = simt.LaunchConfig1D.for_len(CELLS, block=BLOCK)
        self.prepared = diffuse.prepare(self.config, device)
        self.max_launch = block_max.prepare(self.config, device)
        self.temp = sk.to_device(np.full(CELLS, 30.0, np.float32), stream)
        self.next = sk.zeros(CELLS, f32, stream)
        self.hottest = sk.zeros(CELLS // BLOCK, f32, stream)

    def brake(self, heat_w: np.ndarray, steps: int) -> None:
        heat = sk.to_device(heat_w.astype(np.float32), self.stream)
        diffuse.launch(self.prepared, self.stream, self.temp, heat, self.next, self.alpha, self.cooling)
        self.temp, self.next = self.next, self.temp
        with simt.unsafe():  # same buffers and configuration as the checked launch above
            for _ in range(steps - 1):
                diffuse.launch_unchecked(self.config, self.stream, self.temp, heat, self.next, self.alpha,
                                         self.cooling)
                self.temp, self.next = self.next, self.temp

    def block_peaks(self) -> np.ndarray:
        block_max.launch(self.max_launch, self.stream, self.temp, self.hottest)
        return self.hottest.to_numpy(self.stream)


def pad_heat(pressure: float, rng: np.random.Generator) -> np.ndarray:
    angle = np.linspace(0.0, 2 * np.pi, CELLS, endpoint=False)
    under_pad = (angle > 0.2) & (angle < 1.1)
    return np.where(under_pad, pressure * rng.uniform(0.9, 1.1, CELLS), 0.0)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    disc = Disc(device, stream)
    rng = np.random.default_rng(12)
    for stop, pressure in enumerate([0.8, 1.2, 1.6]):
        disc.brake(pad_heat(pressure, rng), steps=20)
        peaks = disc.block_peaks()
        status = "FADE RISK" if peaks.max() > 45.0 else "ok"
        print(f"stop {stop + 1}: hottest block {int(peaks.argmax())} at {peaks.max():.1f} C ({status})")


if __name__ == "__main__":
    main()
