"""A container keeps every pending `launch_async` op stored into it, not only the last one: after
`ops.append(op1)` and `ops.append(op2)` (or two `jobs[k] = ...` stores), the first op still borrows its buffers
until it runs, so moving a buffer it writes into the tile world before the container's ops run is E0505 (the
runtime raises `BorrowError` at each marked line)."""

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


def listed(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    d = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    ops: list[sk.DeviceOp] = []
    ops.append(axpy.launch_async(prepared, a, a, c))
    ops.append(axpy.launch_async(prepared, a, a, d))
    zc, _ = double(c.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for op in ops:
        op.sync_on(stream)
    print(zc.unpartition().to_numpy(stream)[:2])


def keyed(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    d = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    jobs: dict[str, sk.DeviceOp] = {}
    jobs["first"] = axpy.launch_async(prepared, a, a, c)
    jobs["second"] = axpy.launch_async(prepared, a, a, d)
    zc, _ = double(c.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for op in jobs.values():
        op.sync_on(stream)
    print(zc.unpartition().to_numpy(stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    for step in (listed, keyed):
        try:
            step(dev, stream)
        except sk.BorrowError as err:
            print("BorrowError:", err)


if __name__ == "__main__":
    main()
