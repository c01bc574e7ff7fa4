"""A lambda is a function of its own: one defined inside `with simt.unsafe():` runs its body in its own frame, which
the block does not cover (the runtime raises `UnsafeOperationError` when it is called)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    config = simt.LaunchConfig1D.for_len(64, block=64)
    with simt.unsafe():
        relaunch = lambda: vecadd.launch_unchecked(config, stream, a, b, c)  # noqa: E731  # expect: E0133
        relaunch()
