"""The clean twin of `e0499_contextmanager_yields_parameter`: a `@contextlib.contextmanager` generator of the
module lends each output its own buffer."""

import contextlib
from collections.abc import Iterator

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


@contextlib.contextmanager
def lend(b: sk.DeviceBuffer) -> Iterator[sk.DeviceBuffer]:
    try:
        yield b
    finally:
        print("returned")


def two_items() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.zeros(N, f32, stream)
    c = sk.zeros(N, f32, stream)
    d = sk.zeros(N, f32, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    with lend(c) as lo, lend(d) as hi:
        split2.launch(prepared, stream, src, lo, hi)
    with lend(c) as lo:
        split2.launch(prepared, stream, src, lo, d)
    print(c.to_numpy(stream)[:2])


def main() -> None:
    two_items()


if __name__ == "__main__":
    main()
