"""Ops built by a list, set or dict comprehension (or a generator expression given to `list`/`tuple`/`set`) and
kept (`ops = [k.launch_async(prepared, acc, acc, x) for x in inputs]`) each borrow their buffers until they run:
moving `acc` into a tile launch, or launching with `acc` as an output, before `for op in ops: op.sync_on(stream)`,
`sk.zip(*ops)`'s op or `jobs.values()` runs them is an error (the runtime raises `BorrowError` at each marked
line)."""

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


def listed(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    ops = [axpy.launch_async(prepared, acc, acc, x) for x in inputs]
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for op in ops:
        op.sync_on(stream)
    print(len(ops))


def written(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    a = sk.to_device(np.ones(128, np.float32), stream)
    ops = [axpy.launch_async(prepared, acc, acc, x) for x in inputs]
    axpy.launch(prepared, stream, a, a, acc)  # expect: E0502
    for op in ops:
        op.sync_on(stream)


def zipped(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    ops = [axpy.launch_async(prepared, acc, acc, x) for x in inputs]
    done = sk.zip(*ops)
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    done.sync_on(stream)


def keyed(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    jobs = {i: axpy.launch_async(prepared, acc, acc, x) for i, x in enumerate(inputs)}
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for op in jobs.values():
        op.sync_on(stream)


def generated(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    ops = list(axpy.launch_async(prepared, acc, acc, x) for x in inputs)
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for op in ops:
        op.sync_on(stream)


def known(dev: sk.Device, stream: sk.Stream) -> None:
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    acc = sk.to_device(np.ones(128, np.float32), stream)
    inputs = [sk.zeros(128, f32, stream) for _ in range(2)]
    ops = [axpy.launch_async(prepared, acc, acc, x) for x in inputs]
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    for op in ops:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    for step in (listed, written, zipped, keyed, generated):
        inputs = [sk.zeros(128, f32, stream) for _ in range(2)]
        try:
            step(prepared, inputs, stream)
        except sk.BorrowError as err:
            print("BorrowError:", err)
    try:
        known(dev, stream)
    except sk.BorrowError as err:
        print("BorrowError:", err)


if __name__ == "__main__":
    main()
