# fresh-expect: clean
"""Clean twin of the E0505 scheduler: the pending SIMT op is synced in a `finally` before the output is
partitioned for the tile stage."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def host_side_work(k: int) -> int:
    if k < 0:
        raise ValueError(k)
    return k * 2


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    a = sk.to_device(np.ones(n, np.float32), stream)
    b = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    pending = axpy.launch_async(prepared, a, b, out)
    try:
        meta = host_side_work(3)
    finally:
        pending.sync_on(stream)
    parts = out.partition((64,))
    z, _ = double(parts, a).sync_on(stream)
    print(meta, z.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
