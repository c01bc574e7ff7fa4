# fresh-expect: E0499 at line 72
# fresh-known-miss: cli,mypy a deque pool sized max(1, n // 2) handing out its one buffer twice: the length a computed size gives a pool is not followed
# fresh-note: Schedules argan oil presses that split paste into oil and press cake; the scratch pool is sized max(1, presses // 2) = 1 for two presses, so both take() calls return the same buffer and it is passed as the two mutable outputs oil and cake.
"""Argan cooperative press scheduler: splits roasted kernel paste into oil and press cake, batch by batch."""
from __future__ import annotations
import collections
from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PASTE_CELLS = 256


@simt.kernel
@simt.launch_contract(block=64)
def press(paste: Slice[f32], oil: DisjointSlice[f32], cake: DisjointSlice[f32], extraction: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    mass = paste[i]
    if (o := oil.get_mut(idx)) is not None:
        o.set(mass * extraction)
    j = thread.index_1d()
    if (c := cake.get_mut(j)) is not None:
        c.set(mass * (1.0 - extraction))


@simt.kernel
@simt.launch_contract(block=64)
def settle(raw: Slice[f32], clear: DisjointSlice[f32], sediment: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := clear.get_mut(idx)) is not None:
        out.set(raw[i] * (1.0 - sediment))


class ScratchPool:
    """Hands out device buffers round-robin so consecutive batches reuse memory."""

    def __init__(self, stream: sk.Stream, n: int, capacity: int) -> None:
        self._ring = collections.deque(sk.zeros(n, f32, stream) for _ in range(capacity))

    def take(self) -> sk.DeviceBuffer:
        buf = self._ring[0]
        self._ring.rotate(-1)
        return buf


@dataclass
class Batch:
    grower: str
    paste: np.ndarray
    extraction: float = 0.42
    oil_litres: float = field(default=0.0, init=False)


class PressHouse:
    def __init__(self, device: sk.Device, n: int, presses: int) -> None:
        self.stream = device.new_stream()
        cfg = simt.LaunchConfig1D.for_len(n, block=64)
        self.plans = {"press": press.prepare(cfg, device), "settle": settle.prepare(cfg, device)}
        # two outputs per press, shared between the presses that run one after another
        self.pool = ScratchPool(self.stream, n, capacity=max(1, presses // 2))
        self.clear = sk.zeros(n, f32, self.stream)

    def process(self, batch: Batch) -> Batch:
        paste = sk.to_device(batch.paste.astype(np.float32), self.stream)
        oil, cake = self.pool.take(), self.pool.take()
        press.launch(self.plans["press"], self.stream, paste, oil, cake, batch.extraction)
        settle.launch(self.plans["settle"], self.stream, oil, self.clear, 0.05)
        batch.oil_litres = float(self.clear.to_numpy(self.stream).sum()) / 1000.0
        return batch


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(3)
    house = PressHouse(device, PASTE_CELLS, presses=2)
    queue = [Batch(g, rng.uniform(0.8, 1.2, PASTE_CELLS)) for g in ("Aït Baha", "Tamanar", "Smimou")]
    done: list[Batch] = []
    while queue:
        batch = queue.pop(0)
        done.append(house.process(batch))
    for batch in done:
        print(f"{batch.grower:>10}: {batch.oil_litres:.3f} L")


if __name__ == "__main__":
    main()
