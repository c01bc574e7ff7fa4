# fresh-expect: clean
# fresh-note: a credit scorecard prepares one launch per registered scorer from sorted(SCORERS.items()), keeping each prepared launch keyed under its own kernel's name.
"""Batch credit scoring: a logistic probability of default, a points-based scorecard and a utilization flag.

The scorers live in a module-level registry so the batch job can run any subset by name.  Each scorer is a
SIMT kernel over applicants' debt-to-income and utilization ratios, checked against numpy.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(dti) >= len(out)", "len(util) >= len(out)"))
def default_probability(dti: Slice[f32], util: Slice[f32], out: DisjointSlice[f32], bias: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        z = bias + f32(3.5) * dti[i] + f32(2.0) * util[i]
        o.set(f32(1.0) / (f32(1.0) + math.exp(-z)))


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(dti) >= len(out)", "len(util) >= len(out)"))
def scorecard_points(dti: Slice[f32], util: Slice[f32], out: DisjointSlice[f32], base: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(base - f32(120.0) * dti[i] - f32(80.0) * util[i])


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(dti) >= len(out)", "len(util) >= len(out)"))
def high_utilization(dti: Slice[f32], util: Slice[f32], out: DisjointSlice[f32], limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        flag = f32(0.0)
        if util[i] > limit:
            flag = f32(1.0)
        o.set(flag)


SCORERS = {"pd": default_probability, "points": scorecard_points, "util_flag": high_utilization}
PARAMS = {"pd": -4.0, "points": 720.0, "util_flag": 0.8}


def prepare_scorers(n: int, device: sk.Device) -> dict[str, simt.PreparedLaunch]:
    config = simt.LaunchConfig1D.for_len(n, block=BLOCK)
    return {name: kernel.prepare(config, device) for name, kernel in sorted(SCORERS.items())}


def score(name: str, dti: sk.DeviceBuffer, util: sk.DeviceBuffer, prepared: dict, stream: sk.Stream) -> np.ndarray:
    out = sk.zeros(len(dti), f32, stream)
    SCORERS[name].launch(prepared[name], stream, dti, util, out, PARAMS[name])
    return out.to_numpy(stream)


def numpy_scores(dti: np.ndarray, util: np.ndarray) -> dict[str, np.ndarray]:
    z = np.float32(PARAMS["pd"]) + np.float32(3.5) * dti + np.float32(2.0) * util
    return {
        "pd": 1.0 / (1.0 + np.exp(-z)),
        "points": np.float32(PARAMS["points"]) - np.float32(120.0) * dti - np.float32(80.0) * util,
        "util_flag": (util > np.float32(PARAMS["util_flag"])).astype(np.float32),
    }


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(99)
    n = 700
    dti_host = rng.beta(2.0, 5.0, n).astype(np.float32)
    util_host = rng.beta(2.0, 3.0, n).astype(np.float32)
    dti, util = sk.to_device(dti_host, stream), sk.to_device(util_host, stream)
    prepared = prepare_scorers(n, device)
    expected = numpy_scores(dti_host, util_host)
    for name in ("pd", "points", "util_flag"):
        got = score(name, dti, util, prepared, stream)
        np.testing.assert_allclose(got, expected[name], rtol=1e-4, atol=1e-4)
        print(f"{name:>9}: mean {got.mean():9.4f}  min {got.min():9.4f}  max {got.max():9.4f}")


if __name__ == "__main__":
    main()
