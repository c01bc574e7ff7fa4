# fresh-expect: E0499 at line 35
"""A frozen dataclass bundles a launch's two outputs; both fields were given the same buffer."""
from dataclasses import dataclass
from typing import Any

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def minmax(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := lo.get_mut(idx)) is not None:
        o.set(src[i] - 1.0)


@dataclass(frozen=True)
class Outputs:
    lo: Any
    hi: Any


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 64
scratch = sk.zeros(n, f32, stream)
outs = Outputs(lo=scratch, hi=scratch)
src = sk.to_device(np.ones(n, np.float32), stream)
prepared = minmax.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
minmax.launch(prepared, stream, src, outs.lo, outs.hi)  # BUG E0499
