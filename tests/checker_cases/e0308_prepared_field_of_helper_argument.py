"""A plan object holding prepared launches (a `@dataclass` whose fields are plain `PreparedLaunch`, so their type
carries no brand) is built by a helper and passed, straight from that call, to another helper that launches
`square_bwd` with its `bwd` field: the helper built both fields from `square_fwd.prepare(...)`, so the launch is
refused inside the second helper (`BrandError` at run time), as a launch of a parameter itself would be."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, PreparedLaunch, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def square_fwd(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@simt.kernel
@simt.launch_contract(block=32)
def square_bwd(x: Slice[f32], gy: Slice[f32], gx: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := gx.get_mut(idx)) is not None:
        o.set(2.0 * x[i] * gy[i])


@dataclass
class Plan:
    fwd: PreparedLaunch
    bwd: PreparedLaunch


def make_plan(n: int, dev: sk.Device) -> Plan:
    cfg = simt.LaunchConfig1D.for_len(n, block=32)
    fwd = square_fwd.prepare(cfg, dev)
    return Plan(fwd=fwd, bwd=fwd)


def train_step(x_host: np.ndarray, plan: Plan, stream: sk.Stream) -> np.ndarray:
    x = sk.to_device(x_host, stream)
    y = sk.zeros(N, f32, stream)
    gx = sk.zeros(N, f32, stream)
    square_fwd.launch(plan.fwd, stream, x, y)
    square_bwd.launch(plan.bwd, stream, x, y, gx)  # expect: E0308
    return gx.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    train_step(np.ones(N, dtype=np.float32), make_plan(N, dev), dev.new_stream())
