"""A pending `launch_async` op built in the argument list of a call the checker does not follow (here a
`@contextmanager` function, which syncs the op when its block ends) may be kept by what the call returns: its loans
last while that result is reachable, for the whole `with` block, or while a name refers to the result."""

from collections.abc import Iterator
from contextlib import contextmanager

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


@contextmanager
def completes(op: sk.DeviceOp[object], stream: sk.Stream) -> Iterator[None]:
    """Run `op` when the block ends, however it ends."""
    try:
        yield
    finally:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(256, np.float32), stream)
    b = sk.to_device(np.ones(256, np.float32), stream)
    c = sk.zeros(256, f32, stream)
    d = sk.zeros(256, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    with completes(vecadd.launch_async(prepared, a, b, c), stream):
        vecadd.launch(prepared, stream, c, b, d)  # expect: E0502
    guard = completes(vecadd.launch_async(prepared, a, b, d), stream)
    vecadd.launch(prepared, stream, a, b, d)  # expect: E0499
    with guard:
        print(c.to_numpy(stream)[:4])
