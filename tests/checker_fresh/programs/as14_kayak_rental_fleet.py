# fresh-expect: E0505 at line 63
# fresh-note: Kayak rental fleet; the booking decoder's `__enter__` leaves a launch_async op writing `staged` until `__exit__`, but the fleet allocation moves `dec.staged` into a tile launch inside the `with` block.
"""Daily kayak demand per launch site, decoded from booking codes."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SITES = 64                 # booking slots per day, one per site and boat class
TILE = 16
BOATS_PER_SITE = 6.0


@simt.kernel
@simt.launch_contract(block=64)
def decode_bookings(codes: Slice[i32], hours: DisjointSlice[f32], quarter: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (h := hours.get_mut(idx)) is not None:
        h.set(f32(codes[i] % 1000) * quarter)


@tile.kernel
def fleet_load(load: Partition[f32], hours: Tensor[f32], boats: f32) -> None:
    load.store(tile.load_like(hours, load) / (boats * 8.0))


class BookingDecoder:
    """Starts decoding on enter; the decoded hours are ready once the block exits."""

    def __init__(self, prepared: simt.PreparedLaunch, codes: np.ndarray, stream: sk.Stream) -> None:
        self.prepared = prepared
        self.stream = stream
        self.raw = sk.to_device(codes.astype(np.int32), stream)
        self.staged = sk.zeros(len(codes), f32, stream)
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> BookingDecoder:
        self.op = decode_bookings.launch_async(self.prepared, self.raw, self.staged, 0.25)
        return self

    def __exit__(self, *exc: object) -> bool:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None
        return False

    @property
    def bookings(self) -> int:
        return len(self.raw)


class Fleet:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.history: dict[str, float] = {}

    def allocate(self, day: str, hours: sk.DeviceBuffer) -> np.ndarray:
        load, _hours, _ = fleet_load(tile.zeros((SITES,), f32).partition((TILE,)), hours, BOATS_PER_SITE).sync_on(self.stream)
        usage = load.unpartition().to_numpy(self.stream)
        self.history[day] = float(usage.mean())
        return usage


def booking_codes(seed: int, busy: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    boat_class = rng.integers(1, 4, SITES) * 1000
    quarters = rng.poisson(busy * 16, SITES)
    return boat_class + np.minimum(quarters, 999)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = decode_bookings.prepare(simt.LaunchConfig1D.for_len(SITES, block=64), dev)
    fleet = Fleet(stream)
    week = {"sat": 2.5, "sun": 2.2, "mon": 0.8}
    for seed, (day, busy) in enumerate(week.items()):
        with BookingDecoder(prepared, booking_codes(seed, busy), stream) as dec:
            print(f"{day}: decoding {dec.bookings} booking slots")
            usage = fleet.allocate(day, dec.staged)
        overbooked = np.nonzero(usage > 1.0)[0]
        print(f"  mean utilisation {usage.mean():.2f}, overbooked sites: {overbooked.tolist() or 'none'}")
    print("busiest day:", max(fleet.history, key=fleet.history.get))


if __name__ == "__main__":
    main()
