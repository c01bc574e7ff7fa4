"""Ops built by a comprehension over a tuple display (`ops = [fill.launch_async(prepared, h) for h in (hq, hk)]`,
unrolled into one element per item) borrow their items only until they run: once every op has run, moving `hk`
into a tile launch, or launching with `hk` read, is fine (the clean twin of
e0505_comprehension_over_display_ops)."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def fill(out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (o := out.get_mut(idx)) is not None:
        o.set(1.0)


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


def moved(prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    hq = sk.to_device(np.ones(128, np.float32), stream)
    hk = sk.to_device(np.ones(128, np.float32), stream)
    ops = [fill.launch_async(prepared, h) for h in (hq, hk)]
    for op in ops:
        op.sync_on(stream)
    double(hk.partition((64,)), tile.ones((128,), f32)).sync_on(stream)


def read(prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    summed = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), stream.device)
    hq = sk.to_device(np.ones(128, np.float32), stream)
    hk = sk.to_device(np.ones(128, np.float32), stream)
    out = sk.zeros(128, f32, stream)
    ops = [fill.launch_async(prepared, h) for h in (hq, hk)]
    for op in ops:
        op.sync_on(stream)
    axpy.launch(summed, stream, hk, hk, out)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = fill.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    for step in (moved, read):
        step(prepared, stream)


if __name__ == "__main__":
    main()
