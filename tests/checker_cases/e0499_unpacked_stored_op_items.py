"""A loop that unpacks the tuples a container keeps (`pending.append((k.launch_async(...), out))`) runs the stored
ops only where it runs: writing the op's output with another launch, or moving it into the tile world, before
`for op, out in pending: op.sync_on(stream)` (also `for _, op in pending`, `(op, out)` of `enumerate(pending)` or
of `jobs.items()`) conflicts with the pending op (the runtime raises `BorrowError` at each marked line)."""

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


def pairs(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    pending: list[tuple[sk.DeviceOp, sk.DeviceBuffer]] = []
    pending.append((axpy.launch_async(prepared, a, a, c), c))
    axpy.launch(prepared, stream, a, a, c)  # expect: E0499
    for op, _out in pending:
        op.sync_on(stream)
    for _, out in pending:
        print(out.to_numpy(stream)[:2])


def second(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    pending: list[tuple[sk.DeviceBuffer, sk.DeviceOp]] = []
    pending.append((c, axpy.launch_async(prepared, a, a, c)))
    double(c.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for _, op in pending:
        op.sync_on(stream)
    print(len(pending))


def numbered(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    pending: list[tuple[sk.DeviceOp, sk.DeviceBuffer]] = []
    pending.append((axpy.launch_async(prepared, a, a, c), c))
    double(c.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for _i, (op, _out) in enumerate(pending):
        op.sync_on(stream)
    print(len(pending))


def keyed(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    jobs: dict[str, tuple[sk.DeviceOp, sk.DeviceBuffer]] = {}
    jobs["c"] = (axpy.launch_async(prepared, a, a, c), c)
    double(c.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for _name, (op, _out) in jobs.items():
        op.sync_on(stream)
    print(len(jobs))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    for step in (pairs, second, numbered, keyed):
        try:
            step(dev, stream)
        except sk.BorrowError as err:
            print("BorrowError:", err)


if __name__ == "__main__":
    main()
