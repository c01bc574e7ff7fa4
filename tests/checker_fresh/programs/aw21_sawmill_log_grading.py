# fresh-expect: clean
# fresh-note: A sawmill grading line fills a kernel registry with a decorator, gives each grader a fresh output from a dict comprehension, syncs every pending op before reading, and matches the grade with guarded patterns.
"""Sawmill log grading: a decorator-filled registry of defect kernels, each writing its own per-log output asynchronously."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SCANS = 128
GRADERS: dict[str, object] = {}


def grader(name: str) -> Callable:
    def register(kernel):
        GRADERS[name] = kernel
        return kernel
    return register


@grader("taper")
@simt.kernel
@simt.launch_contract(block=64)
def taper(diameter: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    nxt = min(i + 1, len(diameter) - 1)
    if (o := out.get_mut(idx)) is not None:
        o.set(diameter[i] - diameter[nxt])


@grader("sweep")
@simt.kernel
@simt.launch_contract(block=64)
def sweep(diameter: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(diameter)
    line = diameter[0] + (diameter[n - 1] - diameter[0]) * f32(i) / f32(n - 1)
    if (o := out.get_mut(idx)) is not None:
        o.set(abs(diameter[i] - line))


@simt.autotune(configs=[32, 64, 128], key=["density"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def knot_flags(density: Slice[f32], flags: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := flags.get_mut(idx)) is not None:
        if density[i] > threshold:
            o.set(f32(1.0))
        else:
            o.set(f32(0.0))


@dataclass(frozen=True)
class Log:
    tag: str
    species: str
    butt_cm: float
    crook: float


class GradingLine:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        config = simt.LaunchConfig1D.for_len(SCANS, block=64)
        self.plans = {name: (kernel, kernel.prepare(config, dev)) for name, kernel in GRADERS.items()}

    def scan(self, log: Log) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        x = np.linspace(0.0, 1.0, SCANS, dtype=np.float32)
        diameter = log.butt_cm * (1.0 - 0.35 * x) + log.crook * np.sin(np.pi * x)
        rng = np.random.default_rng(len(log.tag))
        density = 0.5 + 0.2 * rng.random(SCANS)
        return (sk.to_device(diameter.astype(np.float32), self.stream),
                sk.to_device(density.astype(np.float32), self.stream))

    def grade(self, log: Log) -> str:
        diameter, density = self.scan(log)
        outputs = {name: sk.zeros(SCANS, f32, self.stream) for name in self.plans}
        pending = [kernel.launch_async(plan, diameter, outputs[name]) for name, (kernel, plan) in self.plans.items()]
        flags = sk.zeros(SCANS, f32, self.stream)
        knot_flags.launch(self.stream, density, flags, 0.66)
        for op in pending:
            op.sync_on(self.stream)
        worst_taper = float(outputs["taper"].to_numpy(self.stream).max())
        worst_sweep = float(outputs["sweep"].to_numpy(self.stream).max())
        knots = int(flags.to_numpy(self.stream).sum())
        match (worst_sweep, knots):
            case (s, k) if s < 1.0 and k < 10:
                return "select"
            case (s, _) if s < 3.0:
                return "No.1 common" if worst_taper < 0.5 else "No.2 common"
            case _:
                return "pulp"


def main() -> None:
    line = GradingLine(sk.Device.default())
    logs = [Log("DF-0041", "douglas fir", 52.0, 0.4), Log("DF-0042", "douglas fir", 47.0, 2.2),
            Log("WP-0107", "white pine", 38.0, 4.5), Log("WP-0108", "white pine", 41.0, 0.2)]
    graded = sorted(((log.species, line.grade(log), log.tag) for log in logs))
    for species, rows in itertools.groupby(graded, key=lambda r: r[0]):
        print(species, [f"{tag}:{grade}" for _, grade, tag in rows])


if __name__ == "__main__":
    main()
