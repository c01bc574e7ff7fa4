# fresh-expect: E0505 at line 54
# fresh-known-miss: cli,mypy (buffer, pending op) tuples a method returns, kept by a dict comprehension and unpacked by `for k, (payoffs, pending) in jobs.items()`: a loop over a container runs every stored op at its first item, so moving the buffer before `pending.sync_on` is not seen
"""Monte Carlo prices of European calls over a strike ladder.

Terminal prices are simulated once under geometric Brownian motion.  For every strike the discounted
payoffs are computed on the SIMT track (queued asynchronously, all strikes at once), then summed in chunks
by a tile reduction.  Prices are compared with Black-Scholes.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 256
CHUNK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(terminal) >= len(payoff)",))
def call_payoff(terminal: Slice[f32], payoff: DisjointSlice[f32], strike: f32, discount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := payoff.get_mut(idx)) is not None:
        out.set(max(terminal[i] - strike, f32(0.0)) * discount)


@tile.kernel
def chunk_sums(partial: Partition[f32], values: Tensor[f32]) -> None:
    chunk = values.load((tile.bid(0),), (CHUNK,))
    partial.store(tile.reshape(tile.sum(chunk), (1,)))


class Pricer:
    def __init__(self, paths: int, rate: float, maturity: float, device: sk.Device, stream: sk.Stream) -> None:
        self.paths = paths
        self.discount = math.exp(-rate * maturity)
        self.stream = stream
        self.prepared = call_payoff.prepare(simt.LaunchConfig1D.for_len(paths, block=BLOCK), device)

    def start(self, terminal: sk.DeviceBuffer, strike: float) -> tuple[sk.DeviceBuffer, sk.DeviceOp]:
        payoffs = sk.zeros(self.paths, f32, self.stream)
        return payoffs, call_payoff.launch_async(self.prepared, terminal, payoffs, strike, self.discount)

    def mean(self, payoffs: sk.DeviceBuffer) -> float:
        chunks = -(-self.paths // CHUNK)
        partial, _ = chunk_sums(tile.zeros((chunks,), f32).partition((1,)), payoffs).sync_on(self.stream)
        return float(partial.unpartition().to_numpy(self.stream).sum()) / self.paths


def black_scholes_call(s0: float, k: float, r: float, sigma: float, t: float) -> float:
    d1 = (math.log(s0 / k) + (r + 0.5 * sigma**2) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    cdf = lambda x: 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))  # noqa: E731
    return s0 * cdf(d1) - k * math.exp(-r * t) * cdf(d2)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    s0, r, sigma, t = 100.0, 0.03, 0.2, 1.0
    paths = 4_096
    rng = np.random.default_rng(123)
    z = rng.standard_normal(paths)
    terminal_host = (s0 * np.exp((r - 0.5 * sigma**2) * t + sigma * math.sqrt(t) * z)).astype(np.float32)
    terminal = sk.to_device(terminal_host, stream)
    pricer = Pricer(paths, r, t, device, stream)
    strikes = (90.0, 100.0, 110.0)
    jobs = {k: pricer.start(terminal, k) for k in strikes}
    prices = {}
    for strike, (payoffs, pending) in jobs.items():
        prices[strike] = pricer.mean(payoffs)
        pending.sync_on(stream)
    for strike, price in prices.items():
        exact = black_scholes_call(s0, strike, r, sigma, t)
        assert abs(price - exact) < 1.0, (strike, price, exact)
        print(f"K={strike:6.1f}: MC {price:7.3f}  BS {exact:7.3f}")


if __name__ == "__main__":
    main()
