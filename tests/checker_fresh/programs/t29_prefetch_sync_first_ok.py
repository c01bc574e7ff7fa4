# fresh-expect: clean
"""Overlapped pipeline done right: the async normalisation is synced before its output moves into the tile
stage, while the next batch's host data is prepared in between."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=128)
def normalise(x: Slice[f32], out: DisjointSlice[f32], inv_scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * inv_scale)


@tile.kernel
def relu(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.maximum(tile.load_like(x, z), 0.0))


def run_batches(batches: list, dev, stream) -> list:
    n = batches[0].size
    prep = normalise.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    results = []
    for raw in batches:
        src = sk.to_device(raw, stream)
        staged = sk.zeros(n, f32, stream)
        pending = normalise.launch_async(prep, src, staged, 1.0 / float(np.abs(raw).max()))
        out = tile.zeros((n,), f32).partition((128,))  # host-side work overlaps the queued op
        pending.sync_on(stream)
        out, staged = relu(out, staged).sync_on(stream)
        results.append(out.unpartition().to_numpy(stream)[:4])
    return results


if __name__ == "__main__":
    dev = sk.Device.cpu()
    batches = [np.linspace(-1, 1, 512, dtype=np.float32) * k for k in (1, 2)]
    print(run_batches(batches, dev, dev.new_stream()))
