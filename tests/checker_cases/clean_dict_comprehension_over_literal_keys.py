"""A dict comprehension keyed by its loop target over literal keys holds one new buffer per key, in that order, so
`.values()` of it takes `heads["q"]` and `heads["k"]` themselves: running the zipped op of the ops borrowing them
before the tile launch moves `heads["k"]` ends those loans (the runtime runs this)."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def project(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


@tile.kernel
def squared(z: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(t * t)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = project.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    x = sk.to_device(np.ones(N, np.float32), stream)
    heads = {name: sk.zeros(N, f32, stream) for name in ("q", "k")}
    ops = [project.launch_async(prepared, x, out) for out in heads.values()]
    batch = sk.zip(*ops)
    batch.sync_on(stream)
    norms = tile.zeros((N,), f32).partition((TILE,))
    norms, k_back = squared(norms, heads["k"]).sync_on(stream)
    heads["k"] = k_back
    print(heads["q"].to_numpy(stream)[:3], heads["k"].to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
