"""A buffer bound to a name through a dict display (`u = entries["u"]`), or a parameter of no safekernels type,
whose `partition` is written inline as a tile launch's argument: the partition moved the buffer, as when it is
bound first (`parts = u.partition(...)`), so handing the buffer to a later launch, or reading it, is a use after
move (the runtime raises `UseAfterMoveError` there)."""

from typing import Any

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def copy(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i])


@tile.kernel
def fill(out: Partition[f32], value: f32) -> None:
    out.store(tile.full(out.tile_shape, value, f32))


def scale(t: Any, stream: Any) -> Any:
    (filled, _) = fill(t.partition((32,)), 2.0).sync_on(stream)
    print(filled.unpartition().to_numpy(stream)[:2])
    return t.to_numpy(stream)  # expect: E0382


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = copy.prepare(simt.LaunchConfig1D.for_len(256, block=128), dev)
    z = sk.zeros(256, f32, stream)
    y = sk.zeros(256, f32, stream)
    entries = {"u": z}
    u = entries["u"]
    fill(u.partition((128,)), 1.0).sync_on(stream)
    copy.launch(prep, stream, z, y)  # expect: E0382
    print(scale(tile.zeros((64,), f32).sync_on(stream), stream))
