# fresh-expect: clean
# fresh-note: Lighthouse beacon sweep; a fluent plan builds beam-profile and haze-attenuation tile launches chained with `then`, each chain run exactly once.
"""Angular intensity of rotating lighthouse lamps seen through coastal haze."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SAMPLES = 720          # half-degree steps around the tower
TILE = 80


@tile.kernel
def beam_profile(out: Partition[f32], angles: Tensor[f32], gain: f32, width: f32) -> None:
    a = tile.load_like(angles, out)
    out.store(tile.exp(-(a * a) / width) * gain)


@tile.kernel
def attenuate(out: Partition[f32], beam: Tensor[f32], haze: Tensor[f32]) -> None:
    out.store(tile.load_like(beam, out) * tile.exp(-tile.load_like(haze, out)))


class BeaconPlan:
    """Fluent description of one lamp: nothing runs until `build()` is synced."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.gain = 1.0
        self.width = 0.05
        self.haze = np.zeros(SAMPLES, np.float32)
        self.offset = 0.0

    def with_lamp(self, gain: float, width: float) -> BeaconPlan:
        self.gain, self.width = gain, width
        return self

    def rotated(self, degrees: float) -> BeaconPlan:
        self.offset = np.deg2rad(degrees)
        return self

    def through_haze(self, optical_depth: np.ndarray) -> BeaconPlan:
        self.haze = optical_depth.astype(np.float32)
        return self

    def angles(self) -> np.ndarray:
        theta = np.linspace(-np.pi, np.pi, SAMPLES, endpoint=False) - self.offset
        return ((theta + np.pi) % (2 * np.pi) - np.pi).astype(np.float32)

    def build(self) -> sk.DeviceOp:
        profile = beam_profile(
            tile.zeros((SAMPLES,), f32).partition((TILE,)),
            tile.from_numpy(self.angles()),
            self.gain,
            self.width,
        )
        haze = tile.from_numpy(self.haze)
        return profile.then(
            lambda values: attenuate(tile.zeros((SAMPLES,), f32).partition((TILE,)), values[0].unpartition(), haze)
        )


def coastal_haze(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bearing = np.linspace(0.0, 2 * np.pi, SAMPLES, endpoint=False)
    return 0.3 + 0.25 * np.cos(bearing) + rng.uniform(0.0, 0.05, SAMPLES)


def visible_arc(intensity: np.ndarray, threshold: float) -> float:
    return float((intensity > threshold).sum()) * 360.0 / SAMPLES


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    plans = [
        BeaconPlan("main").with_lamp(gain=12.0, width=0.02).through_haze(coastal_haze(1)),
        BeaconPlan("sector").with_lamp(gain=5.0, width=0.2).rotated(135.0).through_haze(coastal_haze(2)),
        BeaconPlan("fog").with_lamp(gain=20.0, width=0.01).rotated(270.0),
    ]
    results: dict[str, np.ndarray] = {}
    for plan in plans:
        seen, _beam, _haze = plan.build().sync_on(stream)
        results[plan.name] = seen.unpartition().to_numpy(stream)

    for name, intensity in results.items():
        peak = int(np.argmax(intensity))
        print(f"{name:7s} peak {intensity[peak]:6.2f} at {peak / 2:5.1f} deg, "
              f"visible over {visible_arc(intensity, 1.0):5.1f} deg")
    brightest = max(results, key=lambda k: results[k].max())
    print("brightest lamp:", brightest)


if __name__ == "__main__":
    main()
