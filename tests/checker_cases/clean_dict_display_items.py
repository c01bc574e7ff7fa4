"""The clean twin of `e0502_dict_display_items`: distinct keys of a dict display are distinct buffers, and a dict
changed in place (`bufs["out"] = fresh`) is no longer taken for its display."""

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
    out = sk.zeros(32, f32, stream)
    bufs = {"lhs": sk.to_device(np.ones(32, np.float32), stream), "out": out}
    vecadd.launch(prep, stream, bufs["lhs"], bufs["lhs"], bufs["out"])
    out = sk.zeros(32, f32, stream)
    vecadd.launch(prep, stream, bufs["out"], bufs["lhs"], out)
    roles = {"x": out, "out": out}
    roles["out"] = sk.zeros(32, f32, stream)
    vecadd.launch(prep, stream, roles["x"], roles["x"], roles["out"])
