# fresh-expect: clean
# fresh-note: Stadium turnstile counts; a feed context manager decodes ticks with launch_async on enter and syncs on exit, and the decoded buffer is moved into the gate-pressure tile launch only after the `with` block.
"""Entry counts per turnstile bank for each arrival window before kick-off."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

GATES = 48
TILE = 12
TICKS_PER_ENTRY = 2
GATE_CAPACITY_PER_MIN = 22.0


@simt.kernel
@simt.launch_contract(block=64)
def decode_ticks(ticks: Slice[i32], entries: DisjointSlice[f32], per_entry: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := entries.get_mut(idx)) is not None:
        e.set(f32(ticks[i] // per_entry))


@tile.kernel
def gate_pressure(pressure: Partition[f32], entries: Tensor[f32], capacity: f32, minutes: f32) -> None:
    pressure.store(tile.load_like(entries, pressure) / (capacity * minutes))


class TurnstileFeed:
    """Decodes one arrival window; `entries` is valid after the block exits."""

    def __init__(self, prepared: simt.PreparedLaunch, ticks: np.ndarray, stream: sk.Stream) -> None:
        self.prepared = prepared
        self.stream = stream
        self.ticks = sk.to_device(ticks.astype(np.int32), stream)
        self.entries = sk.zeros(len(ticks), f32, stream)
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> TurnstileFeed:
        self.op = decode_ticks.launch_async(self.prepared, self.ticks, self.entries, TICKS_PER_ENTRY)
        return self

    def __exit__(self, *exc: object) -> bool:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None
        return False


class OpsDesk:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.hot_gates: dict[str, list[int]] = {}

    def assess(self, window: str, entries: sk.DeviceBuffer, minutes: float) -> np.ndarray:
        part, _entries, _, _ = gate_pressure(
            tile.zeros((GATES,), f32).partition((TILE,)), entries, GATE_CAPACITY_PER_MIN, minutes
        ).sync_on(self.stream)
        pressure = part.unpartition().to_numpy(self.stream)
        self.hot_gates[window] = np.nonzero(pressure > 0.9)[0].tolist()
        return pressure


def window_ticks(seed: int, crowd: float, minutes: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    popular = np.where(np.arange(GATES) < 8, 1.6, 1.0)      # the gates nearest the metro exit
    return rng.poisson(crowd * popular * minutes * TICKS_PER_ENTRY, GATES)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = decode_ticks.prepare(simt.LaunchConfig1D.for_len(GATES, block=64), dev)
    desk = OpsDesk(stream)
    windows = [("T-90", 6.0, 30.0), ("T-60", 14.0, 30.0), ("T-30", 19.0, 20.0), ("T-10", 0.0, 10.0)]
    for seed, (name, crowd, minutes) in enumerate(windows):
        if crowd == 0.0:
            continue                       # feed not in yet
        with TurnstileFeed(prepared, window_ticks(seed, crowd, minutes), stream) as feed:
            print(f"{name}: decoding {GATES} gates")
        pressure = desk.assess(name, feed.entries, minutes)
        print(f"  peak gate load {pressure.max():.2f}, mean {pressure.mean():.2f}")
    for name, gates in desk.hot_gates.items():
        if gates:
            print(f"{name}: open overflow lanes at gates {gates}")


if __name__ == "__main__":
    main()
