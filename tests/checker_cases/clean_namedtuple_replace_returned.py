"""A helper returns `plan._replace(alpha=...)` of its `NamedTuple` parameter, and its call is handed straight to
another helper that launches with the plan's fields (`execute(rescaled(plan, 0.5), ...)`): the copy's source and
destination are the caller's plan's two buffers (the twin of e0502_namedtuple_replace_returned)."""

from typing import Any, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, PreparedLaunch, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


class Plan(NamedTuple):
    src: Any
    dst: Any
    alpha: float


def rescaled(plan: Plan, alpha: float) -> Plan:
    return plan._replace(alpha=alpha)


def execute(plan: Plan, prepared: PreparedLaunch, stream: sk.Stream) -> None:
    scale.launch(prepared, stream, plan.src, plan.dst, plan.alpha)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    plan = Plan(sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), 2.0)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    execute(plan, prepared, stream)
    execute(rescaled(plan, 0.5), prepared, stream)
