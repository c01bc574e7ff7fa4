# fresh-expect: clean
# fresh-note: Monte Carlo pricing of an option book with tile kernels dispatched by a match statement; the terminal prices are a .shared() op, so the deferred digital launches and the later calls and puts all read it without moving it.
"""Price a small book of European options from simulated terminal prices (geometric Brownian motion)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N_PATHS = 4096
TILE = 512
SPOT, RATE, VOL, MATURITY = 100.0, 0.03, 0.2, 1.0


@tile.kernel
def call_payoff(out: Partition[f32], st: Tensor[f32], strike: f32) -> None:
    s = tile.load_like(st, out)
    out.store(tile.maximum(s - strike, 0.0))


@tile.kernel
def put_payoff(out: Partition[f32], st: Tensor[f32], strike: f32) -> None:
    s = tile.load_like(st, out)
    out.store(tile.maximum(strike - s, 0.0))


@tile.kernel
def digital_payoff(out: Partition[f32], st: Tensor[f32], strike: f32) -> None:
    s = tile.load_like(st, out)
    out.store(tile.where(s > strike, 1.0, 0.0))


@dataclass(frozen=True)
class Option:
    label: str
    kind: str
    strike: float


BOOK = [
    Option("C95", "call", 95.0),
    Option("D100", "digital", 100.0),
    Option("C105", "call", 105.0),
    Option("P100", "put", 100.0),
    Option("P90", "put", 90.0),
]


def simulate_terminal(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(N_PATHS // 2)
    z = np.concatenate([z, -z])  # antithetic pairs
    drift = (RATE - 0.5 * VOL * VOL) * MATURITY
    return (SPOT * np.exp(drift + VOL * math.sqrt(MATURITY) * z)).astype(np.float32)


def fresh_payoffs() -> sk.DeviceOp:
    return tile.zeros((N_PATHS,), f32).partition((TILE,))


def main() -> None:
    stream = sk.Device.default().new_stream()
    discount = math.exp(-RATE * MATURITY)
    terminal = tile.from_numpy(simulate_terminal(seed=7)).shared()  # read by every launch, moved by none
    prices: dict[str, float] = {}
    deferred = []
    for opt in BOOK:
        out = fresh_payoffs()
        match opt:
            case Option(kind="call", strike=k):
                out, _, _ = call_payoff(out, terminal, k).sync_on(stream)
                prices[opt.label] = discount * float(out.unpartition().to_numpy(stream).mean())
            case Option(kind="digital", strike=k):
                # digitals are cheap: batch them and run them together at the end
                deferred.append((opt.label, digital_payoff(out, terminal, k)))
            case Option(kind="put", strike=k):
                out, _, _ = put_payoff(out, terminal, k).sync_on(stream)
                prices[opt.label] = discount * float(out.unpartition().to_numpy(stream).mean())
            case _:
                raise ValueError(f"unsupported option kind {opt.kind!r}")
    if deferred:
        results = sk.zip(*(op for _, op in deferred)).sync_on(stream)
        for (label, _), (payoff, _, _) in zip(deferred, results):
            prices[label] = discount * float(payoff.unpartition().to_numpy(stream).mean())
    for label, price in sorted(prices.items()):
        print(f"{label:>5}: {price:8.4f}")


if __name__ == "__main__":
    main()
