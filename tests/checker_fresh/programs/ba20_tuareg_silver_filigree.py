# fresh-expect: clean
# fresh-note: Draws filigree wire with a kernel using shared memory under simt.unsafe(); FestivalForge overrides the _dispatch hook with launch_unchecked wrapped in its own `with simt.unsafe():` block.
"""Agadez silversmith forge: anneals cast silver cross blanks and smooths the wire gauge along each filigree run."""
from __future__ import annotations

import collections
import time
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

WIRE_POINTS = 256
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def draw_wire(gauge: Slice[f32], drawn: DisjointSlice[f32], reduction: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    with simt.unsafe():
        staged = simt.shared_array(f32, BLOCK)
        staged[t] = gauge[i] if i < len(gauge) else 0.0
    thread.sync_threads()
    with simt.unsafe():
        left = staged[t - 1] if t > 0 else staged[t]
        right = staged[t + 1] if t + 1 < BLOCK else staged[t]
    if (cell := drawn.get_mut(idx)) is not None:
        cell.set((left + 2.0 * gauge[i] + right) * 0.25 * (1.0 - reduction))


@dataclass
class Blank:
    smith: str
    cross: str
    gauge: np.ndarray


class Forge:
    """Checked forge: every draw goes through the prepared launch."""

    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.config = simt.LaunchConfig1D.for_len(n, block=BLOCK)
        self.prepared = draw_wire.prepare(self.config, device)
        self.drawn = sk.zeros(n, f32, self.stream)
        self.timings: list[float] = []

    def _dispatch(self, gauge: sk.DeviceBuffer, reduction: float) -> None:
        draw_wire.launch(self.prepared, self.stream, gauge, self.drawn, reduction)

    def draw(self, blank: Blank, reduction: float) -> float:
        gauge = sk.to_device(blank.gauge.astype(np.float32), self.stream)
        start = time.perf_counter()
        self._dispatch(gauge, reduction)
        self.timings.append(time.perf_counter() - start)
        return float(self.drawn.to_numpy(self.stream).mean())


class FestivalForge(Forge):
    """Cure Salée rush: the config was validated once in __init__, so draws skip the per-call checks."""

    def _dispatch(self, gauge: sk.DeviceBuffer, reduction: float) -> None:
        # `gauge` is a fresh upload and `self.drawn` is only ever written here: no overlap to check
        with simt.unsafe():
            draw_wire.launch_unchecked(self.config, self.stream, gauge, self.drawn, reduction)


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(73)
    forge = FestivalForge(device, WIRE_POINTS)
    queue = collections.deque(
        Blank(smith, cross, rng.uniform(0.9, 1.1, WIRE_POINTS))
        for smith, cross in (("Ousmane", "Agadez"), ("Mariama", "Tahoua"), ("Aghali", "Iferouane"))
    )
    gauges = {}
    while queue:
        blank = queue.popleft()
        gauges[f"{blank.smith}/{blank.cross}"] = forge.draw(blank, reduction=0.15)
    for key, mm in gauges.items():
        print(f"{key:>18}: mean gauge {mm:.4f} mm")
    print(f"mean draw time {np.mean(forge.timings) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
