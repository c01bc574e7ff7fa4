# fresh-expect: E0382 at line 57
# fresh-note: Down-and-out barrier call by Monte Carlo with an autotuned tile GBM step; the periodic barrier-monitoring launch hands the spot tensor back into `_`, so the GBM step right after it passes the moved spot.
"""Monte Carlo price of a down-and-out call: GBM paths stepped by an autotuned tile kernel, monitored discretely."""
from __future__ import annotations

import math
from typing import Annotated, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N_PATHS = 2048
STEPS = 12
MONITOR_EVERY = 3
SPOT, STRIKE, BARRIER = 100.0, 100.0, 85.0
RATE, VOL, MATURITY = 0.02, 0.3, 1.0
BLOCK = 256


@tile.autotune(configs=[tile.Config(BLOCK=256), tile.Config(BLOCK=512)], key=["spot"], warmup=1, rep=2)
@tile.kernel
def gbm_step(nxt: Annotated[Partition[f32], tile.Dims(BLOCK)], spot: Tensor[f32], z: Tensor[f32],
             drift: f32, diffusion: f32) -> None:
    s = tile.load_like(spot, nxt)
    nxt.store(s * tile.exp(drift + diffusion * tile.load_like(z, nxt)))


@tile.kernel
def track_min(lows: Partition[f32], spot: Tensor[f32]) -> None:
    lows.store(tile.minimum(lows.load(), tile.load_like(spot, lows)))


def normals(seed: int, steps: int) -> Iterator[sk.DeviceOp]:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        z = rng.standard_normal(N_PATHS // 2)
        yield tile.from_numpy(np.concatenate([z, -z]).astype(np.float32))


def main() -> None:
    stream = sk.Device.default().new_stream()
    dt = MATURITY / STEPS
    drift = (RATE - 0.5 * VOL * VOL) * dt
    diffusion = VOL * math.sqrt(dt)

    spot = tile.full((N_PATHS,), SPOT, f32).sync_on(stream)
    nxt = tile.zeros((N_PATHS,), f32).sync_on(stream)
    lows = tile.full((N_PATHS,), SPOT, f32).partition((BLOCK,))

    for step, z in enumerate(normals(seed=4, steps=STEPS)):
        if step % MONITOR_EVERY == 0:  # monitoring dates: t = 0, 3dt, 6dt, ...
            lows, _ = track_min(lows, spot).sync_on(stream)
        nxt, spot, *_ = gbm_step(nxt, spot, z, drift, diffusion).sync_on(stream)
        spot, nxt = nxt, spot

    terminal = spot.to_numpy(stream)
    alive = lows.unpartition().to_numpy(stream) > BARRIER
    payoff = np.where(alive, np.maximum(terminal - STRIKE, 0.0), 0.0)
    price = math.exp(-RATE * MATURITY) * payoff.mean()
    print(f"down-and-out call {price:.4f} ({alive.mean():.1%} of paths survive the barrier)")


if __name__ == "__main__":
    main()
