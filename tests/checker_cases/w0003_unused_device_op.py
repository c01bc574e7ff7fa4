"""A lazy `DeviceOp` that never runs: dropped by an expression statement, or bound and dropped on some path."""

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def bare_statements(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    add(z, x, y)  # expect: W0003@col=5
    a = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch_async(prepared, a, b, c)  # expect: W0003


def dropped_on_one_path(stream: sk.Stream, flag: bool) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)  # expect: W0003@col=5
    if flag:
        z, x, y = op.sync_on(stream)


def early_return(stream: sk.Stream, flag: bool) -> int:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)  # expect: W0003
    if flag:
        return 0
    z, x, y = op.sync_on(stream)
    return 1


def rebound_in_a_loop(stream: sk.Stream, k: int) -> None:
    x = tile.ones((1024,), f32)
    for _ in range(k):
        y = tile.ones((1024,), f32)
        z = tile.zeros((1024,), f32).partition((128,))
        op = add(z, x, y)  # expect: W0003
        x = tile.ones((1024,), f32)
    print(x)


def chain_dropped(stream: sk.Stream) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)
    op.then(lambda values: values)  # expect: W0003


def stored_in_a_tuple_never_read(stream: sk.Stream) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)  # expect: W0003@col=5
    pair = (op, 1)
