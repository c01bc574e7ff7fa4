"""A helper's launch borrows the caller's buffers at the call when every path of the helper that returns launches: a
path that ends in `raise` never returns, so `run` below, which launches in one arm of its `match` and raises in the
other (or launches after an `if` that raises), conflicts at its call when the caller's stage holds one buffer as
both operands."""

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
    op: str
    src: sk.DeviceBuffer[f32]
    dst: sk.DeviceBuffer[f32]


def run(stage: Stage, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    match stage:
        case Stage(op="scale", src=x, dst=y):
            scale.launch(prepared, stream, x, y, 0.5)  # expect: E0502
        case _:
            raise ValueError(stage.op)


def run_checked(stage: Stage, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    if stage.op != "scale":
        raise ValueError(stage.op)
    else:
        scale.launch(prepared, stream, stage.src, stage.dst, 0.5)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.zeros(64, f32, stream)
    run(Stage("scale", a, a), prepared, stream)
    run_checked(Stage("scale", b, b), prepared, stream)


if __name__ == "__main__":
    main()
