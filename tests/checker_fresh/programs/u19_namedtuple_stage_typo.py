# fresh-expect: E0502 at line 45
# (a for over a list display of NamedTuple stages, one built with one buffer twice)
"""A three-stage image pipeline described as a list of NamedTuple stages (source buffer -> destination buffer)."""

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PIXELS = 1024


@simt.kernel
@simt.launch_contract(block=128)
def brighten(src: Slice[f32], dst: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * gain)


class Stage(NamedTuple):
    name: str
    src: sk.DeviceBuffer
    dst: sk.DeviceBuffer
    gain: float


def run_pipeline(img: np.ndarray, dev: sk.Device) -> np.ndarray:
    stream = dev.new_stream()
    raw = sk.to_device(img, stream)
    exposed = sk.zeros(PIXELS, f32, stream)
    graded = sk.zeros(PIXELS, f32, stream)
    stages = [
        Stage("expose", raw, exposed, 1.5),
        Stage("grade", exposed, graded, 0.9),
        Stage("tone", graded, graded, 1.1),
    ]
    prep = brighten.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
    for stage in stages:
        brighten.launch(prep, stream, stage.src, stage.dst, stage.gain)
    return graded.to_numpy(stream)


if __name__ == "__main__":
    print(run_pipeline(np.full(PIXELS, 0.5, dtype=np.float32), sk.Device.cpu())[:3])
