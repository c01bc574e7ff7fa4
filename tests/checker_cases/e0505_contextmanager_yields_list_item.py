"""A `@contextlib.contextmanager` generator yielding the parameter it gave a pending `launch_async` op, called with
items of a list display (`holding(prep, bufs[0], bufs[1], bufs[2], stream)`): the `as` name is the list's item, the
caller's buffer `c`, a device value, so partitioning it inside the block moves a borrowed buffer (E0505, as the
runtime's `BorrowError` says), as when the buffers are passed by name."""

import contextlib
from collections.abc import Iterator

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@contextlib.contextmanager
def holding(
    prep: simt.PreparedLaunch, u: sk.DeviceBuffer, v: sk.DeviceBuffer, w: sk.DeviceBuffer, stream: sk.Stream
) -> Iterator[sk.DeviceBuffer]:
    op = vecadd.launch_async(prep, u, v, w)
    try:
        yield w
    finally:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    a = sk.zeros(N, f32, stream)
    b = sk.zeros(N, f32, stream)
    c = sk.zeros(N, f32, stream)
    bufs = [a, b, c]
    with holding(prep, bufs[0], bufs[1], bufs[2], stream) as held:
        print(held.partition((16,)).unpartition().to_numpy(stream)[:1])  # expect: E0505


if __name__ == "__main__":
    main()
