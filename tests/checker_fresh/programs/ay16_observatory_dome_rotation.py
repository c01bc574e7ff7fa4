# fresh-expect: clean
# fresh-note: Observatory dome tracking op is chained lazily with first().unpartition().shared(), the shared azimuth is read by two launches zipped with sk.zip, and the next hour starts from an owned copy.
"""Observatory dome slaving: follow the telescope azimuth, then derive motor torque and slit vignetting.

The tracking launch is chained lazily: first() picks the azimuth partition, unpartition()
turns it back into a tensor, and shared() lets both the torque and the vignetting launches
read it. The two consumers are zipped and run with one sync per night-hour.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SEGMENTS = 128  # shutter drive segments sampled around the ring
TILE = (32,)
SLIT_HALF_WIDTH = 2.5  # degrees


@tile.kernel
def track(azimuth: Partition[f32], target: Tensor[f32], gain: f32) -> None:
    az = azimuth.load()
    goal = tile.load_like(target, azimuth)
    err = goal - az
    wrapped = tile.where(err > 180.0, err - 360.0, tile.where(err < -180.0, err + 360.0, err))
    azimuth.store(az + wrapped * gain)


@tile.kernel
def torque(out: Partition[f32], azimuth: Tensor[f32], wind: Tensor[f32]) -> None:
    az = tile.load_like(azimuth, out)
    w = tile.load_like(wind, out)
    out.store(w * tile.sin(az * 0.0174533) + 0.8)


@tile.kernel
def vignetting(out: Partition[f32], azimuth: Tensor[f32], target: Tensor[f32], half_width: f32) -> None:
    miss = tile.load_like(target, out) - tile.load_like(azimuth, out)
    out.store(tile.minimum(tile.maximum(miss, -miss) / half_width, 1.0))


def ephemeris(hour: int) -> np.ndarray:
    base = (hour * 15.0 + np.linspace(0.0, 3.0, SEGMENTS)) % 360.0
    return base.astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1609)

    azimuth = tile.from_numpy(np.zeros(SEGMENTS, np.float32))
    for hour in range(4):
        target_host = ephemeris(hour)
        wind = tile.from_numpy(rng.uniform(0.0, 6.0, SEGMENTS).astype(np.float32))
        target = tile.from_numpy(target_host).shared()

        followed = track(azimuth.partition(TILE), target, 0.7).first().unpartition().shared()
        torque_op = torque(tile.zeros((SEGMENTS,), f32).partition(TILE), followed, wind)
        vignette_op = vignetting(tile.zeros((SEGMENTS,), f32).partition(TILE), followed, target, SLIT_HALF_WIDTH)
        (torque_p, _az, _wind), (vig_p, _az2, _target, _hw) = sk.zip(torque_op, vignette_op).sync_on(stream)

        # the next hour starts from where the dome ended up: copy the shared azimuth into an owned tensor
        azimuth = tile.from_numpy(followed.sync_on(stream).to_numpy(stream))
        loss = vig_p.to_numpy(stream)
        print(
            f"hour {hour}: peak torque {torque_p.to_numpy(stream).max():5.2f} kN*m, "
            f"vignetted segments {int((loss > 0.5).sum())}/{SEGMENTS}"
        )


if __name__ == "__main__":
    main()
