"""Clean twin of e0505_comprehension_built_ops: the ops a comprehension built and the container keeps run first
(`for op in ops: op.sync_on(stream)`, `sk.zip(*ops)`'s op, `for op in jobs.values()`), then `acc` is moved or
written, while the container is still read later."""

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
    for op in ops:
        op.sync_on(stream)
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    print(len(ops))


def written(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    a = sk.to_device(np.ones(128, np.float32), stream)
    ops = [axpy.launch_async(prepared, acc, acc, x) for x in inputs]
    for op in ops:
        op.sync_on(stream)
    axpy.launch(prepared, stream, a, a, acc)
    print(len(ops), acc.to_numpy(stream)[:2])


def zipped(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    ops = [axpy.launch_async(prepared, acc, acc, x) for x in inputs]
    done = sk.zip(*ops)
    done.sync_on(stream)
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    print(len(ops))


def keyed(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    jobs = {i: axpy.launch_async(prepared, acc, acc, x) for i, x in enumerate(inputs)}
    for op in jobs.values():
        op.sync_on(stream)
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    print(len(jobs))


def generated(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    acc = sk.to_device(np.ones(128, np.float32), stream)
    ops = list(axpy.launch_async(prepared, acc, acc, x) for x in inputs)
    for op in ops:
        op.sync_on(stream)
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    print(len(ops))


def lazy(prepared: simt.PreparedLaunch, inputs: list[sk.DeviceBuffer], stream: sk.Stream) -> None:
    # a generator expression on its own builds no op until it is iterated: each op runs as it is built
    acc = sk.to_device(np.ones(128, np.float32), stream)
    a = sk.to_device(np.ones(128, np.float32), stream)
    ops = (axpy.launch_async(prepared, acc, acc, x) for x in inputs)
    axpy.launch(prepared, stream, a, a, acc)
    for op in ops:
        op.sync_on(stream)


def known(dev: sk.Device, stream: sk.Stream) -> None:
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    acc = sk.to_device(np.ones(128, np.float32), stream)
    inputs = [sk.zeros(128, f32, stream) for _ in range(2)]
    ops = [axpy.launch_async(prepared, acc, acc, x) for x in inputs]
    for op in ops:
        op.sync_on(stream)
    double(acc.partition((64,)), tile.ones((128,), f32)).sync_on(stream)
    print(len(ops))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    for step in (listed, written, zipped, keyed, generated, lazy):
        inputs = [sk.zeros(128, f32, stream) for _ in range(2)]
        step(prepared, inputs, stream)
    known(dev, stream)


if __name__ == "__main__":
    main()
