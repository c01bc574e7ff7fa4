"""A nested function binds a lambda whose parameter is spelled like the caller's op `p` (`lambda p, s: ...`): the
lambda's `p` is its own parameter, not the caller's op, so calling the nested function after `p` ran and was
consumed reads no moved value."""

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


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    p = vecadd.launch_async(prep, a, b, c)
    p.sync_on(stream)

    def inner() -> None:
        run = lambda p, s: vecadd.launch(p, s, a, b, c)  # noqa: E731
        run(prep, stream)

    inner()


if __name__ == "__main__":
    main()
