"""Prepared launches handed out by helpers and used without a name: `launch_for` always prepares `vecadd` and its
result goes straight into another kernel's launch; `cached_for` and `sized_for` memoise theirs with
`functools.cache` / `functools.lru_cache`, whose wrapper returns what the function returns (the same prepared
launch every time), so the result keeps `vecadd`'s brand and launching `scale` with it is refused
(`BrandError` at run time)."""

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
    scale.launch(launch_for(32), stream, a, out)  # expect: E0308
    cached = cached_for(32)
    scale.launch(cached, stream, a, out)  # expect: E0308
    scale.launch(cached_for(32), stream, a, out)  # expect: E0308
    scale.launch(sized_for(32), stream, a, out)  # expect: E0308
