"""The error twin: the queue is drained after the move, so the pending op still writes the buffer the tile launch
takes (E0505)."""

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=32)
def deviation(profile: Slice[f32], out: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(profile[i] - f32(2.0))


@tile.kernel
def porosity(flags: Partition[f32], dev: Tensor[f32]) -> None:
    flags.store(tile.load_like(dev, flags))


def local(dev: sk.Device, stream: sk.Stream) -> None:
    prep = deviation.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    pending = []
    out = sk.zeros(64, f32, stream)
    pending.append(("root", deviation.launch_async(prep, sk.zeros(64, f32, stream), out)))
    porosity(tile.zeros((64,), f32).partition((16,)), out).sync_on(stream)  # expect: E0505
    while pending:
        _name, op = pending.pop(0)
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    local(dev, stream)


if __name__ == "__main__":
    main()
