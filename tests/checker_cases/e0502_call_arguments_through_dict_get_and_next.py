"""A `@contextlib.contextmanager` generator keeps a pending op writing its parameter across its `yield` and yields
that parameter; the caller passes `named.get("c", c)`, a buffer read through `dict.get`, so the `as` name is that
buffer, a device value, and partitioning it inside the block (while the op still writes it) is E0505.  A helper
given `next(itertools.repeat(a, 2))` for its returned parameter hands back `a` the same way."""

import contextlib
import itertools
from dataclasses import dataclass
from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@contextlib.contextmanager
def holding(prep: Any, u: Any, v: Any, w: Any, stream: sk.Stream) -> Any:
    op = vecadd.launch_async(prep, u, v, w)
    try:
        yield w
    finally:
        op.sync_on(stream)


@dataclass
class Held:
    a: Any


def pick(held: Held, out: Any = None) -> Any:
    if out is None:
        return held.a
    return out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a, b, c = sk.zeros(64, f32, stream), sk.zeros(64, f32, stream), sk.zeros(64, f32, stream)
    dst = pick(Held(b), next(itertools.repeat(a, 2)))
    vecadd.launch(prep, stream, a, b, dst)  # expect: E0502
    named = {"a": a, "b": b, "c": c}
    with holding(prep, a, b, named.get("c", c), stream) as held:
        print(held.partition((16,)).unpartition().to_numpy(stream)[:1])  # expect: E0505


if __name__ == "__main__":
    main()
