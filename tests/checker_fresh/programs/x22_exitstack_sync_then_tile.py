# fresh-expect: clean
"""Cleanup with ExitStack: pending launches are synced when the block ends; only then is the output tiled."""
import contextlib

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def negate(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(-x[i])


@tile.kernel
def bump(out: Partition[f32]) -> None:
    out.store(out.load() + 1.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 384
    prep = negate.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    x = sk.to_device(np.arange(n, dtype=np.float32), stream)
    outs = [sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)]
    with contextlib.ExitStack() as stack:
        for out in outs:
            pending = negate.launch_async(prep, x, out)
            stack.callback(pending.sync_on, stream)
        print("launched", len(outs))
    first = outs[0]
    (tiled,) = bump(first.partition((128,))).sync_on(stream)
    print(tiled.unpartition().to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
