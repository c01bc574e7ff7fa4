"""The clean twin of `e0502_op_kept_by_opaque_call`: the block of a context manager that syncs a pending op on
exit touches none of the ops' buffers but `b`, which they only read, and the buffers they write are used once the
`with` statement (which ran the ops) is left."""

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
        vecadd.launch(prepared, stream, a, b, d)
    print(c.to_numpy(stream)[:4])
    with completes(vecadd.launch_async(prepared, a, b, d), stream), completes(
        vecadd.launch_async(prepared, a, b, c), stream
    ):
        print(b.to_numpy(stream)[:4])
    vecadd.launch(prepared, stream, a, b, d)
    print(d.to_numpy(stream)[:4])
