"""A nested function moves the caller's buffer and binds the name to the result (`nonlocal a` then
`a = a.to(dev, stream)`) after the pending `launch_async` op that borrowed `a` ran: the caller's name is the new
buffer after the call (on one path only in the second function; the old one, unmoved, on the other)."""

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


def always(dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    vecadd.launch_async(prep, a, b, c).sync_on(stream)

    def inner() -> None:
        nonlocal a
        a = a.to(dev, stream)

    inner()
    print(a.to_numpy(stream)[:3])


def on_one_path(dev: sk.Device, stream: sk.Stream, k: int) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    vecadd.launch_async(prep, a, b, c).sync_on(stream)

    def inner() -> None:
        nonlocal a
        for _ in range(k):
            a = a.to(dev, stream)

    inner()
    print(a.to_numpy(stream)[:3])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    always(dev, stream)
    on_one_path(dev, stream, 0)
    on_one_path(dev, stream, 1)


if __name__ == "__main__":
    main()
