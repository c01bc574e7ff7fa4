# fresh-expect: E0308 at line 78
# fresh-known-miss: cli,mypy prepared launches a @cached_property builds in a dict comprehension over zip(Course, kernels) in the wrong order: E0308 through a comprehension-built dict of a property
# fresh-note: Tunes a hurdy-gurdy's drone and chanter strings with prepared launches cached per Course; the cached_property zips the Course enum (BOURDON, CHANTER, TROMPETTE) with kernels listed as (drone, drone, chanter), so the trompette drone is launched with the chanter kernel's PreparedLaunch.
"""Hurdy-gurdy tuning: estimate the cents error of the drone and chanter strings from short recorded frames."""
from __future__ import annotations
import enum
import math
from functools import cached_property
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 128


@simt.kernel
@simt.launch_contract(block=64)
def drone_cents(freq: Slice[f32], cents: DisjointSlice[f32], target: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := cents.get_mut(idx)) is not None:
        o.set(1200.0 * math.log2(freq[i] / target))


@simt.kernel
@simt.launch_contract(block=128)
def chanter_cents(freq: Slice[f32], cents: DisjointSlice[f32], target: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := cents.get_mut(idx)) is not None:
        # the chanter's low A is tuned against the 2nd harmonic of the bourdon
        o.set(1200.0 * math.log2(freq[i] / (2.0 * target)))


class Course(enum.Enum):
    BOURDON = 1
    CHANTER = 2
    TROMPETTE = 3


BLOCKS = {drone_cents: 64, chanter_cents: 128}
KERNELS = {Course.BOURDON: drone_cents, Course.TROMPETTE: drone_cents, Course.CHANTER: chanter_cents}
TARGET_HZ = {Course.BOURDON: 119.0, Course.TROMPETTE: 238.0, Course.CHANTER: 238.0}


class Reading(NamedTuple):
    course: Course
    mean_cents: float
    wobble: float


class Tuner:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream

    @classmethod
    def for_set(cls, dev: sk.Device) -> "Tuner":
        return cls(dev, dev.new_stream())

    @cached_property
    def prepared(self) -> dict[Course, simt.PreparedLaunch]:
        # drones first, then the chanter
        kernels = (drone_cents, drone_cents, chanter_cents)
        return {
            course: k.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=BLOCKS[k]), self.dev)
            for course, k in zip(Course, kernels)
        }

    def measure(self, course: Course, frames: np.ndarray) -> Reading:
        freq = sk.to_device(frames.astype(np.float32), self.stream)
        cents = sk.zeros(FRAMES, f32, self.stream)
        kernel = KERNELS[course]
        kernel.launch(self.prepared[course], self.stream, freq, cents, TARGET_HZ[course])
        c = cents.to_numpy(self.stream)
        return Reading(course, float(c.mean()), float(c.std()))


def record(course: Course, rng: np.random.Generator) -> np.ndarray:
    base = TARGET_HZ[course] * (1.0 + rng.normal(0.002, 0.001))
    return base * (1.0 + 0.003 * np.sin(np.linspace(0, 6 * np.pi, FRAMES)))


def main() -> None:
    tuner = Tuner.for_set(sk.Device.default())
    rng = np.random.default_rng(42)
    for course in (Course.BOURDON, Course.TROMPETTE, Course.CHANTER):
        reading = tuner.measure(course, record(course, rng))
        verdict = "flat" if reading.mean_cents < -3 else "sharp" if reading.mean_cents > 3 else "in tune"
        print(f"{course.name:9s} {reading.mean_cents:+7.2f} cents (wobble {reading.wobble:.2f}) {verdict}")


if __name__ == "__main__":
    main()
