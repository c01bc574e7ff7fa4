"""A pending op reads `ctrl.cur`; `ctrl.flip()` then swaps `cur` and `nxt` *before* the op ran, so
`ctrl.advance()` moves the buffer the op still reads (`self.nxt.partition(...)` inside the method): E0505, as the
runtime's BorrowError raised there."""

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * 2.0)


@tile.kernel
def fill(sp: Partition[f32], v: f32) -> None:
    sp.store(tile.full(sp.tile_shape, v, f32))


class Ctrl:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.cur, self.nxt = sk.zeros(128, f32, stream), sk.zeros(128, f32, stream)
        self.out = sk.zeros(128, f32, stream)
        self.prep = scale.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)

    def advance(self) -> None:
        part, _v = fill(self.nxt.partition((64,)), 1.0).sync_on(self.stream)  # expect: E0505
        self.nxt = part.unpartition()

    def flip(self) -> None:
        self.cur, self.nxt = self.nxt, self.cur


def run(ctrl: Ctrl) -> None:
    for t in range(3):
        pending = scale.launch_async(ctrl.prep, ctrl.cur, ctrl.out)
        ctrl.flip()
        ctrl.advance()
        pending.sync_on(ctrl.stream)


def main() -> None:
    dev = sk.Device.cpu()
    run(Ctrl(dev, dev.new_stream()))


if __name__ == "__main__":
    main()
