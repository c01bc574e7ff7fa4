# fresh-expect: E0499 at line 49
# fresh-known-miss: cli,mypy the pool's `@contextlib.contextmanager` method yields an item of `self._bufs` at a computed index (`self._bufs[self._depth % len(self._bufs)]`), a new value, so `with pool.borrow() as lo, pool.borrow() as hi` is not seen to lend one buffer twice; a module function yielding its parameter (`with lend(c) as lo, lend(c) as hi`) is followed
"""A scratch pool lends buffers through a contextlib.contextmanager; its slot index wraps around, so two nested
borrows from a one-buffer pool lend the same buffer to both outputs of a split kernel."""
import contextlib
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


class ScratchPool:
    def __init__(self, n: int, stream, slots: int) -> None:
        self._bufs = [sk.zeros(n, f32, stream) for _ in range(slots)]
        self._depth = 0

    @contextlib.contextmanager
    def borrow(self) -> Iterator[sk.DeviceBuffer]:
        buf = self._bufs[self._depth % len(self._bufs)]
        self._depth += 1
        try:
            yield buf
        finally:
            self._depth -= 1


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    pool = ScratchPool(n, stream, slots=1)
    src = sk.to_device(np.arange(n, dtype=np.float32), stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    with pool.borrow() as lo, pool.borrow() as hi:
        split2.launch(prepared, stream, src, lo, hi)  # BUG
        print(hi.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
