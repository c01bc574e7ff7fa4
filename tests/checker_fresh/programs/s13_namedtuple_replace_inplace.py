# fresh-expect: E0502 at line 40
# fresh-known-miss: cli,mypy a functional `namedtuple("Plan", [...])` declaration: its fields are not followed (a class-form NamedTuple's `_replace` returned by a helper is)
"""A namedtuple plan is turned into an in-place plan with _replace, which makes source and destination one buffer."""
from collections import namedtuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


Plan = namedtuple("Plan", ["src", "dst", "alpha"])


def in_place(plan: Plan) -> Plan:
    return plan._replace(dst=plan.src)


def execute(plan: Plan, prepared, stream) -> None:
    scale.launch(prepared, stream, plan.src, plan.dst, plan.alpha)


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 256
plan = Plan(sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), 2.0)
prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
execute(plan, prepared, stream)
execute(in_place(plan), prepared, stream)  # BUG
print(plan.src.to_numpy(stream)[:4])
