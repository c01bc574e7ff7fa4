# fresh-expect: clean
# fresh-note: RFID dock-door gates; async debounce launches are parked in a dict per gate and drained before each gate's hit buffer is moved into a tile weighting launch and stored back.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

READS = 128


@simt.kernel
@simt.launch_contract(block=64)
def debounce(rssi: Slice[f32], hits: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (h := hits.get_mut(idx)) is not None:
        h.set(f32(1.0) if rssi[i] > threshold else f32(0.0))


@tile.kernel
def zone_weight(score: Partition[f32], hits: Tensor[f32], weights: Tensor[f32]) -> None:
    score.store(tile.load_like(hits, score) * tile.load_like(weights, score))


class GateArray:
    def __init__(self, dev: sk.Device, stream: sk.Stream, gates: list[str]) -> None:
        self.stream = stream
        self.plan = debounce.prepare(simt.LaunchConfig1D.for_len(READS, block=64), dev)
        self.hits = {g: sk.zeros(READS, f32, stream) for g in gates}
        self.pending: dict[str, sk.DeviceOp] = {}

    def submit(self, gate: str, rssi_dbm: np.ndarray, threshold: float = -62.0) -> None:
        rssi = sk.to_device(rssi_dbm.astype(np.float32), self.stream)
        self.pending[gate] = debounce.launch_async(self.plan, rssi, self.hits[gate], threshold)

    def drain(self) -> int:
        done = 0
        while self.pending:
            _, op = self.pending.popitem()
            op.sync_on(self.stream)
            done += 1
        return done

    def score(self, gate: str, weights: np.ndarray) -> float:
        out = tile.zeros((READS,), f32).partition((32,))
        w = tile.from_numpy(weights.astype(np.float32))
        out, back, _ = zone_weight(out, self.hits.pop(gate), w).sync_on(self.stream)
        self.hits[gate] = back
        return float(out.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    doors = GateArray(dev, stream, ["dock_a", "dock_b", "dock_c"])
    rng = np.random.default_rng(21)
    for gate in doors.hits:
        doors.submit(gate, rng.uniform(-80.0, -40.0, READS))
    print("synced", doors.drain(), "gate batches")
    weights = np.where(np.arange(READS) % 4 == 0, 2.0, 1.0)
    for gate in list(doors.hits):
        print(f"{gate}: weighted reads {doors.score(gate, weights):.0f}")


if __name__ == "__main__":
    main()
