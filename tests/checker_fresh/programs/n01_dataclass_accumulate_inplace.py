# fresh-expect: E0502 at line 29
"""A dataclass holds an accumulator and its increment; `step` writes the accumulator while reading it."""
from dataclasses import dataclass
from typing import Any

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@dataclass
class Accumulate:
    acc: Any
    inc: Any
    prepared: Any

    def step(self, stream: Any) -> None:
        vecadd.launch(self.prepared, stream, self.acc, self.inc, self.acc)  # BUG E0502


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 64
pipe = Accumulate(
    sk.zeros(n, f32, stream),
    sk.to_device(np.ones(n, np.float32), stream),
    vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev),
)
for _ in range(3):
    pipe.step(stream)
print(pipe.acc.to_numpy(stream)[:4])
