"""A view passed straight to a launch (`a.view(0, 32)`) is a temporary: once the launch returns nothing refers to
it, so moving `a` to another device in a later loop that rebinds `a` each iteration is not a use of the moved
buffer, also when the launch sits in a `try` body."""

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


def main(n: int = 2) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(32, f32, stream)
    vecadd.launch(prep, stream, b, b, a.view(32, 64))
    while n > 0:
        a = a.to(dev, stream)
        n -= 1
    for _ in range(n):
        try:
            vecadd.launch(prep, stream, b, b, a.view(0, 32))
        except ValueError:
            pass
        a = a.to(dev, stream)
    print(a, b)
