"""A view passed straight to a launch is a temporary, but the buffer it viewed is still `a`: a loop that moves `a`
without rebinding it uses the moved buffer from its second iteration."""

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
        moved = a.to(dev, stream)  # expect: E0382
        n -= 1
        print(moved)
    print(b)
