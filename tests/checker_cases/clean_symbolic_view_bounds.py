"""Views whose bounds are the same name: `buf.view(0, h)` and `buf.view(h, n)` are disjoint whatever `h` is, when
`h` has one value in the function (a parameter never rebound, or a name bound once outside any loop)."""

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


def halves(buf: sk.DeviceBuffer[f32], n: int, dev: sk.Device, stream: sk.Stream) -> None:
    h = n // 2
    lower = buf.view(0, h)
    upper = buf.view(h, n)
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(h, block=32), dev)
    vecadd.launch(prep, stream, lower, lower, upper)


def split(buf: sk.DeviceBuffer[f32], mid: int, n: int, dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(mid, block=32), dev)
    vecadd.launch(prep, stream, buf.view(mid, n), buf.view(mid, n), buf.view(0, mid))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    data = sk.zeros(64, f32, stream)
    halves(data, 64, dev, stream)
    split(data, 32, 64, dev, stream)
