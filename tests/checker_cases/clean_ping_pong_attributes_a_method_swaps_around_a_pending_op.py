"""Twin of `e0505_ping_pong_attribute_a_method_moves_while_an_op_reads_it`: a pending op reads `ctrl.cur` while
`ctrl.advance()` refills `ctrl.nxt` (moving it into a tile launch), and `ctrl.flip()` swaps the two after the
op ran.  In every iteration the two attributes are different buffers, so the move never touches what the op
borrows (the loop's first iteration borrows the caller's `cur`, later ones the buffer `advance` made)."""

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
        part, _v = fill(self.nxt.partition((64,)), 1.0).sync_on(self.stream)
        self.nxt = part.unpartition()

    def flip(self) -> None:
        self.cur, self.nxt = self.nxt, self.cur


def run(ctrl: Ctrl) -> None:
    for t in range(3):
        pending = scale.launch_async(ctrl.prep, ctrl.cur, ctrl.out)
        ctrl.advance()
        pending.sync_on(ctrl.stream)
        ctrl.flip()


def main() -> None:
    dev = sk.Device.cpu()
    run(Ctrl(dev, dev.new_stream()))


if __name__ == "__main__":
    main()
