# fresh-expect: E0502 at line 28
"""An Enum picks between accumulating in place and into a scratch buffer."""
import enum

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


class Mode(enum.Enum):
    IN_PLACE = "in_place"
    COPY = "copy"


def accumulate(mode: Mode, prepared, stream, acc, delta, scratch):
    out = acc if mode is Mode.IN_PLACE else scratch
    vecadd.launch(prepared, stream, acc, delta, out)  # BUG
    return out


dev = sk.Device.cpu()
stream = dev.new_stream()
acc = sk.to_device(np.ones(128, np.float32), stream)
delta = sk.to_device(np.ones(128, np.float32), stream)
scratch = sk.zeros(128, f32, stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
print(accumulate(Mode.IN_PLACE, prepared, stream, acc, delta, scratch).to_numpy(stream)[:4])
