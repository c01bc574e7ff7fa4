"""Launch arguments gathered in a list built step by step (`args = [a, b]`, then `args.append(a)` or
`args.extend([...])` in the same block): its items are the places appended, so a `*args` splat maps them to the
kernel's parameters one by one; a tuple kept in a name is splatted the same way."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.to_device(np.ones(32, np.float32), stream)
    args = [a, b]
    args.append(a)
    vecadd.launch(prep, stream, *args)  # expect: E0502
    more = [b]
    more.extend([a, b])
    vecadd.launch(prep, stream, *more)  # expect: E0502
    pair = (a, b)
    vecadd.launch(prep, stream, *pair, b)  # expect: E0502
