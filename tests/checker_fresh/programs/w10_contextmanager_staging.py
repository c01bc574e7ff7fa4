# fresh-expect: E0505 at line 46
"""A context manager keeps a launch in flight while the host prepares the next stage."""
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=128)
def square(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@tile.kernel
def add_bias(out: Partition[f32], x: Tensor[f32], bias: f32) -> None:
    out.store(tile.load_like(x, out) + bias)


@contextmanager
def in_flight(op: sk.DeviceOp, stream: sk.Stream):
    try:
        yield op
    finally:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 512
    prep = square.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    x = sk.to_device(np.arange(n, dtype=np.float32), stream)
    squared = sk.zeros(n, f32, stream)
    bias_out = sk.zeros(n, f32, stream)
    with in_flight(square.launch_async(prep, x, squared), stream):
        parts = bias_out.partition((128,))
        parts, squared, _ = add_bias(parts, squared, 1.0).sync_on(stream)
    print(parts.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
