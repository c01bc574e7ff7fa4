# fresh-expect: E0505 at line 47
# fresh-note: found since: a dict comprehension keyed by its loop target over literal keys ("qkv") holds its items in key order, `.items()` of it pairs a new key with each item, and `heads["k"] = k_back` is a strong update of that item
"""Project one token's activations into query/key/value heads with async SIMT launches
run as one zipped op, and compute a squared-norm statistic of the keys with a tile kernel."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

D = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def project(x: Slice[f32], w: Slice[f32], out: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(scale * x[i] * w[i])


@tile.kernel
def squared(z: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(t * t)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    prepared = project.prepare(simt.LaunchConfig1D.for_len(D, block=128), dev)
    x = sk.to_device(rng.standard_normal(D).astype(np.float32), stream)
    weights = {name: sk.to_device(rng.standard_normal(D).astype(np.float32), stream) for name in "qkv"}
    heads = {name: sk.zeros(D, f32, stream) for name in "qkv"}

    ops = [project.launch_async(prepared, x, weights[name], out, D ** -0.5) for name, out in heads.items()]
    batch = sk.zip(*ops)

    norms = tile.zeros((D,), f32).partition((TILE,))
    norms, k_back = squared(norms, heads["k"]).sync_on(stream)
    heads["k"] = k_back

    batch.sync_on(stream)
    print("q[:3] =", heads["q"].to_numpy(stream)[:3])
    print(f"|k|^2 = {float(norms.unpartition().to_numpy(stream).sum()):.4f}")


if __name__ == "__main__":
    main()
