"""A `for` over an iterator that hands out the same objects again (`itertools.cycle(outputs)`,
`itertools.repeat(src)`, also inside `zip(...)` / `enumerate(...)`) is fine when each iteration's op is run
before the next launch writes the output again, when the recurring item is only read, and when the items are
distinct (`zip(inputs, outputs)` of a list of new buffers keeps each op pending)."""

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


def cycled(dev: sk.Device, stream: sk.Stream) -> None:
    inputs = [sk.to_device(np.full(64, k, dtype=np.float32), stream) for k in range(3)]
    outputs = [sk.zeros(64, f32, stream) for _ in range(2)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    results = []
    for x, out in zip(inputs, itertools.cycle(outputs)):
        scale.launch_async(prep, x, out, 0.5).sync_on(stream)
        results.append(out.to_numpy(stream))
    print(len(results))


def repeated(dev: sk.Device, stream: sk.Stream) -> None:
    inputs = [sk.to_device(np.full(64, k, dtype=np.float32), stream) for k in range(3)]
    acc = sk.zeros(64, f32, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    for x, out in zip(inputs, itertools.repeat(acc)):
        op = scale.launch_async(prep, x, out, 0.5)
        op.sync_on(stream)
    print(acc.to_numpy(stream)[0])


def enumerated(dev: sk.Device, stream: sk.Stream, steps: int) -> None:
    x = sk.to_device(np.ones(64, dtype=np.float32), stream)
    outputs = [sk.zeros(64, f32, stream) for _ in range(2)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    for i, out in enumerate(itertools.cycle(outputs)):
        if i == steps:
            break
        scale.launch_async(prep, x, out, 0.5).sync_on(stream)


def distinct(dev: sk.Device, stream: sk.Stream) -> None:
    inputs = [sk.to_device(np.full(64, k, dtype=np.float32), stream) for k in range(3)]
    outputs = [sk.zeros(64, f32, stream) for _ in range(3)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    pending = []
    for x, out in zip(inputs, outputs, strict=True):
        pending.append((scale.launch_async(prep, x, out, 0.5), out))
    for op, _ in pending:
        op.sync_on(stream)


def read_only(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.ones(64, dtype=np.float32), stream)
    outputs = [sk.zeros(64, f32, stream) for _ in range(3)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    pending = []
    for x, out in zip(itertools.repeat(src), outputs):
        pending.append(scale.launch_async(prep, x, out, 0.5))
    for op in pending:
        op.sync_on(stream)


if __name__ == "__main__":
    device = sk.Device.cpu()
    stream = device.new_stream()
    cycled(device, stream)
    repeated(device, stream)
    enumerated(device, stream, 5)
    distinct(device, stream)
    read_only(device, stream)
