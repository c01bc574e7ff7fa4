"""The captures of a class pattern of one of the module's classes bind the attributes of the subject they match:
`case Stage(src=x, dst=y):` binds `x` to `stage.src` and `y` to `stage.dst`; positional captures `case Stage(x, y):`
take the attributes the class's `__match_args__` names in order (a dataclass generates it from its fields, a class
may spell it out), so each launch below reads the buffer it writes when the object holds one buffer twice."""

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
    stage = Stage(a, a)
    match stage:
        case Stage(src=x, dst=y):
            scale.launch(prepared, stream, x, y, 2.0)  # expect: E0502
    match stage:
        case Stage(x, y):
            scale.launch(prepared, stream, x, y, 2.0)  # expect: E0502
    pair = Pair(b, b)
    match pair:
        case Pair(x, back=y):
            scale.launch(prepared, stream, x, y, 2.0)  # expect: E0502


if __name__ == "__main__":
    main()
