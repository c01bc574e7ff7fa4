# fresh-expect: E0308 at line 100
# fresh-known-miss: cli,mypy a frozen dataclass of prepared launches built positionally from a generator over `zip(KERNELS, shape.thread_counts())`: the splat of a generator over a method's result is not listed item by item
# fresh-note: Actuarial chain-ladder reserving: the module's KERNELS tuple lists ibnr before project while the plan dataclass is built positionally in (factors, project, reserve) order, so `plans.project` is the launch ibnr prepared.
from __future__ import annotations
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, PreparedLaunch, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def dev_factors(cum: Slice[f32], factors: DisjointSlice[f32], years: i32, periods: i32) -> None:
    idx = thread.index_1d()
    t = idx.get()
    p = t // (periods - 1)
    d = t % (periods - 1)
    num = f32(0.0)
    den = f32(0.0)
    for i in range(years - 1 - d):  # accident years observed at both d and d + 1
        base = (p * years + i) * periods
        if base + d + 1 < len(cum):
            num += cum[base + d + 1]
            den += cum[base + d]
    if (f := factors.get_mut(idx)) is not None:
        f.set(num / den if den > 0.0 else f32(1.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def project(cum: Slice[f32], factors: Slice[f32], out: DisjointSlice[f32], years: i32, periods: i32) -> None:
    idx = thread.index_1d()
    c = idx.get()
    p = c // (years * periods)
    i = (c // periods) % years
    j = c % periods
    last = years - 1 - i  # latest observed development period of accident year i
    if (o := out.get_mut(idx)) is not None:
        if j <= last:
            o.set(cum[c])
        else:
            v = cum[c - j + last]
            for k in range(last, j):
                v = v * factors[p * (periods - 1) + k]
            o.set(v)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def ibnr(projected: Slice[f32], cum: Slice[f32], reserve: DisjointSlice[f32], years: i32, periods: i32,
         tail: f32) -> None:
    idx = thread.index_1d()
    r = idx.get()
    i = r % years
    row = r * periods
    if (o := reserve.get_mut(idx)) is not None:
        o.set(projected[row + periods - 1] * tail - cum[row + years - 1 - i])


KERNELS = (dev_factors, ibnr, project)


@dataclass(frozen=True)
class TriangleShape:
    portfolios: int
    years: int

    def thread_counts(self) -> tuple[int, int, int]:
        p, a = self.portfolios, self.years
        return p * (a - 1), p * a * a, p * a


@dataclass(frozen=True)
class ReservingPlans:
    factors: PreparedLaunch
    project: PreparedLaunch
    reserve: PreparedLaunch

    @classmethod
    def build(cls, shape: TriangleShape, device: sk.Device) -> ReservingPlans:
        return cls(*(k.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
                     for k, n in zip(KERNELS, shape.thread_counts())))


def reserves(triangles: np.ndarray, tail: float, device: sk.Device) -> np.ndarray:
    shape = TriangleShape(triangles.shape[0], triangles.shape[1])
    plans = ReservingPlans.build(shape, device)
    s = device.new_stream()
    a = shape.years
    f_count, cells, rows = shape.thread_counts()
    cum = sk.to_device(triangles.ravel().astype(np.float32), s)
    factors, projected, reserve = (sk.zeros(count, f32, s) for count in (f_count, cells, rows))
    dev_factors.launch(plans.factors, s, cum, factors, a, a)
    project.launch(plans.project, s, cum, factors, projected, a, a)
    ibnr.launch(plans.reserve, s, projected, cum, reserve, a, a, tail)
    return reserve.to_numpy(s).reshape(shape.portfolios, a)


def synthetic_triangles(portfolios: int, years: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pattern = np.cumsum(rng.dirichlet(np.full(years, 2.0), portfolios), axis=1)  # cumulative payout shares
    premium = rng.uniform(500, 1500, (portfolios, years, 1))
    tri = premium * pattern[:, None, :]
    observed = np.add.outer(np.arange(years), np.arange(years)) < years
    return np.where(observed[None], tri, 0.0)


def main() -> None:
    tri = synthetic_triangles(portfolios=3, years=6, seed=9)
    got = reserves(tri, tail=1.02, device=sk.Device.cpu())
    p, a = 0, tri.shape[1]
    f = [tri[p, : a - 1 - d, d + 1].sum() / tri[p, : a - 1 - d, d].sum() for d in range(a - 1)]
    latest = tri[p, 1, a - 2]
    want = latest * f[a - 2] * 1.02 - latest
    assert abs(got[p, 1] - want) < 1e-2 * want, (got[p, 1], want)
    for line, row in zip(("motor", "property", "liability"), got):
        print(f"{line:>9}: total IBNR {row.sum():9.1f}")


if __name__ == "__main__":
    main()
