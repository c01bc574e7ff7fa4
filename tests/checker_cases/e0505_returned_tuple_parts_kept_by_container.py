"""A helper returning a new buffer together with the pending op writing it (`return out, k.launch_async(...,
out)`), called once per item of a comprehension over a display: each item of the list keeps the op pending, and
unpacking an item (`for out, op in jobs`, `out, op = jobs[0]`) gives the buffer and its op, so moving the buffer
into a tile launch before running the op is E0505, as the runtime's `BorrowError` says."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], dst: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * k)


@tile.kernel
def double(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 2.0)


def start(
    prepared: simt.PreparedLaunch, src: sk.DeviceBuffer, k: float, stream: sk.Stream
) -> tuple[sk.DeviceBuffer, sk.DeviceOp]:
    out = sk.zeros(N, f32, stream)
    return out, scale.launch_async(prepared, src, out, k)


def looped(prepared: simt.PreparedLaunch, src: sk.DeviceBuffer, stream: sk.Stream) -> None:
    jobs = [start(prepared, src, k, stream) for k in (0.5, 2.0)]
    for out, pending in jobs:
        double(tile.zeros((N,), f32).partition((32,)), out).sync_on(stream)  # expect: E0505
        pending.sync_on(stream)


def indexed(prepared: simt.PreparedLaunch, src: sk.DeviceBuffer, stream: sk.Stream) -> None:
    jobs = [start(prepared, src, k, stream) for k in (0.5, 2.0)]
    out, pending = jobs[1]
    double(tile.zeros((N,), f32).partition((32,)), out).sync_on(stream)  # expect: E0505
    pending.sync_on(stream)
    sk.zip(*(op for _, op in jobs[:1])).sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    src = sk.to_device(np.ones(N, np.float32), stream)
    looped(prepared, src, stream)
    indexed(prepared, src, stream)


if __name__ == "__main__":
    main()
