"""A prepared launch a function reads from an enclosing scope keeps its kernel: a module global read in a function
that nothing here calls, and a variable captured by nested functions (a plain one called directly, an `async def`
run through another nested function, a lambda).  Each launch of another kernel with it is refused at run time
(`BrandError`), whoever calls the function."""

from __future__ import annotations

import asyncio

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


@simt.kernel
@simt.launch_contract(block=64)
def vecmul(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] * b[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
a = sk.zeros(64, f32, stream)
b = sk.zeros(64, f32, stream)
c = sk.zeros(64, f32, stream)
add_launch = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)


def module_global() -> None:
    vecmul.launch(add_launch, stream, a, b, c)  # expect: E0308


def captured() -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)

    def direct() -> None:
        vecmul.launch(prep, stream, a, b, c)  # expect: E0308

    async def later() -> None:
        vecmul.launch(prep, stream, a, b, c)  # expect: E0308

    def runner() -> None:
        asyncio.run(later())

    direct()
    runner()


class Stepper:
    def step(self) -> None:
        vecmul.launch(add_launch, stream, a, b, c)  # expect: E0308
