"""The look-alike of `e0502_namedtuple_replace_bound`: `_replace` gives the new plan its own destination."""

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
    low = plan._replace(dst=sk.zeros(n, f32, stream))
    scale.launch(prepared, stream, low.src, low.dst, low.alpha)
    print(low.dst.to_numpy(stream)[:2])


main()
