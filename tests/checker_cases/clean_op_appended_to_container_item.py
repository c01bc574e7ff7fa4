"""The clean twin of `e0505_op_appended_to_container_item`: the ops appended to a container's items are run (a loop
over the items and their ops) before the buffers they write move into the tile world; a buffer no stored op
borrows moves while the container is still live."""

from collections import defaultdict

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def grouped(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    e = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    inflight: defaultdict[str, list[sk.DeviceOp]] = defaultdict(list)
    inflight["compute"].append(axpy.launch_async(prepared, a, a, c))
    ze, _ = double(e.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    for ops in inflight.values():
        for op in ops:
            op.sync_on(stream)
    zc, _ = double(c.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    print(zc.unpartition().to_numpy(stream)[:2], ze.unpartition().to_numpy(stream)[:2])


def gridded(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    d = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    grid: list[list[list[sk.DeviceOp]]] = [[[], []], [[], []]]
    grid[1][0].append(axpy.launch_async(prepared, a, a, d))
    for row in grid:
        for cell in row:
            for op in cell:
                op.sync_on(stream)
    zd, _ = double(d.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    print(zd.unpartition().to_numpy(stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    grouped(dev, dev.new_stream())
    gridded(dev, dev.new_stream())


if __name__ == "__main__":
    main()
