"""The clean twin of `e0502_dict_comprehension_literal_keys`: different literal keys of a comprehension-built dict
are not known to be one buffer, and the value a launch hands back is used instead of the moved item."""

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
    names = ("hidden", "residual", "scratch")
    bufs = {name: sk.to_device(np.full(64, k, np.float32), stream) for k, name in enumerate(names)}
    vecadd.launch(prepared, stream, bufs["hidden"], bufs["residual"], bufs["scratch"])
    x = tile.ones((128,), f32).shared()
    parts = {key: tile.zeros((128,), f32).partition((64,)) for key in ("a", "b")}
    done, _ = scale(parts["a"], x).sync_on(stream)
    print(done.unpartition(), parts["b"].unpartition())
