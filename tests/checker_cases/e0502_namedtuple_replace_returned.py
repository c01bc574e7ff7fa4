"""A helper returns `plan._replace(dst=plan.src)` of its `NamedTuple` parameter, and its call is handed straight to
another helper that launches with the plan's fields (`execute(in_place(plan), ...)`): the copy's fields are the
caller's plan's, except the one replaced, so its source and destination are one buffer, a conflict at the call (as
when the copy is bound to a name first)."""

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


def in_place(plan: Plan) -> Plan:
    return plan._replace(dst=plan.src)


def execute(plan: Plan, prepared: PreparedLaunch, stream: sk.Stream) -> None:
    scale.launch(prepared, stream, plan.src, plan.dst, plan.alpha)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    plan = Plan(sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), 2.0)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    execute(plan, prepared, stream)
    execute(in_place(plan), prepared, stream)
