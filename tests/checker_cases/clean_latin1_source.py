# -*- coding: latin-1 -*-
"""The clean twin of a PEP 263 latin-1 source ("café" below is one latin-1 byte): both front ends read it as Python does."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

LABEL = "résultat"


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    c = sk.zeros(1000, f32, stream)
    p = vecadd.prepare(simt.LaunchConfig1D.for_len(1000, block=256), dev)
    vecadd.launch(p, stream, a, a, c)
    print(LABEL, c.to_numpy(stream)[:2])
