# fresh-expect: E0308 at line 92
# idiom: kernels and prepared launches in two registries looked up under one computed key; one entry prepared for another kernel
"""Monte Carlo prices of European options under geometric Brownian motion.

One set of standard normal draws is shared by every contract; each payoff kernel turns a draw
into a discounted payoff, and the host averages them.  Prices are compared against the
Black-Scholes closed forms within four standard errors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(z) >= len(out)",))
def call_payoff(z: Slice[f32], out: DisjointSlice[f32], s0: f32, strike: f32, drift: f32, vol: f32,
                disc: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        st = s0 * math.exp(drift + vol * z[i])
        o.set(disc * max(st - strike, f32(0.0)))


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(z) >= len(out)",))
def put_payoff(z: Slice[f32], out: DisjointSlice[f32], s0: f32, strike: f32, drift: f32, vol: f32,
               disc: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        st = s0 * math.exp(drift + vol * z[i])
        o.set(disc * max(strike - st, f32(0.0)))


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(z) >= len(out)",))
def digital_payoff(z: Slice[f32], out: DisjointSlice[f32], s0: f32, strike: f32, drift: f32, vol: f32,
                   disc: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        st = s0 * math.exp(drift + vol * z[i])
        if st > strike:
            o.set(disc)
        else:
            o.set(f32(0.0))


PAYOFFS = {"call": call_payoff, "put": put_payoff, "digital": digital_payoff}


@dataclass(frozen=True)
class Option:
    kind: str
    strike: float
    expiry: float


class MonteCarloPricer:
    def __init__(self, spot: float, rate: float, sigma: float, paths: int, seed: int = 11) -> None:
        self.spot, self.rate, self.sigma, self.paths = spot, rate, sigma, paths
        self.dev = sk.Device.cpu()
        self.stream = self.dev.new_stream()
        draws = np.random.default_rng(seed).standard_normal(paths).astype(np.float32)
        self.z = sk.to_device(draws, self.stream)
        config = simt.LaunchConfig1D.for_len(paths, block=BLOCK)
        self.prepared = {
            "call": call_payoff.prepare(config, self.dev),
            "put": put_payoff.prepare(config, self.dev),
            "digital": call_payoff.prepare(config, self.dev),
        }

    def price(self, option: Option) -> tuple[float, float]:
        t = option.expiry
        drift = (self.rate - 0.5 * self.sigma**2) * t
        vol = self.sigma * math.sqrt(t)
        disc = math.exp(-self.rate * t)
        payoffs = sk.zeros(self.paths, f32, self.stream)
        kernel, prepared = PAYOFFS[option.kind], self.prepared[option.kind]
        kernel.launch(prepared, self.stream, self.z, payoffs, self.spot, option.strike, drift, vol, disc)
        values = payoffs.to_numpy(self.stream).astype(np.float64)
        return float(values.mean()), float(values.std(ddof=1) / math.sqrt(self.paths))


def black_scholes(option: Option, spot: float, rate: float, sigma: float) -> float:
    cdf = lambda x: 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))  # noqa: E731
    t = option.expiry
    d1 = (math.log(spot / option.strike) + (rate + 0.5 * sigma**2) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    disc = math.exp(-rate * t)
    if option.kind == "call":
        return spot * cdf(d1) - option.strike * disc * cdf(d2)
    if option.kind == "put":
        return option.strike * disc * cdf(-d2) - spot * cdf(-d1)
    return disc * cdf(d2)


def main() -> None:
    pricer = MonteCarloPricer(spot=100.0, rate=0.03, sigma=0.25, paths=8192)
    book = [Option("call", 105.0, 0.5), Option("put", 95.0, 1.0), Option("digital", 100.0, 0.75)]
    for option in book:
        mc, stderr = pricer.price(option)
        exact = black_scholes(option, pricer.spot, pricer.rate, pricer.sigma)
        assert abs(mc - exact) < 4.0 * stderr + 1e-6, (option, mc, exact)
        print(f"{option.kind:>8} K={option.strike:6.1f} T={option.expiry:.2f}: {mc:8.4f} (exact {exact:8.4f})")


if __name__ == "__main__":
    main()
