"""Pending `launch_async` ops kept in a dict display (`pending = {"returns": ..., "rebased": ...}`) still borrow
their buffers: a tile launch moving one of them before the loop that pops and syncs the ops is a move of a
borrowed buffer (E0505, the runtime's `BorrowError`), though the dict is only ever drained by `pop`."""

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


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    prep = double.prepare(simt.LaunchConfig1D.for_len(N, block=64), device)
    src = sk.to_device(np.ones(N, np.float32), stream)
    returns = sk.zeros(N, f32, stream)
    rebased = sk.zeros(N, f32, stream)
    pending = {
        "returns": double.launch_async(prep, src, returns),
        "rebased": double.launch_async(prep, src, rebased),
    }
    stage = copy_into(tile.zeros((N,), f32).partition((N,)), returns)  # expect: E0505
    for name in list(pending):
        pending.pop(name).sync_on(stream)
    acc, returns = stage.sync_on(stream)
    print(acc.unpartition().to_numpy(stream).sum(), rebased.to_numpy(stream).sum())


if __name__ == "__main__":
    main()
