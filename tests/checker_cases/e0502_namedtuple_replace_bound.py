"""`low = plan._replace(dst=plan.src)` of a `NamedTuple` of the module is `dataclasses.replace(plan, dst=plan.src)`:
the new plan's fields are the old one's, except those replaced, so its source and destination are one buffer."""

from typing import Any, NamedTuple

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


class Plan(NamedTuple):
    src: Any
    dst: Any
    alpha: float


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    plan = Plan(sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), 2.0)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    low = plan._replace(dst=plan.src)
    scale.launch(prepared, stream, low.src, low.dst, low.alpha)  # expect: E0502
