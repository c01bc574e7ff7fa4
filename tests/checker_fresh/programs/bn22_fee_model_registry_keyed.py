# fresh-expect: clean
# fresh-note: Twin of bn21: the registry prepares each launch by looking the kernel up under its own name, so every model's prepared launch is branded for the kernel launched with it.
"""Transaction-cost engine: applies one of several fee models to each account's fills (SIMT track)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def flat_fee(notional: Slice[f32], rate: f32, fees: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := fees.get_mut(idx)) is not None:
        o.set(rate + notional[i] * f32(0.0))


@simt.kernel
@simt.launch_contract(block=64)
def bps_fee(notional: Slice[f32], rate: f32, fees: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := fees.get_mut(idx)) is not None:
        o.set(abs(notional[i]) * rate * f32(1.0e-4))


@simt.kernel
@simt.launch_contract(block=64)
def tiered_fee(notional: Slice[f32], rate: f32, fees: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := fees.get_mut(idx)) is not None:
        n = abs(notional[i])
        if n > f32(50000.0):
            o.set(n * rate * f32(0.5e-4))
        else:
            o.set(n * rate * f32(1.0e-4))


KERNELS = {"flat": flat_fee, "bps": bps_fee, "tiered": tiered_fee}
REFERENCE = {
    "flat": lambda x, r: np.full_like(x, r),
    "bps": lambda x, r: np.abs(x) * r * 1e-4,
    "tiered": lambda x, r: np.where(np.abs(x) > 50000, np.abs(x) * r * 0.5e-4, np.abs(x) * r * 1e-4),
}


@dataclass(order=True)
class Account:
    name: str
    model: str
    rate: float
    fills: np.ndarray


class FeeEngine:
    def __init__(self, dev: sk.Device, max_fills: int) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.max_fills = max_fills
        self.names = sorted(KERNELS)
        cfg = simt.LaunchConfig1D.for_len(max_fills, block=64)
        self.prepared = {name: KERNELS[name].prepare(cfg, dev) for name in self.names}

    def charge(self, account: Account) -> np.ndarray:
        n = len(account.fills)
        padded = np.zeros(self.max_fills, np.float32)
        padded[:n] = account.fills
        notional = sk.to_device(padded, self.stream)
        fees = sk.zeros(self.max_fills, f32, self.stream)
        kernel = KERNELS[account.model]
        kernel.launch(self.prepared[account.model], self.stream, notional, account.rate, fees)
        return fees.to_numpy(self.stream)[:n]

    def run(self, accounts: list[Account]) -> dict[str, float]:
        totals: dict[str, float] = defaultdict(float)
        for acct in sorted(accounts, key=attrgetter("model", "name")):
            fees = self.charge(acct)
            want = REFERENCE[acct.model](acct.fills.astype(np.float32), np.float32(acct.rate))
            assert np.allclose(fees, want, rtol=1e-4), acct.name
            totals[acct.model] += float(fees.sum())
        return dict(totals)


def main() -> None:
    rng = np.random.default_rng(13)
    accounts = [
        Account("alpha", "flat", 1.5, rng.normal(0, 2e4, 100)),
        Account("beta", "tiered", 2.0, rng.normal(0, 8e4, 120)),
        Account("gamma", "bps", 0.8, rng.normal(0, 5e4, 90)),
        Account("delta", "flat", 2.5, rng.normal(0, 1e4, 60)),
    ]
    engine = FeeEngine(sk.Device.cpu(), max_fills=128)
    totals = engine.run(accounts)
    for model, total in sorted(totals.items(), key=lambda kv: kv[1], reverse=True):
        print(f"{model:<7} {total:>12.2f}")


if __name__ == "__main__":
    main()
