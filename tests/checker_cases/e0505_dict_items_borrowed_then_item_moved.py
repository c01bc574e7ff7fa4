"""`for name, out in heads.items()` over a dict display bound to a name gives, per iteration, a new key and the item
the display put there (in display order, as `.values()` does): the pending ops the comprehension builds borrow
`heads["q"]` and `heads["k"]` themselves, so a tile launch moving `heads["k"]` before the zipped op runs is E0505
(the runtime raises `BorrowError` at the marked line)."""

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
    heads = {"q": sk.zeros(N, f32, stream), "k": sk.zeros(N, f32, stream)}
    ops = [project.launch_async(prepared, x, out) for name, out in heads.items()]
    batch = sk.zip(*ops)
    norms = tile.zeros((N,), f32).partition((TILE,))
    try:
        norms, k_back = squared(norms, heads["k"]).sync_on(stream)  # expect: E0505
        heads["k"] = k_back
    except sk.BorrowError as err:
        print("BorrowError:", err)
    batch.sync_on(stream)
    print(heads["q"].to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
