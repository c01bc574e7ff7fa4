"""`[sk.zeros(...)] * 3` repeats ONE buffer three times (repetition copies references), as `[a] + [c] * 2`
does: the stages a pipeline chains through are the same object, so `itertools.pairwise(stages)` pairs the
buffer with itself and `stages[0], stages[1]` are one buffer, read and written by one launch (the runtime
raises `AliasingError`); an item taken from `[buf] * n` (`next(iter(...))`) is `buf` itself."""

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
    stages = [sk.to_device(np.ones(n, np.float32), stream)] + [sk.zeros(n, f32, stream)] * 3
    for src, dst in itertools.pairwise(stages):
        halve.launch(prepared, stream, src, dst)  # expect: E0502


def indexed(stream: sk.Stream, prepared: simt.PreparedLaunch, n: int) -> None:
    stages = 2 * (sk.zeros(n, f32, stream),)
    halve.launch(prepared, stream, stages[0], stages[1])  # expect: E0502


def picked(stream: sk.Stream, prepared: simt.PreparedLaunch, n: int) -> None:
    buf = sk.zeros(n, f32, stream)
    halve.launch(prepared, stream, next(iter([buf] * n)), buf)  # expect: E0502


if __name__ == "__main__":
    dev = sk.Device.cpu()
    launch = halve.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    chained(dev.new_stream(), launch, 256)
    indexed(dev.new_stream(), launch, 256)
    picked(dev.new_stream(), launch, 256)
