"""An async step picks its kernel and prepared launch together (`kern, plan = (vecadd, prep) if fuse else
(vecmul, prep)`) inside a nested coroutine, where `prep` is the enclosing function's launch prepared for `vecadd`.
With `fuse` off it launches `vecmul` with a launch prepared for `vecadd` (E0308, as the runtime's `BrandError`
says), reported where the nested function launches."""

import asyncio

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=32)
def vecmul(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * b[i])


def run(fuse: bool) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    a = sk.zeros(N, f32, stream)
    b = sk.zeros(N, f32, stream)
    c = sk.zeros(N, f32, stream)

    async def step() -> None:
        await asyncio.sleep(0)
        kern, plan = (vecadd, prep) if fuse else (vecmul, prep)
        kern.launch(plan, stream, a, b, c)  # expect: E0308

    asyncio.run(step())
    print(c.to_numpy(stream)[:2])


def main() -> None:
    run(False)


if __name__ == "__main__":
    main()
