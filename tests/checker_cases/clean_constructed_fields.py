"""The clean twin of `e0499_constructed_fields`: each field of each constructed object has its own buffer (a
dataclass given them by keyword, a NamedTuple, a class with its own `__init__`, a default left out), so every
launch has distinct outputs and inputs it does not write."""

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def split(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := lo.get_mut(idx)) is not None:
        o.set(src[i] - 1.0)


@dataclass(frozen=True)
class Outputs:
    lo: Any
    hi: Any
    label: str = "outputs"


class Pair(NamedTuple):
    first: Any
    second: Any


class Job:
    def __init__(self, src: Any, out: Any) -> None:
        self.src = src
        self.out = out
        self.spare = sk.zeros(32, f32, sk.Device.cpu().new_stream())


class Holder:
    def __init__(self, lo: Any, hi: Any) -> None:
        self.outs = Outputs(lo, hi=hi)

    def run(self, prep: simt.PreparedLaunch, stream: sk.Stream, src: Any) -> None:
        split.launch(prep, stream, src, self.outs.lo, self.outs.hi)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = split.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    src = sk.to_device(np.ones(32, np.float32), stream)
    lo, hi = sk.zeros(32, f32, stream), sk.zeros(32, f32, stream)
    outs = Outputs(lo=lo, hi=hi)
    split.launch(prep, stream, src, outs.lo, outs.hi)
    swapped = Outputs(hi, lo)
    split.launch(prep, stream, src, swapped.lo, swapped.hi)
    pair = Pair(lo, hi)
    split.launch(prep, stream, src, pair.first, pair.second)
    job = Job(src, lo)
    split.launch(prep, stream, job.src, job.out, job.spare)
    Holder(lo, hi).run(prep, stream, src)
