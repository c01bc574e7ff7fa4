"""A function (nested in another, or at module level) passes two fields of an object its enclosing scope built with
a constructor call (`h = Bufs(a, b, c)`) to a helper that launches them: the fields are the enclosing scope's
buffers, so `pending_add(prep, b, h.a, h.a)` reads and writes `a` in one launch (the runtime raises
`AliasingError` inside the helper, reached from the marked call).  The enclosing scope's knowledge of `h` is what
a nested body inherits, in both front ends, as it stands where the nested function is defined."""

from dataclasses import dataclass
from typing import Any

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


@dataclass
class Bufs:
    a: Any
    b: Any
    c: Any


def pending_add(prep: Any, a: Any, b: Any, c: Any) -> Any:
    return vecadd.launch_async(prep, a, b, c)  # expect: E0502


dev = sk.Device.cpu()
stream = dev.new_stream()
prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
ga = sk.to_device(np.ones(32, np.float32), stream)
gb = sk.zeros(32, f32, stream)
gc = sk.zeros(32, f32, stream)
held = Bufs(ga, gb, gc)


def at_module_level() -> None:
    p = pending_add(prep, gb, held.a, held.a)
    p.sync_on(stream)


def main(flag: bool = True) -> None:
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(32, f32, stream)
    h = Bufs(a, b, c)

    def inner() -> None:
        p = pending_add(prep, b, h.a, h.a)  # expect: E0502
        p.sync_on(stream)

    inner()
