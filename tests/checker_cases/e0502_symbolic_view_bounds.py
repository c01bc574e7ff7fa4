"""Views whose bounds are names that may differ: a name rebound between the two views (`h` then `h - 8`), or
two different names, may overlap, so the launch is an aliasing launch when they do."""

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


def rebound(buf: sk.DeviceBuffer[f32], n: int, dev: sk.Device, stream: sk.Stream) -> None:
    h = n // 2
    lower = buf.view(0, h)
    h = h - 8
    upper = buf.view(h, n)
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(h, block=32), dev)
    vecadd.launch(prep, stream, lower, lower, upper)  # expect: E0502


def two_names(buf: sk.DeviceBuffer[f32], mid: int, start: int, n: int, dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(mid, block=32), dev)
    vecadd.launch(prep, stream, buf.view(start, n), buf.view(start, n), buf.view(0, mid))  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    data = sk.zeros(64, f32, stream)
    rebound(data, 64, dev, stream)
    two_names(data, 32, 16, 64, dev, stream)
