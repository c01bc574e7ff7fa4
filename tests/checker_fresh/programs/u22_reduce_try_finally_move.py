# fresh-expect: E0505 at line 35
"""Particle energy reduction: a SIMT pass squares velocities asynchronously while the tile track rescales them."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

P = 512


@simt.kernel
@simt.launch_contract(block=128)
def square(v: Slice[f32], e: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := e.get_mut(idx)) is not None:
        o.set(v[i] * v[i])


@tile.kernel
def rescale(out: Partition[f32], v: Tensor[f32]) -> None:
    out.store(tile.load_like(v, out) * 0.99)


def step(vel: sk.DeviceBuffer, dev: sk.Device, stream):
    energy = sk.zeros(P, f32, stream)
    prep = square.prepare(simt.LaunchConfig1D.for_len(P, block=128), dev)
    pending = square.launch_async(prep, vel, energy)
    try:
        damped = tile.zeros((P,), f32).partition((128,))
        damped, vel = rescale(damped, vel).sync_on(stream)
    finally:
        pending.sync_on(stream)
    return damped.unpartition(), float(energy.to_numpy(stream).sum())


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    v = sk.to_device(np.ones(P, dtype=np.float32), s)
    print(step(v, dev, s)[1])
