"""A `@contextlib.contextmanager` generator of the module keeps an async launch's op in a local across its `yield`
and syncs it in its `finally`: the block only does host work, and the output is partitioned after the `with`
statement, once the op has run."""

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * k)


@tile.kernel
def negate(x: Partition[f32]) -> None:
    x.store(-x.load())


@contextmanager
def scaling(
    raw: sk.DeviceBuffer, out: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream
) -> Iterator[sk.DeviceBuffer]:
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    op = scale.launch_async(prepared, raw, out, 0.5)
    try:
        yield out
    finally:
        op.sync_on(stream)


def run(dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    raw = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    with scaling(raw, out, dev, stream) as scaled:
        count = len(scaled)
    parts = out.partition((count // 2,))
    (parts,) = negate(parts).sync_on(stream)
    return parts.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    print(run(dev, dev.new_stream())[:4])


if __name__ == "__main__":
    main()
