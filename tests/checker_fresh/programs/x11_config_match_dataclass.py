# fresh-expect: E0502 at line 34
# fresh-note: found since: a class pattern's captures bind the subject's attributes (case Stage(src=s, dst=d): s is stage.src) and a helper's borrows count on every path that returns (case _: raise does not)
"""A stage runner: each stage is a dataclass, dispatched with a class pattern in a match statement."""
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def clamp(src: Slice[f32], dst: DisjointSlice[f32], hi: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(src[i], hi))


@dataclass
class Stage:
    op: str
    src: sk.DeviceBuffer[f32]
    dst: sk.DeviceBuffer[f32]
    arg: float


def run(stage: Stage, prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    match stage:
        case Stage(op="clamp", src=s, dst=d, arg=a):
            clamp.launch(prep, stream, s, d, a)
        case _:
            raise ValueError(stage.op)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 640
    raw = sk.to_device(np.linspace(0, 1, n, dtype=np.float32), stream)
    clean = sk.zeros(n, f32, stream)
    prep = clamp.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    stages = [Stage("clamp", raw, clean, 0.8), Stage("clamp", clean, clean, 0.5)]  # second clamp in place
    for stage in stages:
        run(stage, prep, stream)
    print(clean.to_numpy(stream).max())


if __name__ == "__main__":
    main()
