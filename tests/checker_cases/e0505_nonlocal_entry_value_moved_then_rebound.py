"""A nested function moves the caller's buffer and binds the name to the result (`nonlocal a` then
`a = a.to(dev, stream)`): calling it while a pending `launch_async` op borrows `a` moves a borrowed value (the
runtime raises `BorrowError` at the move inside the nested function).  The name is rebound on one path only in
the second function: the caller's value is moved on that path."""

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
    p = vecadd.launch_async(prep, a, b, c)

    def inner() -> None:
        nonlocal a
        a = a.to(dev, stream)  # expect: E0505

    inner()
    p.sync_on(stream)
    print(a.to_numpy(stream)[:3])


def on_one_path(dev: sk.Device, stream: sk.Stream, k: int) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    p = vecadd.launch_async(prep, a, b, c)

    def inner() -> None:
        nonlocal a
        for _ in range(k):
            a = a.to(dev, stream)  # expect: E0505

    inner()
    p.sync_on(stream)
    print(a.to_numpy(stream)[:3])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    always(dev, stream)
    on_one_path(dev, stream, 1)


if __name__ == "__main__":
    main()
