"""A function nested in a nested function launches with an item of a list the outermost function built
(`bufs[2]` is `c`) while a pending `launch_async` op of its own writes `c`: the call of the outer nested function
runs it, so the runtime raises `BorrowError` at the launch.  The middle function never mentions `bufs` itself: the
innermost one captures it from two levels up (also when it is an `async def` run from the middle one)."""

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
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def plain(dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    bufs = [a, b, c]

    def middle() -> None:
        def innermost() -> None:
            p = vecadd.launch_async(prep, b, a, c)
            vecadd.launch(prep, stream, a, bufs[0], bufs[2])  # expect: E0499
            p.sync_on(stream)

        innermost()

    middle()


def awaited(dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    bufs = [a, b, c]

    def middle() -> None:
        nonlocal a, b, c

        async def innermost() -> None:
            nonlocal a, b, c
            p = vecadd.launch_async(prep, b, a, c)
            vecadd.launch(prep, stream, a, bufs[0], bufs[2])  # expect: E0499
            a, b, c = p.sync_on(stream)

        asyncio.run(innermost())

    middle()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    plain(dev, stream)
    awaited(dev, stream)


if __name__ == "__main__":
    main()
