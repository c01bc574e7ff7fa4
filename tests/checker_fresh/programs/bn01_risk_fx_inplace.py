# fresh-expect: E0502 at line 76
# fresh-note: Risk aggregation that converts notionals to the base currency; with the default RiskConfig(inplace=True) the book picks its own notional column as the output buffer, so the FX launch reads and writes the same buffer (E0502).
"""Desk-level risk aggregation over a small columnar position book.

Each position has a notional in its trade currency, an FX rate to the base currency and a desk id.  The book
converts the notionals to base currency, then accumulates the exposure per desk with atomics.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import islice

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def fx_convert(notional: Slice[f32], rate: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(notional[i] * rate[i])


@simt.kernel
@simt.launch_contract(block=128)
def desk_sum(values: Slice[f32], desk: Slice[i32], totals: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(values):
        totals.fetch_add(desk[i], values[i])


@dataclass
class RiskConfig:
    desks: int = 4
    inplace: bool = True      # convert the notional column in place to save memory
    block: int = 128


class PositionBook:
    def __init__(self, notional: np.ndarray, rate: np.ndarray, desk: np.ndarray, config: RiskConfig) -> None:
        self.dev = sk.Device.cpu()
        self.stream = self.dev.new_stream()
        self.config = config
        self.cols = {
            "notional": sk.to_device(notional.astype(np.float32), self.stream),
            "rate": sk.to_device(rate.astype(np.float32), self.stream),
            "desk": sk.to_device(desk.astype(np.int32), self.stream),
        }
        cfg = simt.LaunchConfig1D.for_len(len(notional), block=config.block)
        self.fx_prep = fx_convert.prepare(cfg, self.dev)
        self.sum_prep = desk_sum.prepare(cfg, self.dev)

    def __len__(self) -> int:
        return len(self.cols["desk"])

    def __getitem__(self, name: str) -> sk.DeviceBuffer:
        return self.cols[name]

    @property
    def converted_target(self) -> sk.DeviceBuffer:
        if self.config.inplace:
            return self.cols["notional"]
        return sk.zeros(len(self), f32, self.stream)

    def to_base(self) -> sk.DeviceBuffer:
        target = self.converted_target
        notional = self["notional"]
        rates = self["rate"]
        fx_convert.launch(self.fx_prep, self.stream, notional, rates, target)
        self.cols["notional"] = target
        return target

    def desk_totals(self) -> np.ndarray:
        base = self.to_base()
        totals = sk.zeros(self.config.desks, f32, self.stream)
        desk_sum.launch(self.sum_prep, self.stream, base, self.cols["desk"], totals)
        return totals.to_numpy(self.stream)


def make_positions(n: int, desks: int, seed: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    notional = rng.uniform(-1e4, 1e4, n)
    rate = rng.choice([1.0, 1.08, 0.0067, 1.27], n)
    desk = rng.integers(0, desks, n)
    return notional, rate, desk


def main() -> None:
    config = RiskConfig()
    notional, rate, desk = make_positions(300, config.desks)
    book = PositionBook(notional, rate, desk, config)
    totals = book.desk_totals()
    expected = np.array([(notional * rate)[desk == d].sum() for d in range(config.desks)])
    assert np.allclose(totals, expected, rtol=1e-3, atol=1.0)
    gross = reduce(lambda acc, v: acc + abs(v), totals, 0.0)
    for d, value in islice(enumerate(totals), config.desks):
        print(f"desk {d}: {value:12.2f} ({abs(value) / gross:.1%} of gross)")


if __name__ == "__main__":
    main()
