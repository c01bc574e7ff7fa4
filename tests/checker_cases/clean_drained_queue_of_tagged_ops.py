"""Pending ops kept as `(name, op)` tuples in a list (`pending.append((name, k.launch_async(...)))`), drained by
`while pending: _name, op = pending.pop(0); op.sync_on(s)`: the loop falls out only once the list is empty, so
the loans of every stored op have ended and moving a buffer they wrote is fine."""

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
    while pending:
        _name, op = pending.pop(0)
        op.sync_on(stream)
    porosity(tile.zeros((64,), f32).partition((16,)), out).sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    local(dev, stream)


if __name__ == "__main__":
    main()
