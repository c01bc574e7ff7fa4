"""A list of pending ops built by a comprehension inside a loop and run with `sk.zip(*ops)` in the same iteration:
each iteration's comprehension builds new ops (the ones the previous iteration moved into `zip` are gone with it),
so nothing is used after a move (the runtime runs this clean)."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def scale(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 2.0)


def train(srcs: list[Any], outs: list[Any], prep: Any, stream: sk.Stream) -> None:
    for _ in range(3):
        ops = [scale.launch_async(prep, s, o) for s, o in zip(srcs, outs)]
        sk.zip(*ops).sync_on(stream)


def train_while(srcs: list[Any], outs: list[Any], prep: Any, stream: sk.Stream, steps: int) -> None:
    while steps > 0:
        steps -= 1
        pending = [scale.launch_async(prep, s, o) for s, o in zip(srcs, outs)]
        if not pending:
            break
        sk.zip(*pending).sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = scale.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    srcs = [sk.to_device(np.ones(32, np.float32), stream) for _ in range(3)]
    outs = [sk.zeros(32, f32, stream) for _ in range(3)]
    train(srcs, outs, prep, stream)
    train_while(srcs, outs, prep, stream, 2)
