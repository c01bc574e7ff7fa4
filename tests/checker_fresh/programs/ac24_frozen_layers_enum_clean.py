# fresh-expect: clean
# idiom: enum-valued layer phases with an early return for frozen layers in an update loop
"""One SGD step over a small stack of layers, some of them frozen for fine-tuning.

Each layer double-buffers its weights: the update writes `w_next` from `w` and the gradient,
then the two buffers swap roles.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SIZE = 256
LR = 0.05


class Phase(enum.Enum):
    TRAIN = "train"
    WARMUP = "warmup"
    FROZEN = "frozen"


@simt.kernel
@simt.launch_contract(block=128)
def sgd(w: Slice[f32], g: Slice[f32], w_next: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := w_next.get_mut(idx)) is not None:
        o.set(w[i] - lr * g[i])


@dataclass
class Layer:
    name: str
    phase: Phase
    w: sk.DeviceBuffer
    g: sk.DeviceBuffer
    w_next: sk.DeviceBuffer


def update(layer: Layer, prepared, stream: sk.Stream) -> float:
    if layer.phase is Phase.FROZEN:
        return 0.0
    lr = LR * (0.1 if layer.phase is Phase.WARMUP else 1.0)
    pending = sgd.launch_async(prepared, layer.w, layer.g, layer.w_next, lr)
    pending.sync_on(stream)
    layer.w, layer.w_next = layer.w_next, layer.w
    return lr


def make_layer(name: str, phase: Phase, rng: np.random.Generator, stream: sk.Stream) -> Layer:
    w = sk.to_device(rng.standard_normal(SIZE).astype(np.float32), stream)
    g = sk.to_device(rng.standard_normal(SIZE).astype(np.float32), stream)
    return Layer(name, phase, w, g, sk.zeros(SIZE, f32, stream))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = sgd.prepare(simt.LaunchConfig1D.for_len(SIZE, block=128), dev)
    rng = np.random.default_rng(21)
    phases = {"embed": Phase.FROZEN, "hidden": Phase.TRAIN, "head": Phase.WARMUP}
    layers = [make_layer(name, phase, rng, stream) for name, phase in phases.items()]
    applied = {layer.name: update(layer, prepared, stream) for layer in layers}
    for layer in layers:
        print(f"{layer.name:>6} ({layer.phase.value}): lr {applied[layer.name]:.3f}, "
              f"w[0] = {float(layer.w.to_numpy(stream)[0]):+.4f}")


if __name__ == "__main__":
    main()
