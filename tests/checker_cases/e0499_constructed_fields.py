"""Objects built by constructors the checker follows: a field is the object the constructor was given, so two
fields given one buffer are one buffer.  A dataclass (keyword and positional arguments, a default left out), a
NamedTuple, and a class with its own `__init__` (bound to a name, or to an attribute of another object), each
handed one scratch buffer for two outputs: the launch borrows it mutably twice (E0499) or reads what it writes
(E0502), as the runtime refuses it."""

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


class Holder:
    outs: Any = None


class Job:
    """Keeps what it is given; `out` twice under two names."""

    def __init__(self, src: Any, out: Any) -> None:
        self.src = src
        self.out = out
        self.spare = out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = split.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    src = sk.to_device(np.ones(32, np.float32), stream)
    scratch = sk.zeros(32, f32, stream)
    outs = Outputs(lo=scratch, hi=scratch)
    split.launch(prep, stream, src, outs.lo, outs.hi)  # expect: E0499
    positional = Outputs(scratch, scratch)
    split.launch(prep, stream, src, positional.lo, positional.hi)  # expect: E0499
    pair = Pair(scratch, scratch)
    split.launch(prep, stream, src, pair.first, pair.second)  # expect: E0499
    job = Job(scratch, sk.zeros(32, f32, stream))
    split.launch(prep, stream, job.src, job.out, job.spare)  # expect: E0499
    reads = Job(scratch, scratch)
    split.launch(prep, stream, reads.src, reads.out, sk.zeros(32, f32, stream))  # expect: E0502
    holder = Holder()
    holder.outs = Outputs(scratch, scratch)
    split.launch(prep, stream, src, holder.outs.lo, holder.outs.hi)  # expect: E0499
