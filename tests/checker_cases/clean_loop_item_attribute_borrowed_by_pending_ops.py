"""Each item of a loop is a new object, and so are its attributes: the op queued for one layer borrows that
layer's `out`, not the next layer's, so queuing one `launch_async` per layer and running them all afterwards
borrows every `out` once (the runtime runs this clean)."""

from dataclasses import dataclass
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


@dataclass
class Layer:
    weights: Any
    out: Any


def step_all(layers: list[Layer], prep: Any, stream: sk.Stream) -> None:
    ops = []
    for p in layers:
        ops.append(scale.launch_async(prep, p.weights, p.out))
    for op in ops:
        op.sync_on(stream)


def rebuilt_each_step(prep: Any, stream: sk.Stream) -> None:
    pending = []
    for _ in range(3):
        p = Layer(sk.to_device(np.ones(32, np.float32), stream), sk.zeros(32, f32, stream))
        pending.append(scale.launch_async(prep, p.weights, p.out))
    for op in pending:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = scale.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    layers = [Layer(sk.to_device(np.ones(32, np.float32), stream), sk.zeros(32, f32, stream)) for _ in range(3)]
    step_all(layers, prep, stream)
    rebuilt_each_step(prep, stream)
