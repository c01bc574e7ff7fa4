"""A generator yields each frame's output buffer beside the pending op that writes it (`yield out,
double.launch_async(prep, src, out)`), and the loop takes them through `enumerate`: `for k, (out, pending) in
enumerate(doubled(...))`.  Moving `out` into a tile launch before `pending` is synced moves a buffer the op still
borrows (E0505, the runtime's `BorrowError`)."""

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def double(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * 2.0)


@tile.kernel
def copy_into(acc: Partition[f32], x: Tensor[f32]) -> None:
    acc.store(tile.load_like(x, acc))


def doubled(
    frames: list[np.ndarray], prep: simt.PreparedLaunch, stream: sk.Stream
) -> Iterator[tuple[sk.DeviceBuffer, sk.DeviceOp]]:
    for frame in frames:
        src = sk.to_device(frame, stream)
        out = sk.zeros(N, f32, stream)
        yield out, double.launch_async(prep, src, out)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    prep = double.prepare(simt.LaunchConfig1D.for_len(N, block=64), device)
    frames = [np.full(N, k, np.float32) for k in range(3)]
    for k, (out, pending) in enumerate(doubled(frames, prep, stream), start=1):
        acc, out = copy_into(tile.zeros((N,), f32).partition((N,)), out).sync_on(stream)  # expect: E0505
        pending.sync_on(stream)
        print(k, acc.unpartition().to_numpy(stream).sum())


if __name__ == "__main__":
    main()
