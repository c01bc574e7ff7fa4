"""A double-buffered pipeline: each iteration runs the pending op, then starts the next item's op unless this is
the last iteration (`if i + 1 < len(items):`).  The last iteration starts nothing, and no next iteration follows
it, so the `sync_on` at the top of the loop never meets an op it already ran.  The same with `enumerate` and the
test written the other way round (`if i == len(items) - 1: ... else: ...`)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def double(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


def pipeline(prepared: simt.PreparedLaunch, stream: sk.Stream, items: list[sk.DeviceBuffer]) -> float:
    outs = [sk.zeros(64, f32, stream) for _ in items]
    pending = double.launch_async(prepared, items[0], outs[0])
    total = 0.0
    for i in range(len(items)):
        pending.sync_on(stream)
        if i + 1 < len(items):
            pending = double.launch_async(prepared, items[i + 1], outs[i + 1])
        total += float(outs[i].to_numpy(stream).sum())
    return total


def pipeline_enumerated(prepared: simt.PreparedLaunch, stream: sk.Stream, items: list[sk.DeviceBuffer]) -> float:
    outs = [sk.zeros(64, f32, stream) for _ in items]
    pending = double.launch_async(prepared, items[0], outs[0])
    total = 0.0
    for i, _item in enumerate(items):
        pending.sync_on(stream)
        if i == len(items) - 1:
            total += 1.0
        else:
            pending = double.launch_async(prepared, items[i + 1], outs[i + 1])
        total += float(outs[i].to_numpy(stream).sum())
    return total


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = double.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    items = [sk.to_device(np.full(64, float(k), np.float32), stream) for k in range(3)]
    print(pipeline(prepared, stream, items), pipeline_enumerated(prepared, stream, items))


if __name__ == "__main__":
    main()
