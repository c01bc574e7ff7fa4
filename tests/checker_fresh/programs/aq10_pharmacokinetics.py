# fresh-expect: E0505 at line 57
# fresh-note: Antibiotic pharmacokinetics: per-cohort concentration SIMT launches run asynchronously and a tile kernel flags patients above the MIC; bug: `run_trial` summarises the results (moving each `conc` buffer into the tile launch at line 57 inside `fraction_above_mic`) before the pending `launch_async` ops stored in `inflight` are synced.
"""Antibiotic pharmacokinetics: plasma concentration at a sampling time for every patient of each cohort.

A SIMT kernel evaluates a one-compartment model per patient; cohorts are launched asynchronously so they
overlap, then a tile kernel flags the patients whose concentration stays above the pathogen's MIC.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def concentration(dose_mg: Slice[f32], ke: Slice[f32], volume_l: Slice[f32], conc: DisjointSlice[f32], t: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := conc.get_mut(idx)) is not None:
        c.set(dose_mg[i] / volume_l[i] * math.exp(-ke[i] * t))


@tile.kernel
def above_mic(flags: Partition[f32], conc: Tensor[f32], mic: f32) -> None:
    flags.store(tile.where(tile.load_like(conc, flags) >= mic, 1.0, 0.0))


@dataclass
class Cohort:
    name: str
    patients: int
    dose_mg: float
    renal_factor: float  # < 1 for impaired clearance


def upload_cohort(cohort: Cohort, rng: np.random.Generator, stream: sk.Stream) -> tuple[sk.DeviceBuffer, ...]:
    n = cohort.patients
    dose = np.full(n, cohort.dose_mg, np.float32)
    ke = (rng.lognormal(np.log(0.23), 0.25, n) * cohort.renal_factor).astype(np.float32)
    volume = rng.normal(0.7 * 70.0, 6.0, n).clip(30.0, 80.0).astype(np.float32)
    return tuple(sk.to_device(a, stream) for a in (dose, ke, volume))


def fraction_above_mic(conc: sk.DeviceBuffer, stream: sk.Stream, mic: float) -> float:
    flags = tile.zeros((len(conc),), f32).partition((TILE,))
    flags, _conc, _ = above_mic(flags, conc, mic).sync_on(stream)
    return float(flags.unpartition().to_numpy(stream).mean())


def run_trial(cohorts: list[Cohort], device: sk.Device, hours: float, mic: float) -> dict[str, float]:
    stream = device.new_stream()
    rng = np.random.default_rng(1234)
    inflight: dict[str, sk.DeviceOp] = {}
    results: dict[str, sk.DeviceBuffer] = {}
    inputs = []
    for cohort in cohorts:
        dose, ke, volume = upload_cohort(cohort, rng, stream)
        inputs.append((dose, ke, volume))
        conc = sk.zeros(cohort.patients, f32, stream)
        prepared = concentration.prepare(simt.LaunchConfig1D.for_len(cohort.patients, block=128), device)
        inflight[cohort.name] = concentration.launch_async(prepared, dose, ke, volume, conc, hours)
        results[cohort.name] = conc
    coverage = {name: fraction_above_mic(buf, stream, mic) for name, buf in results.items()}
    for op in inflight.values():
        op.sync_on(stream)
    return coverage


def main() -> None:
    cohorts = [
        Cohort("adult-standard", 1000, 1000.0, 1.0),
        Cohort("renal-impaired", 400, 750.0, 0.45),
        Cohort("high-dose", 600, 1500.0, 1.0),
    ]
    coverage = run_trial(cohorts, sk.Device.cpu(), hours=8.0, mic=4.0)
    for name, frac in coverage.items():
        print(f"{name:<15} {frac:6.1%} of patients above MIC at 8 h")


if __name__ == "__main__":
    main()
