"""Import aliases: `import safekernels.simt as S` for the decorators, parameter classes under other names
(`DisjointSlice as Out`, `Slice as In`), and `from safekernels.simt import kernel as K`."""

import numpy as np

import safekernels as sk
import safekernels.simt as S
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice as Out
from safekernels.simt import Slice as In
from safekernels.simt import kernel as K


@S.kernel
@S.launch_contract(block=256)
def axpy(x: In[f32], y: In[f32], out: Out[f32]) -> None:
    idx = S.thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + y[i])


@K
@S.launch_contract(block=256)
def scale(x: S.Slice[f32], out: S.DisjointSlice[f32]) -> None:
    idx = S.thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    x = sk.to_device(np.ones(n, dtype=np.float32), stream)
    y = sk.zeros(n, f32, stream)
    prepared = axpy.prepare(S.LaunchConfig1D.for_len(n, block=256), dev)
    axpy.launch(prepared, stream, x, y, y)  # expect: E0502
    scaled = scale.prepare(S.LaunchConfig1D.for_len(n, block=256), dev)
    scale.launch(scaled, stream, x, x)  # expect: E0502
