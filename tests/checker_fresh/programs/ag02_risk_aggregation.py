# fresh-expect: clean
# portfolio P&L per market scenario with a tile kernel, re-run for several stress multipliers in a loop
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SCEN_TILE = 32
ASSETS = 16


@tile.kernel
def scenario_pnl(pnl: Partition[f32], shocks: Tensor[f32], positions: Tensor[f32], stress: f32) -> None:
    block = shocks.load((tile.bid(0), 0), (SCEN_TILE, ASSETS))
    pos = tile.reshape(positions.load((0,), (ASSETS,)), (1, ASSETS))
    pnl.store(tile.sum(block * pos, axis=1) * stress)


@dataclass
class RiskReport:
    stress: float
    var_99: float
    expected_shortfall: float

    def line(self) -> str:
        return f"stress x{self.stress:.1f}: VaR99={self.var_99:9.2f}  ES99={self.expected_shortfall:9.2f}"


def tail_metrics(pnl: np.ndarray, level: float = 0.99) -> tuple[float, float]:
    losses = -pnl
    var = float(np.quantile(losses, level))
    es = float(losses[losses >= var].mean())
    return var, es


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(42)
    n_scen = 1024
    shocks_np = (rng.standard_normal((n_scen, ASSETS)) * 0.02).astype(np.float32)
    positions_np = rng.uniform(-1e4, 5e4, ASSETS).astype(np.float32)

    shocks = tile.from_numpy(shocks_np).sync_on(stream)
    positions = tile.from_numpy(positions_np).sync_on(stream)
    pnl = tile.zeros((n_scen,), f32).partition((SCEN_TILE,)).sync_on(stream)

    reports: list[RiskReport] = []
    for stress in (1.0, 1.5, 2.0, 3.0):
        pnl, shocks, positions, _ = scenario_pnl(pnl, shocks, positions, stress).sync_on(stream)
        values = pnl.to_numpy(stream)
        reports.append(RiskReport(stress, *tail_metrics(values)))

    expected = (shocks_np @ positions_np) * 3.0
    np.testing.assert_allclose(pnl.to_numpy(stream), expected, rtol=1e-4, atol=1e-2)
    for report in reports:
        print(report.line())
    worst = max(reports, key=lambda r: r.expected_shortfall)
    print("worst case:", worst.stress, "with", shocks.shape[0], "scenarios")


if __name__ == "__main__":
    main()
