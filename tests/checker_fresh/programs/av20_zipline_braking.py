# fresh-expect: E0499 at line 43
# fresh-note: Zipline braking station that launches one async SIMT braking-force computation per rider from a list comprehension, writing into `self.decel.get(rider.line, self.spare)`; riders on lines without a dedicated buffer all fall back to the one spare buffer, so a second pending launch writes memory the first still holds mutably.
"""Magnetic-brake deceleration for riders arriving at a zipline landing platform."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PROFILE = 512     # samples of the braking zone
BRAKED_LINES = ("north", "south")


@simt.kernel
@simt.launch_contract(block=128)
def brake(speed: Slice[f32], mass: Slice[f32], decel: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := decel.get_mut(idx)) is not None:
        o.set(gain * speed[i] / max(mass[i], f32(30.0)))


@dataclass
class Rider:
    line: str
    speed: sk.DeviceBuffer
    mass: sk.DeviceBuffer


class LandingStation:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = brake.prepare(simt.LaunchConfig1D.for_len(PROFILE, block=128), dev)
        self.decel = {line: sk.zeros(PROFILE, f32, stream) for line in BRAKED_LINES}
        self.spare = sk.zeros(PROFILE, f32, stream)

    def brake_wave(self, riders: list[Rider]) -> float:
        ops = [brake.launch_async(self.prepared, r.speed, r.mass, self.decel.get(r.line, self.spare), 55.0)
               for r in riders]
        sk.zip(*ops).sync_on(self.stream)
        peak = max(float(buf.to_numpy(self.stream).max()) for buf in self.decel.values())
        return max(peak, float(self.spare.to_numpy(self.stream).max()))


def arriving(line: str, seed: int, stream: sk.Stream) -> Rider:
    rng = np.random.default_rng(seed)
    entry = rng.uniform(14.0, 22.0)
    speed = np.linspace(entry, 1.0, PROFILE, dtype=np.float32)
    mass = np.full(PROFILE, rng.uniform(35.0, 120.0), np.float32)
    return Rider(line, sk.to_device(speed, stream), sk.to_device(mass, stream))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    station = LandingStation(dev, stream)
    wave = [arriving(line, k, stream) for k, line in enumerate(["north", "south", "east", "valley"])]
    print(f"peak deceleration {station.brake_wave(wave):.2f} m/s^2")


if __name__ == "__main__":
    main()
