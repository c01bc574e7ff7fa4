"""A `for` over an iterator that hands out the same objects again takes, in a later iteration, an object an
earlier iteration took: `itertools.cycle(outputs)` wraps around to the first output, `itertools.repeat(acc)`
hands out `acc` every time (also inside `zip(...)` / `enumerate(...)`).  A pending `launch_async` op of an
earlier iteration, kept in a list (also inside a tuple), still borrows that output when this iteration's launch
writes it again; and a tensor partitioned (moved) by an earlier iteration is moved for this one."""

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


@tile.kernel
def halve(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 0.5)


def cycled(dev: sk.Device, stream: sk.Stream) -> None:
    inputs = [sk.to_device(np.full(64, k, dtype=np.float32), stream) for k in range(3)]
    outputs = [sk.zeros(64, f32, stream) for _ in range(2)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    pending = []
    for x, out in zip(inputs, itertools.cycle(outputs)):
        pending.append((scale.launch_async(prep, x, out, 0.5), out))  # expect: E0499
    for op, _ in pending:
        op.sync_on(stream)


def repeated(dev: sk.Device, stream: sk.Stream) -> None:
    inputs = [sk.to_device(np.full(64, k, dtype=np.float32), stream) for k in range(3)]
    acc = sk.zeros(64, f32, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    pending = []
    for x, out in zip(inputs, itertools.repeat(acc)):
        pending.append(scale.launch_async(prep, x, out, 0.5))  # expect: E0499
    for op in pending:
        op.sync_on(stream)


def enumerated(dev: sk.Device, stream: sk.Stream, steps: int) -> None:
    x = sk.to_device(np.ones(64, dtype=np.float32), stream)
    outputs = [sk.zeros(64, f32, stream) for _ in range(2)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    pending = []
    for i, out in enumerate(itertools.cycle(outputs)):
        if i == steps:
            break
        pending.append(scale.launch_async(prep, x, out, 0.5))  # expect: E0499
    for op in pending:
        op.sync_on(stream)


def moved(stream: sk.Stream, n: int) -> None:
    inputs = [tile.ones((n,), f32) for _ in range(3)]
    acc = tile.zeros((n,), f32)
    for x, dst in zip(inputs, itertools.repeat(acc)):
        z, _ = halve(dst.partition((64,)), x).sync_on(stream)  # expect: E0382
        print(z.unpartition().to_numpy(stream)[0])


if __name__ == "__main__":
    device = sk.Device.cpu()
    cycled(device, device.new_stream())
