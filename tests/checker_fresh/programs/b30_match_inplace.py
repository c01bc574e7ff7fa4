# fresh-expect: E0502 at line 25
"""A match statement picks the output by mode; the "inplace" arm writes into the input."""
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


def apply(mode: str, a, b, scratch, dev, stream) -> None:
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    match mode:
        case "scratch":
            vecadd.launch(prepared, stream, a, b, scratch)
        case "inplace":
            vecadd.launch(prepared, stream, a, b, a)  # BUG E0502
        case _:
            raise ValueError(mode)


dev = sk.Device.cpu()
stream = dev.new_stream()
buf = sk.to_device(np.ones(64, np.float32), stream)
apply("inplace", buf, sk.to_device(np.ones(64, np.float32), stream), sk.zeros(64, f32, stream), dev, stream)
