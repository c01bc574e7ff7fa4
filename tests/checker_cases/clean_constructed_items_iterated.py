"""The clean twin of `e0502_constructed_items_iterated`: every stage of the list, built by constructor calls, has
distinct source and destination buffers, so each iteration's launch reads one buffer and writes another."""

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
    stages = [Stage(raw, mid, 2.0), Stage(mid, out, 0.5), Stage(out, raw, 1.5)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    for stage in stages:
        scale.launch(prep, stream, stage.src, stage.dst, stage.gain)
    return raw.to_numpy(stream)


if __name__ == "__main__":
    print(pipeline(sk.Device.cpu())[:2])
