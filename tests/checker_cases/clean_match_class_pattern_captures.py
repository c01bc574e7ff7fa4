"""The clean twin of `e0502_match_class_pattern_captures`: each object holds two distinct buffers, so the
captures of its class pattern bind distinct buffers and no launch reads the buffer it writes."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], dst: DisjointSlice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * factor)


@dataclass
class Stage:
    src: sk.DeviceBuffer[f32]
    dst: sk.DeviceBuffer[f32]


class Pair:
    __match_args__ = ("front", "back")

    def __init__(self, front: sk.DeviceBuffer[f32], back: sk.DeviceBuffer[f32]) -> None:
        self.front = front
        self.back = back


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.zeros(64, f32, stream)
    stage = Stage(a, b)
    match stage:
        case Stage(src=x, dst=y):
            scale.launch(prepared, stream, x, y, 2.0)
    match stage:
        case Stage(x, y):
            scale.launch(prepared, stream, x, y, 2.0)
    pair = Pair(a, b)
    match pair:
        case Pair(x, back=y):
            scale.launch(prepared, stream, x, y, 2.0)


if __name__ == "__main__":
    main()
