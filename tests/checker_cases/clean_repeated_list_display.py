"""A comprehension builds a NEW buffer per item (`[sk.zeros(...) for _ in range(3)]`), unlike `[sk.zeros(...)]
* 3`, which repeats one: the stages a pipeline chains through are distinct, so each launch of
`itertools.pairwise(stages)` reads one buffer and writes the next, and `stages[0], stages[1]` are two."""

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def halve(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(0.5))


def chained(stream: sk.Stream, prepared: simt.PreparedLaunch, n: int) -> None:
    stages = [sk.to_device(np.ones(n, np.float32), stream)] + [sk.zeros(n, f32, stream) for _ in range(3)]
    for src, dst in itertools.pairwise(stages):
        halve.launch(prepared, stream, src, dst)
    print(stages[-1].to_numpy(stream)[0])


def indexed(stream: sk.Stream, prepared: simt.PreparedLaunch, n: int) -> None:
    stages = [sk.to_device(np.ones(n, np.float32), stream)] * 1 + [sk.zeros(n, f32, stream) for _ in range(2)]
    halve.launch(prepared, stream, stages[0], stages[1])
    print(stages[1].to_numpy(stream)[0])


def picked(stream: sk.Stream, prepared: simt.PreparedLaunch, n: int) -> None:
    buf = sk.zeros(n, f32, stream)
    src = sk.to_device(np.ones(n, np.float32), stream)
    halve.launch(prepared, stream, next(iter([src] * n)), buf)
    print(buf.to_numpy(stream)[0])


if __name__ == "__main__":
    dev = sk.Device.cpu()
    launch = halve.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    chained(dev.new_stream(), launch, 256)
    indexed(dev.new_stream(), launch, 256)
    picked(dev.new_stream(), launch, 256)
