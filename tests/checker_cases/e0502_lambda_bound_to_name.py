"""A lambda bound to a name and called by that name is the nested function it is: its call applies what its body
does to the arguments it is given (the launch borrows `lhs` and `rhs` shared and `out` mutably) and to the
buffers it captures (`into_c` writes the captured `c`: as for a nested `def` called by its name, the conflict the
caller's argument makes with the capture is reported at the call); one that runs a tile launch moves its arguments
and what it captures."""

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
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    apply = lambda lhs, rhs, out: vecadd.launch(prepared, stream, lhs, rhs, out)  # noqa: E731  # expect: E0502
    apply(a, b, c)
    apply(c, b, c)
    into_c = lambda src: vecadd.launch(prepared, stream, src, b, c)  # noqa: E731
    into_c(c)  # expect: E0502
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    double_x = lambda: scale(z, x).sync_on(stream)  # noqa: E731
    z2, x2 = double_x()
    print(x.to_numpy(stream)[:2])  # expect: E0382
