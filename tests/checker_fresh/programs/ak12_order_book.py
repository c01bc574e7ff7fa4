# fresh-expect: clean
# fresh-note: Order-flow imbalance per batch with a shared-memory block reduction and a depth replay that opens its own with simt.unsafe() block around each launch_unchecked.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

LEVELS = 64
BASE_TICK = 5_000
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def signed_volume(qty: Slice[i32], side: Slice[i32], partial: DisjointSlice[i32]) -> None:
    i = thread.index_1d().get()
    t = thread.thread_idx_x()
    v = i32(0)
    if i < len(qty):
        v = qty[i] * side[i]
    with simt.unsafe():
        scratch = simt.shared_array(i32, BLOCK)
        scratch[t] = v
    stride = BLOCK // 2
    while stride > 0:
        thread.sync_threads()
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        stride = stride // 2
    thread.sync_threads()
    if t == 0:
        with simt.unsafe():
            total = scratch[0]
            partial.get_unchecked_mut(thread.block_idx_x()).set(total)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def book_depth(ticks: Slice[i32], qty: Slice[i32], side: Slice[i32], bids: AtomicSlice[i32],
               asks: AtomicSlice[i32], base: i32) -> None:
    i = thread.index_1d().get()
    if i < len(ticks):
        level = ticks[i] - base
        if 0 <= level < len(bids):
            if side[i] > 0:
                bids.fetch_add(level, qty[i])
            else:
                asks.fetch_add(level, qty[i])


class FlowMonitor:
    def __init__(self, dev: sk.Device, stream: sk.Stream, batch: int) -> None:
        assert batch % BLOCK == 0
        self.stream = stream
        self.cfg = simt.LaunchConfig1D.for_len(batch, block=BLOCK)
        self.imbalance_launch = signed_volume.prepare(self.cfg, dev)
        self.partial = sk.zeros(batch // BLOCK, i32, stream)
        self.bids = sk.zeros(LEVELS, i32, stream)
        self.asks = sk.zeros(LEVELS, i32, stream)

    def _depth_unchecked(self, ticks: sk.DeviceBuffer, qty: sk.DeviceBuffer, side: sk.DeviceBuffer) -> None:
        with simt.unsafe():  # same config every batch, validated against the contract by prepare() above
            book_depth.launch_unchecked(self.cfg, self.stream, ticks, qty, side, self.bids, self.asks, BASE_TICK)

    def ingest(self, ticks: np.ndarray, qty: np.ndarray, side: np.ndarray) -> int:
        t, q, s = (sk.to_device(a, self.stream) for a in (ticks, qty, side))
        signed_volume.launch(self.imbalance_launch, self.stream, q, s, self.partial)
        self._depth_unchecked(t, q, s)
        return int(self.partial.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    batch = 128
    mon = FlowMonitor(dev, stream, batch)
    flows = []
    for k in range(3):
        side = np.where(rng.random(batch) < 0.4 + 0.1 * k, 1, -1).astype(np.int32)
        qty = rng.integers(1, 50, batch).astype(np.int32)
        ticks = (BASE_TICK + 32 - side * rng.integers(1, 16, batch)).astype(np.int32)
        flows.append(mon.ingest(ticks, qty, side))
        assert flows[-1] == int((qty * side).sum())
    depth = mon.bids.to_numpy(stream) + mon.asks.to_numpy(stream)
    print(f"order-flow imbalance per batch {flows}; resting volume {int(depth.sum())}")


if __name__ == "__main__":
    main()
