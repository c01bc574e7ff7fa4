# fresh-expect: E0505 at line 35
"""Overlapped pipeline: a SIMT normalisation is queued with launch_async, and the tile stage takes its output
before the queued op has been synced."""

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


def run_batch(raw: np.ndarray, dev, stream) -> np.ndarray:
    n = raw.size
    src = sk.to_device(raw, stream)
    staged = sk.zeros(n, f32, stream)
    prep = normalise.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    pending = normalise.launch_async(prep, src, staged, 1.0 / float(np.abs(raw).max()))
    out = tile.zeros((n,), f32).partition((128,))
    act = relu(out, staged)  # BUG: `staged` is still borrowed by `pending`
    pending.sync_on(stream)
    out, staged = act.sync_on(stream)
    return out.unpartition().to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    batches = [np.linspace(-1, 1, 512, dtype=np.float32) * k for k in (1, 2)]
    for raw in batches:
        print(run_batch(raw, dev, dev.new_stream())[:4])
