# fresh-expect: W0003 at line 66
# fresh-note: Black-Scholes deltas for option batches from a generator; the delta launch is built before the expiry check, and the expired batch's `continue` drops the op unrun.
"""Black-Scholes call deltas per expiry batch, with expired batches settled on the host."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 256
RATE = 0.04
SQRT_2_OVER_PI = 0.7978845608


@tile.function
def norm_cdf(x):
    # tanh approximation of the standard normal CDF (max abs error ~3e-4)
    return 0.5 * (1.0 + tile.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)))


@tile.kernel
def call_delta(out: Partition[f32], spot: Tensor[f32], strike: Tensor[f32], vol: Tensor[f32],
               tau: f32, sqrt_tau: f32, rate: f32) -> None:
    s = tile.load_like(spot, out)
    k = tile.load_like(strike, out)
    sigma = tile.load_like(vol, out)
    d1 = (tile.log(s / k) + (rate + 0.5 * sigma * sigma) * tau) / (sigma * sqrt_tau)
    out.store(norm_cdf(d1))


@dataclass
class Batch:
    expiry: str
    tau: float  # years to expiry
    spot: np.ndarray
    strike: np.ndarray
    vol: np.ndarray


EXPIRIES = {"2025-06": 0.25, "2025-03": 0.0, "2025-12": 0.75}


def batches(seed: int, per_batch: int) -> Iterator[Batch]:
    rng = np.random.default_rng(seed)
    for expiry, tau in EXPIRIES.items():
        spot = np.full(per_batch, 100.0, np.float32)
        strike = rng.uniform(70.0, 130.0, per_batch).astype(np.float32)
        vol = rng.uniform(0.1, 0.5, per_batch).astype(np.float32)
        yield Batch(expiry, tau, spot, strike, vol)


def main() -> None:
    stream = sk.Device.default().new_stream()
    per_batch = 1000
    deltas: dict[str, np.ndarray] = {}
    for batch in batches(seed=3, per_batch=per_batch):
        out = tile.zeros((per_batch,), f32).partition((TILE,))
        inputs = [tile.from_numpy(a) for a in (batch.spot, batch.strike, batch.vol)]
        op = call_delta(out, *inputs, batch.tau, math.sqrt(batch.tau), RATE)
        if batch.tau <= 0.0:
            # expired: the delta is a step function of moneyness
            deltas[batch.expiry] = (batch.spot > batch.strike).astype(np.float32)
            continue
        out, *_ = op.sync_on(stream)
        deltas[batch.expiry] = out.unpartition().to_numpy(stream)
    for expiry in sorted(deltas):
        d = deltas[expiry]
        print(f"{expiry}: mean delta {d.mean():.3f}, in [{d.min():.3f}, {d.max():.3f}]")


if __name__ == "__main__":
    main()
