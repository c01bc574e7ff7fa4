# fresh-expect: E0308 at line 52
# (a dict of prepared launches keyed by Enum members stored by __init__, subscripted by a parameter)
"""Edge-aware filter with an Enum mode: prepared launches are built once per mode and reused per frame."""

from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH = 320


class Mode(Enum):
    SMOOTH = "smooth"
    EDGES = "edges"


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        j = i + 1 if i + 1 < len(src) else i
        o.set(0.5 * (src[i] + src[j]))


@simt.kernel
@simt.launch_contract(block=64)
def edges(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        j = i + 1 if i + 1 < len(src) else i
        o.set(src[j] - src[i])


class FrameFilter:
    def __init__(self, dev: sk.Device) -> None:
        cfg = simt.LaunchConfig1D.for_len(WIDTH, block=64)
        self.prepared = {Mode.SMOOTH: smooth.prepare(cfg, dev), Mode.EDGES: smooth.prepare(cfg, dev)}
        self.stream = dev.new_stream()

    def apply(self, frame: np.ndarray, mode: Mode) -> np.ndarray:
        src = sk.to_device(frame, self.stream)
        dst = sk.zeros(WIDTH, f32, self.stream)
        if mode is Mode.EDGES:
            edges.launch(self.prepared[mode], self.stream, src, dst)
        else:
            smooth.launch(self.prepared[mode], self.stream, src, dst)
        return dst.to_numpy(self.stream)


if __name__ == "__main__":
    filt = FrameFilter(sk.Device.cpu())
    frame = np.linspace(0, 1, WIDTH, dtype=np.float32)
    print(filt.apply(frame, Mode.SMOOTH)[:2], filt.apply(frame, Mode.EDGES)[:2])
