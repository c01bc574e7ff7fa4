"""A `for` loop over a list of `NamedTuple` stages built by constructor calls, one built with one buffer as both its
source and its destination: each item keeps the fields its constructor call gave it, so the launch of `stage.src`
and `stage.dst` reads and writes one buffer on that iteration (the runtime raises there)."""

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], dst: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * gain)


class Stage(NamedTuple):
    src: sk.DeviceBuffer[f32]
    dst: sk.DeviceBuffer[f32]
    gain: float


def pipeline(dev: sk.Device) -> np.ndarray:
    stream = dev.new_stream()
    raw = sk.to_device(np.ones(N, np.float32), stream)
    mid = sk.zeros(N, f32, stream)
    out = sk.zeros(N, f32, stream)
    stages = [Stage(raw, mid, 2.0), Stage(mid, out, 0.5), Stage(out, out, 1.5)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    for stage in stages:
        scale.launch(prep, stream, stage.src, stage.dst, stage.gain)  # expect: E0502
    return out.to_numpy(stream)


if __name__ == "__main__":
    print(pipeline(sk.Device.cpu())[:2])
