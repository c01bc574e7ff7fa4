"""The twin of `clean_comprehension_of_ops_rebuilt_each_iteration`: the comprehension runs once, before the loop,
so the second iteration's `sk.zip(*ops)` takes ops the first iteration already moved into a `zip`: E0382, as
the runtime's `UseAfterMoveError`."""

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
    ops = [scale.launch_async(prep, s, o) for s, o in zip(srcs, outs)]
    for _ in range(3):
        sk.zip(*ops).sync_on(stream)  # expect: E0382


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = scale.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    srcs = [sk.to_device(np.ones(32, np.float32), stream) for _ in range(3)]
    outs = [sk.zeros(32, f32, stream) for _ in range(3)]
    train(srcs, outs, prep, stream)
