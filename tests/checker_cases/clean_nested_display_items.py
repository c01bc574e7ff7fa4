"""The clean twin of `e0502_nested_display_items`: the nested display's items are distinct from the buffer each
launch writes."""

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


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    cfg = {"inputs": (a, b), "output": c, "block": 64}
    vecadd.launch(prepared, stream, *cfg["inputs"], cfg["output"])
    vecadd.launch(prepared, stream, a, b, cfg["output"])
    pairs = [[a, b], (c, b)]
    for buf in pairs[0]:
        vecadd.launch(prepared, stream, a, buf, c)
    schedule = [(a, c), (b, c)]
    for step, (src, dst) in enumerate(schedule):
        vecadd.launch(prepared, stream, src, b, dst)
        print(step)
