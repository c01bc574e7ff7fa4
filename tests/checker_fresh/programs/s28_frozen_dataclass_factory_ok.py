# fresh-expect: clean
"""A frozen dataclass builds a fresh scratch buffer per instance with field(default_factory); two instances feed two
outputs."""
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := evens.get_mut(idx)) is not None:
        e.set(src[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
N = 256


@dataclass(frozen=True)
class Shard:
    name: str
    scratch: sk.DeviceBuffer = field(default_factory=lambda: sk.zeros(N, f32, stream))


left = Shard("left")
right = Shard("right")
src = sk.to_device(np.arange(2 * N, dtype=np.float32), stream)
prepared = split2.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
split2.launch(prepared, stream, src, left.scratch, right.scratch)
print(left.scratch.to_numpy(stream)[:4], right.name)
