# fresh-expect: E0505 at line 42
"""A prefetch helper starts the next batch's preprocessing and returns the pending op; the loop partitions the
batch for the model before waiting for it."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=128)
def to_unit(x: Slice[f32], out: DisjointSlice[f32], inv: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * inv)


@tile.kernel
def square(z: Partition[f32], x: Tensor[f32]) -> None:
    v = tile.load_like(x, z)
    z.store(v * v)


def prefetch(prep, raw: np.ndarray, staging, stream):
    src = sk.to_device(raw, stream)
    return to_unit.launch_async(prep, src, staging, 1.0 / 255.0)


def run_epoch(batches: list, dev, stream) -> list:
    n = batches[0].size
    prep = to_unit.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    outs = []
    for raw in batches:
        staging = sk.zeros(n, f32, stream)
        ready = prefetch(prep, raw, staging, stream)
        out = tile.zeros((n,), f32).partition((128,))
        out, staging = square(out, staging).sync_on(stream)  # BUG: `ready` still writes `staging`
        ready.sync_on(stream)
        outs.append(float(out.unpartition().to_numpy(stream).sum()))
    return outs


if __name__ == "__main__":
    dev = sk.Device.cpu()
    data = [np.full(512, k, np.float32) for k in (10.0, 20.0)]
    print(run_epoch(data, dev, dev.new_stream()))
