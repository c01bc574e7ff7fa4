# fresh-expect: E0382 at line 47
# fresh-note: Cargo-ship bay stowage; the per-tier loop takes back only the load partition with `load, *_ = ...sync_on()`, so the lashing-limit tensor moved into the first tier's launch is reused by the next tier.
"""Stack weights tier by tier in each bay and flag stacks over their lashing limit."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS = 16            # container rows across the beam
TILE = 8
TIER_FACTORS = (1.0, 1.08, 1.17, 1.27, 1.38)   # racking amplification by height


@tile.kernel
def stack_load(load: Partition[f32], weights: Tensor[f32], lashing: Tensor[f32], factor: f32) -> None:
    w = tile.load_like(weights, load) * factor
    limit = tile.load_like(lashing, load)
    total = load.load() + w
    load.store(tile.where(total > limit, total + 1000.0, total))


@dataclass
class Bay:
    number: int
    tiers: list[np.ndarray | None]
    limits: np.ndarray
    report: dict[str, float] = field(default_factory=dict)


class BayPlanner:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.flagged: list[int] = []

    def plan_bay(self, bay: Bay) -> np.ndarray:
        load = tile.zeros((ROWS,), f32).partition((TILE,))
        lashing = tile.from_numpy(bay.limits.astype(np.float32)).sync_on(self.stream)
        for tier, weights in enumerate(bay.tiers):
            if weights is None:          # an empty tier (reefer plugs, hatch cover clearance)
                continue
            factor = TIER_FACTORS[min(tier, len(TIER_FACTORS) - 1)]
            op = stack_load(load, tile.from_numpy(weights.astype(np.float32)), lashing, factor)
            load, *_ = op.sync_on(self.stream)
        result = load.unpartition().to_numpy(self.stream)
        over = result > 1000.0
        bay.report = {"max_t": float(np.where(over, result - 1000.0, result).max()), "over": float(over.sum())}
        if over.any():
            self.flagged.append(bay.number)
        return result

    def plan_all(self, bays: list[Bay]) -> dict[int, np.ndarray]:
        return {bay.number: self.plan_bay(bay) for bay in bays}


def random_bay(number: int, rng: np.random.Generator, tiers: int = 4) -> Bay:
    stacks: list[np.ndarray | None] = []
    for t in range(tiers):
        if rng.random() < 0.15:
            stacks.append(None)
        else:
            stacks.append(rng.uniform(4.0, 28.0, ROWS))
    return Bay(number=number, tiers=stacks, limits=np.full(ROWS, 90.0))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(2024)
    bays = [random_bay(n, rng) for n in (2, 6, 10, 14)]
    planner = BayPlanner(stream)
    plans = planner.plan_all(bays)
    for bay in bays:
        print(f"bay {bay.number:02d}: heaviest stack {bay.report['max_t']:6.1f} t, "
              f"{int(bay.report['over'])} over limit, tiers {sum(t is not None for t in bay.tiers)}")
    print("stacks to re-plan in bays:", planner.flagged or "none", "|", len(plans), "bays planned")


if __name__ == "__main__":
    main()
