# fresh-expect: E0382 at line 88
# fresh-note: Historical-simulation VaR: a helper feeds the scenario P&L buffer to a tile kernel (which moves it) and drops the handle the launch gives back, so the caller's later FX-conversion launch reads the moved buffer.
"""Historical-simulation VaR and expected shortfall of a portfolio, with a capped stress view and an FX report."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N_SCENARIOS = 2000
N_ASSETS = 6
TILE = 250
POSITIONS = np.array([2.0e6, -5.0e5, 1.2e6, 8.0e5, -3.0e5, 4.0e5], np.float32)  # USD notionals
STRESS_CAPS = {"desk_limit": 2.5e5, "regulatory": 4.0e5}


@simt.kernel
@simt.launch_contract(block=128)
def scenario_pnl(shocks: Slice[f32], positions: Slice[f32], pnl: DisjointSlice[f32], n_assets: i32) -> None:
    idx = thread.index_1d()
    s = idx.get()
    if (out := pnl.get_mut(idx)) is not None:
        acc = f32(0.0)
        for a in range(n_assets):
            acc += positions[a] * shocks[s * n_assets + a]
        out.set(acc)


@simt.kernel
@simt.launch_contract(block=128)
def fx_convert(src: Slice[f32], dst: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * rate)


@tile.kernel
def capped_losses(losses: Partition[f32], pnl: Tensor[f32], cap: f32) -> None:
    loss = -tile.load_like(pnl, losses)
    losses.store(tile.minimum(tile.maximum(loss, 0.0), cap))


def historical_shocks(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    vols = np.array([0.012, 0.02, 0.015, 0.009, 0.025, 0.011])
    corr = 0.3 * np.ones((N_ASSETS, N_ASSETS)) + 0.7 * np.eye(N_ASSETS)
    cov = corr * np.outer(vols, vols)
    fat = rng.standard_t(df=4, size=(N_SCENARIOS, 1)) / np.sqrt(2.0)  # fat-tailed common factor
    return (rng.multivariate_normal(np.zeros(N_ASSETS), cov, N_SCENARIOS) * np.abs(fat)).astype(np.float32)


def var_es(losses: np.ndarray, level: float) -> tuple[float, float]:
    var = float(np.quantile(losses, level))
    tail = losses[losses >= var]
    return var, float(tail.mean()) if tail.size else var


def stressed_losses(pnl: sk.DeviceBuffer, cap: float, stream: sk.Stream) -> np.ndarray:
    losses = tile.zeros((N_SCENARIOS,), f32).partition((TILE,))
    losses, _, _ = capped_losses(losses, pnl, cap).sync_on(stream)
    return losses.unpartition().to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    shocks = sk.to_device(historical_shocks(seed=21).ravel(), stream)
    positions = sk.to_device(POSITIONS, stream)
    pnl = sk.zeros(N_SCENARIOS, f32, stream)
    cfg = simt.LaunchConfig1D.for_len(N_SCENARIOS, block=128)
    scenario_pnl.launch(scenario_pnl.prepare(cfg, dev), stream, shocks, positions, pnl, N_ASSETS)

    raw_losses = -pnl.to_numpy(stream)
    var99, es99 = var_es(raw_losses, 0.99)
    print(f"1-day 99% VaR {var99:,.0f} USD, ES {es99:,.0f} USD")

    mode = "intraday"
    cap = STRESS_CAPS.get(mode) or STRESS_CAPS["desk_limit"]
    capped = stressed_losses(pnl, cap, stream)
    print(f"{mode}: capped 99% VaR {var_es(capped, 0.99)[0]:,.0f} USD (cap {cap:,.0f})")

    pnl_eur = sk.zeros(N_SCENARIOS, f32, stream)
    fx_convert.launch(fx_convert.prepare(cfg, dev), stream, pnl, pnl_eur, 0.92)
    eur = pnl_eur.to_numpy(stream)
    print(f"worst scenario {eur.min():,.0f} EUR, best {eur.max():,.0f} EUR")


if __name__ == "__main__":
    main()
