"""Every lazy `DeviceOp` here is consumed on every path: run, chained, passed on, stored, returned or deleted."""

from typing import Any

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


class Pipeline:
    def __init__(self) -> None:
        self.pending: Any = None

    def start(self) -> None:
        x = tile.ones((1024,), f32)
        y = tile.ones((1024,), f32)
        z = tile.zeros((1024,), f32).partition((128,))
        self.pending = add(z, x, y)


def run_on_every_path(stream: sk.Stream, flag: bool) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)
    if flag:
        z, x, y = op.sync_on(stream)
    else:
        del op


def handed_on(stream: sk.Stream, ops: list[Any]) -> Any:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    first = add(z, x, y)
    ops.append(first)
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    second = add(z, x, y)
    chained = second.then(lambda values: values)
    return chained


def pipelined(n: int, k: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    pending = None
    for _ in range(k):
        c = sk.zeros(n, f32, stream)
        if pending is not None:
            pending.sync_on(stream)
        pending = vecadd.launch_async(prepared, a, b, c)
    if pending is not None:
        pending.sync_on(stream)


def synced_in_finally(stream: sk.Stream, flag: bool) -> int:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)
    try:
        if flag:
            return 0
    finally:
        z, x, y = op.sync_on(stream)
    return 1


def captured(stream: sk.Stream) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)

    def later() -> None:
        op.sync_on(stream)

    later()


def captured_in_graph(stream: sk.Stream) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    graph = add(z, x, y).graph_on(stream)
    graph.replay()


def splatted_from_a_tuple(stream: sk.Stream, flag: bool) -> None:
    x = tile.ones((1024,), f32).shared()  # read by the launch through the tuple: consumed on both paths
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    if flag:
        args = (x, y)
        z, *_ = add(z, *args).sync_on(stream)
        return
    z, *_ = add(z, x, y).sync_on(stream)
