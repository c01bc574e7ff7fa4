"""An op bound by a conditional expression (`pending = k.launch_async(...) if flag else None`) and run under
`if pending is not None:` before the output moves into a tile launch: on the path that launched it the op has
run, on the other there is none, so the move is fine (the look-alike: e0505_conditional_pending_op_assignment)."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main(flag: bool = True) -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1024, dtype=np.float32), stream)
    b = sk.to_device(np.ones(1024, dtype=np.float32), stream)
    c = sk.zeros(1024, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(1024, block=256), dev)
    pending: sk.DeviceOp | None = vecadd.launch_async(prepared, a, b, c) if flag else None
    if pending is not None:
        pending.sync_on(stream)
    z = tile.zeros((1024,), f32).partition((128,))
    op = scale(z, c)
    z, c = op.sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
