"""A tuple or list display nested in a container display (`cfg = {"inputs": (a, b), "output": a}`) keeps its
items: `*cfg["inputs"]` maps them to the kernel's parameters one by one, `cfg["inputs"][1]` is `b`, a `for`
over `pairs[0]` runs once per item, and `for step, (src, dst) in enumerate(schedule)` unpacks each nested pair,
so each launch below reads the buffer it writes."""

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
    cfg = {"inputs": (a, b), "output": a, "block": 64}
    vecadd.launch(prepared, stream, *cfg["inputs"], cfg["output"])  # expect: E0502
    vecadd.launch(prepared, stream, a, c, cfg["inputs"][0])  # expect: E0502
    pairs = [[c, b], (a, b)]
    for buf in pairs[0]:
        vecadd.launch(prepared, stream, a, buf, c)  # expect: E0502
    schedule = [(a, c), (c, c)]
    for step, (src, dst) in enumerate(schedule):
        vecadd.launch(prepared, stream, src, b, dst)  # expect: E0502
        print(step)
