"""A dict built by a comprehension and never changed in place gives one object for one literal key: its items are
unknown, but `bufs["hidden"]` twice in one launch is one buffer, and `parts["a"]` after a launch moved it is a use
after move."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    names = ("hidden", "residual")
    bufs = {name: sk.to_device(np.full(64, k, np.float32), stream) for k, name in enumerate(names)}
    vecadd.launch(prepared, stream, bufs["hidden"], bufs["residual"], bufs["hidden"])  # expect: E0502
    x = tile.ones((128,), f32).shared()
    parts = {key: tile.zeros((128,), f32).partition((64,)) for key in ("a", "b")}
    scale(parts["a"], x).sync_on(stream)
    print(parts["a"].unpartition())  # expect: E0382
