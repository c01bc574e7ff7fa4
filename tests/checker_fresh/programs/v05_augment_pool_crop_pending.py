# fresh-expect: E0505 at line 47
# fresh-note: found since: an assignment of a conditional expression is lowered as the if/else it stands for (the op is held on the launching path)
"""Data augmentation: buffers come from a pool, a flip runs async, then the crop goes to a tile kernel."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

IMG = 1024


@simt.kernel
@simt.launch_contract(block=128)
def flip(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[len(src) - 1 - i])


@tile.kernel
def brighten(out: Partition[f32], img: Tensor[f32]) -> None:
    out.store(tile.load_like(img, out) + 1.0)


class BufferPool:
    def __init__(self, stream: sk.Stream, n: int, count: int) -> None:
        self.free = [sk.zeros(n, f32, stream) for _ in range(count)]

    def take(self) -> sk.DeviceBuffer:
        return self.free.pop()


config = {"hflip": True, "brighten": True}
dev = sk.Device.cpu()
stream = dev.new_stream()
pool = BufferPool(stream, IMG, 2)
image = sk.to_device(np.arange(IMG, dtype=np.float32), stream)
flipped = pool.take()
prep = flip.prepare(simt.LaunchConfig1D.for_len(IMG, block=128), dev)
pending = flip.launch_async(prep, image, flipped) if config["hflip"] else None
if config["brighten"]:
    target = tile.zeros((IMG,), f32).partition((128,))
    op = brighten(target, flipped)
    target, flipped = op.sync_on(stream)
if pending is not None:
    pending.sync_on(stream)
print(flipped.to_numpy(stream)[:3])
