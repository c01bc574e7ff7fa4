"""`t.as_buffer()` (the method form of `sk.as_buffer(t)`) lends `t` itself: a pending `launch_async` that reads
the lent buffer borrows `t`, so partitioning `t` before the op runs moves it while borrowed, bound or inline."""

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def negate(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(-x[i])


def inline(dev: sk.Device, stream: sk.Stream) -> None:
    t = tile.ones((64,), f32).sync_on(stream)
    out = sk.zeros(64, f32, stream)
    op = negate.launch_async(negate.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev), t.as_buffer(), out)
    t.partition((16,))  # expect: E0505
    op.sync_on(stream)


def bound(dev: sk.Device, stream: sk.Stream) -> None:
    t = tile.ones((64,), f32).sync_on(stream)
    out = sk.zeros(64, f32, stream)
    lent = t.as_buffer()
    op = negate.launch_async(negate.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev), lent, out)
    t.partition((16,))  # expect: E0505
    op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    inline(dev, stream)
    bound(dev, stream)
