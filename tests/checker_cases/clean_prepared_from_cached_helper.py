"""Clean twin of e0308_prepared_from_cached_helper: each prepared launch a helper hands out (straight into the
launch, or memoised by `functools.cache` / `functools.lru_cache`) is launched with the kernel it was prepared
for."""

from __future__ import annotations

import functools
from functools import lru_cache
from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DEV = sk.Device.cpu()


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=32)
def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] * 2.0)


def launch_for(n: int) -> simt.PreparedLaunch[Any]:
    return vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), DEV)


@functools.cache
def cached_for(n: int) -> simt.PreparedLaunch[Any]:
    return vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), DEV)


@lru_cache(maxsize=64)
def sized_for(n: int) -> simt.PreparedLaunch[Any]:
    return vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), DEV)


def main() -> None:
    stream = DEV.new_stream()
    a = sk.zeros(32, f32, stream)
    out = sk.zeros(32, f32, stream)
    vecadd.launch(launch_for(32), stream, a, a, out)
    cached = cached_for(32)
    vecadd.launch(cached, stream, a, a, out)
    vecadd.launch(cached_for(32), stream, a, a, out)
    vecadd.launch(sized_for(32), stream, a, a, out)
    scale.launch(scale.prepare(simt.LaunchConfig1D.for_len(32, block=32), DEV), stream, a, out)
