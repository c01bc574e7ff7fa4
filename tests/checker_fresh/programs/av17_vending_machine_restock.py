# fresh-expect: E0502 at line 37
# fresh-known-miss: cli,mypy a generator yielding `Round` objects whose pending op borrows their buffer, read through a property by the consumer before `finish()`: the yielded object's fields are not followed, and the generator's next launch is reported as if the consumer never ran the op (false E0502 at 55)
# fresh-note: Vending-machine stock projection driven by a generator that yields one Round per hour with its async SIMT launch still pending; the consumer reads the round's `low_machines` property (a host to_numpy of the projected buffer the pending op writes) before calling finish().
"""Hour-by-hour stock projection for a fleet of vending machines."""
from __future__ import annotations
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

MACHINES = 1200
LOW_WATER = 6.0


@simt.kernel
@simt.launch_contract(block=128)
def project_stock(stock: Slice[f32], demand: Slice[f32], projected: DisjointSlice[f32], hours: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := projected.get_mut(idx)) is not None:
        o.set(max(f32(0.0), stock[i] - demand[i] * hours))


class Round:
    def __init__(self, hour: int, projected: sk.DeviceBuffer, op: sk.DeviceOp, stream: sk.Stream) -> None:
        self.hour = hour
        self.projected = projected
        self.op = op
        self.stream = stream

    @property
    def low_machines(self) -> np.ndarray:
        return np.flatnonzero(self.projected.to_numpy(self.stream) < LOW_WATER)

    def finish(self) -> sk.DeviceBuffer:
        self.op.sync_on(self.stream)
        return self.projected


def hourly_demand(hour: int, stream: sk.Stream) -> sk.DeviceBuffer:
    rng = np.random.default_rng(hour)
    lunch = 3.0 if 11 <= hour <= 13 else 1.0
    return sk.to_device((rng.poisson(0.8, MACHINES) * lunch).astype(np.float32), stream)


def rounds(stock: sk.DeviceBuffer, first_hour: int, last_hour: int, dev: sk.Device,
           stream: sk.Stream) -> Iterator[Round]:
    prepared = project_stock.prepare(simt.LaunchConfig1D.for_len(MACHINES, block=128), dev)
    for hour in range(first_hour, last_hour):
        projected = sk.zeros(MACHINES, f32, stream)
        op = project_stock.launch_async(prepared, stock, hourly_demand(hour, stream), projected, 1.0)
        current = Round(hour, projected, op, stream)
        yield current
        stock = current.projected  # the consumer has finished the round by now


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    stock = sk.to_device(np.full(MACHINES, 24.0, np.float32), stream)
    trucks = 0
    for rnd in rounds(stock, 8, 16, dev, stream):
        low = rnd.low_machines
        if len(low) > MACHINES // 10:
            trucks += 1
        rnd.finish()
        print(f"{rnd.hour:02d}:00 low machines: {len(low)}")
    print("trucks dispatched:", trucks)


if __name__ == "__main__":
    main()
