# fresh-expect: E0308 at line 68
# fresh-known-miss: cli,mypy a prepared launch paired with its kernel by `zip(sorted(RISK_KERNELS), RISK_KERNELS.values())`: which kernel each launch was prepared for depends on the order of the data
"""Daily risk report for a book of assets: parametric VaR, expected shortfall and annualized volatility.

Each metric is a SIMT kernel over the per-asset daily volatilities.  The kernels live in a module-level
registry so the report can list them by name; every metric is checked against numpy.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
Z_99 = 2.326
PHI_Z_99 = 0.02665  # standard normal pdf at Z_99


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(sigma) >= len(out)",))
def value_at_risk(sigma: Slice[f32], out: DisjointSlice[f32], notional: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(notional * f32(Z_99) * sigma[i])


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(sigma) >= len(out)",))
def expected_shortfall(sigma: Slice[f32], out: DisjointSlice[f32], notional: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(notional * sigma[i] * f32(PHI_Z_99 / 0.01))


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(sigma) >= len(out)",))
def annualized_vol(sigma: Slice[f32], out: DisjointSlice[f32], notional: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(sigma[i] * f32(math.sqrt(252.0)))


RISK_KERNELS = {"var": value_at_risk, "es": expected_shortfall, "vol": annualized_vol}

REFERENCE = {
    "var": lambda s, notional: notional * np.float32(Z_99) * s,
    "es": lambda s, notional: notional * s * np.float32(PHI_Z_99 / 0.01),
    "vol": lambda s, notional: s * np.float32(math.sqrt(252.0)),
}


def prepare_all(n_assets: int, device: sk.Device) -> dict[str, simt.PreparedLaunch]:
    config = simt.LaunchConfig1D.for_len(n_assets, block=BLOCK)
    return {name: kernel.prepare(config, device) for name, kernel in zip(sorted(RISK_KERNELS), RISK_KERNELS.values())}


def compute(metric: str, sigma: sk.DeviceBuffer, prepared: dict, stream: sk.Stream, notional: float) -> np.ndarray:
    out = sk.zeros(len(sigma), f32, stream)
    RISK_KERNELS[metric].launch(prepared[metric], stream, sigma, out, notional)
    return out.to_numpy(stream)


def daily_vols(returns: np.ndarray) -> np.ndarray:
    return returns.std(axis=0, ddof=1).astype(np.float32)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(2024)
    n_assets, n_days = 500, 250
    scales = rng.uniform(0.005, 0.04, n_assets)
    returns = rng.standard_normal((n_days, n_assets)) * scales
    sigma_host = daily_vols(returns)
    sigma = sk.to_device(sigma_host, stream)
    prepared = prepare_all(n_assets, device)
    notional = 1_000_000.0
    report = {}
    for metric in ("var", "es", "vol"):
        got = compute(metric, sigma, prepared, stream, notional)
        np.testing.assert_allclose(got, REFERENCE[metric](sigma_host, np.float32(notional)), rtol=1e-5)
        report[metric] = float(got.sum())
    for metric, total in report.items():
        print(f"{metric:>4}: {total:,.2f}")


if __name__ == "__main__":
    main()
