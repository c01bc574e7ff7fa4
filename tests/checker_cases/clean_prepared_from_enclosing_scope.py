"""The clean twin of `e0308_prepared_from_enclosing_scope`: each function launches the kernel its captured or
global prepared launch was prepared by; a parameter of the same name and a local rebinding shadow the outer one."""

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
    vecadd.launch(add_launch, stream, a, b, c)


def shadowed() -> None:
    add_launch = vecmul.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    vecmul.launch(add_launch, stream, a, b, c)


def captured() -> None:
    prep = vecmul.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)

    def direct() -> None:
        vecmul.launch(prep, stream, a, b, c)

    async def later() -> None:
        vecmul.launch(prep, stream, a, b, c)

    def runner() -> None:
        asyncio.run(later())

    direct()
    runner()


class Stepper:
    def step(self) -> None:
        vecadd.launch(add_launch, stream, a, b, c)


module_global()
shadowed()
captured()
Stepper().step()
