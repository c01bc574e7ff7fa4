# fresh-expect: E0308 at line 52
# fresh-note: found since: a helper's launch with a parameter's prepared launch (or a field of it) is brand-checked at each call
"""A forward/backward plan object holding prepared launches, built once per shape and reused per step."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, PreparedLaunch, Slice, thread

N = 512


@simt.kernel
@simt.launch_contract(block=128)
def square_fwd(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@simt.kernel
@simt.launch_contract(block=128)
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
    cfg = simt.LaunchConfig1D.for_len(n, block=128)
    fwd = square_fwd.prepare(cfg, dev)
    return Plan(fwd=fwd, bwd=fwd)


def train_step(x_host: np.ndarray, plan: Plan, stream) -> np.ndarray:
    x = sk.to_device(x_host, stream)
    y = sk.zeros(N, f32, stream)
    gx = sk.zeros(N, f32, stream)
    square_fwd.launch(plan.fwd, stream, x, y)
    square_bwd.launch(plan.bwd, stream, x, y, gx)
    return gx.to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(train_step(np.ones(N, dtype=np.float32), make_plan(N, dev), dev.new_stream())[:3])
