"""A pending op holds its loans only on the paths that still keep it: staging the next batch on some iterations
(`if k + 1 < n:`) while the previous batch's op was run at the top of the loop (`flush`) leaves the previous batch
free to move, although another path of the loop still keeps the new op."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 256


@simt.kernel
@simt.launch_contract(block=64)
def halve(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * f32(0.5))


@tile.kernel
def shift(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) + 1.0)


def flush(pending: list[sk.DeviceOp], stream: sk.Stream) -> None:
    while pending:
        pending.pop(0).sync_on(stream)


def ahead(dev: sk.Device, stream: sk.Stream, batches: list[np.ndarray]) -> list[np.ndarray]:
    plan = halve.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    pending: list[sk.DeviceOp] = []
    done = []
    current = sk.zeros(N, f32, stream)
    pending.append(halve.launch_async(plan, sk.to_device(batches[0].astype(np.float32), stream), current))
    for k in range(len(batches)):
        while pending:
            pending.pop(0).sync_on(stream)
        upcoming = None
        if k + 1 < len(batches):
            upcoming = sk.zeros(N, f32, stream)
            pending.append(halve.launch_async(plan, sk.to_device(batches[k + 1].astype(np.float32), stream), upcoming))
        res = tile.zeros((N,), f32).partition((64,))
        res, _ = shift(res, current).sync_on(stream)
        done.append(res.unpartition().to_numpy(stream))
        if upcoming is None:
            break
        current = upcoming
    flush(pending, stream)
    return done


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(len(ahead(dev, stream, [np.ones(N), np.ones(N), np.ones(N)])))


if __name__ == "__main__":
    main()
