# fresh-expect: clean
# fresh-note: Semiconductor wafer-map yield: the shared-memory block reduction lives in a @simt.device helper that opens its own unsafe blocks, so every shared-array access is covered.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SIDE = 8
BLOCK = SIDE * SIDE  # one thread block per wafer map, one thread per die
KILLER = 3  # a die with this many defects or more is scrapped


@simt.device
def block_sum(value: i32) -> i32:
    t = thread.thread_idx_x()
    with simt.unsafe():  # t < BLOCK: every index below stays inside the block's array
        scratch = simt.shared_array(i32, BLOCK)
        scratch[t] = value
    thread.sync_threads()
    stride = BLOCK // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2
    with simt.unsafe():
        total = scratch[0]
    return total


@simt.kernel
@simt.launch_contract(block=BLOCK)
def wafer_yield(defects: Slice[i32], usable: Slice[i32], good_dies: AtomicSlice[i32], killer: i32) -> None:
    i = thread.index_1d().get()
    good = 0
    if i < len(defects):
        if usable[i] == 1 and defects[i] < killer:
            good = 1
    total = block_sum(i32(good))
    if thread.thread_idx_x() == 0:
        good_dies.fetch_add(thread.block_idx_x(), total)


@tile.kernel
def edge_exclusion(usable: Partition[i32], radius2: Tensor[i32], limit: i32) -> None:
    r = tile.load_like(radius2, usable)
    usable.store(tile.where(r <= limit, 1, 0))


def radius_grid() -> np.ndarray:
    rows, cols = np.mgrid[0:SIDE, 0:SIDE]
    return ((2 * rows - SIDE + 1) ** 2 + (2 * cols - SIDE + 1) ** 2).ravel().astype(np.int32)


@dataclass
class Wafer:
    wafer_id: str
    defects: np.ndarray

    @property
    def flat(self) -> np.ndarray:
        return self.defects.reshape(-1).astype(np.int32)


@dataclass
class LotInspector:
    device: sk.Device
    stream: sk.Stream
    exclusion: int = 60  # squared radius (in half-die units) beyond which dies are edge dies
    history: dict[str, float] = field(default_factory=dict)

    def usable_map(self, n_wafers: int) -> tile.Tensor:
        r2 = np.tile(radius_grid(), n_wafers)
        usable = tile.zeros((n_wafers * BLOCK,), i32).partition((BLOCK,))
        usable, _, _ = edge_exclusion(usable, tile.from_numpy(r2), self.exclusion).sync_on(self.stream)
        return usable.unpartition()

    def inspect(self, wafers: list[Wafer]) -> dict[str, float]:
        n = len(wafers)
        defects = sk.to_device(np.concatenate([w.flat for w in wafers]), self.stream)
        usable = self.usable_map(n)
        good = sk.zeros(n, i32, self.stream)
        prepared = wafer_yield.prepare(simt.LaunchConfig1D.for_len(n * BLOCK, block=BLOCK), self.device)
        wafer_yield.launch(prepared, self.stream, defects, usable.as_buffer(), good, KILLER)
        per_wafer = int(usable.to_numpy(self.stream)[:BLOCK].sum())
        yields = {w.wafer_id: int(c) / per_wafer for w, c in zip(wafers, good.to_numpy(self.stream))}
        self.history.update(yields)
        return yields


def synthetic_lot(lot: str, count: int, seed: int) -> list[Wafer]:
    rng = np.random.default_rng(seed)
    return [Wafer(f"{lot}-{k:02d}", rng.poisson(0.8 + 0.3 * k, (SIDE, SIDE))) for k in range(count)]


def main() -> None:
    device = sk.Device.cpu()
    inspector = LotInspector(device, device.new_stream())
    lot = synthetic_lot("L7731", 4, seed=11)
    yields = inspector.inspect(lot)
    usable = radius_grid() <= inspector.exclusion
    for wafer in lot:
        want = np.sum((wafer.flat < KILLER) & usable) / usable.sum()
        assert abs(yields[wafer.wafer_id] - want) < 1e-9, (wafer.wafer_id, yields[wafer.wafer_id], want)
    worst = min(yields, key=yields.__getitem__)
    print(f"lot yield {np.mean(list(yields.values())):.3f}, worst wafer {worst} at {yields[worst]:.3f}")


if __name__ == "__main__":
    main()
