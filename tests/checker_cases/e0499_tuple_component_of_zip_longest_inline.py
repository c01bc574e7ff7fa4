"""An item of the tuple that `next` takes from `itertools.zip_longest(...)`, subscripted inline where an argument is
expected, is the caller's buffer: each zipped display's first item, or the `fillvalue` itself where a display is
empty (`next(zip_longest([], [d], fillvalue=c))[0]` is `c`), or either of them for an operand of unknown length
(a parameter's list may be empty).  As a launch's output while a pending op writes `c`, each borrows `c` mutably
twice (the runtime raises `BorrowError` at each marked line)."""

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(src[i] * 2.0)


def first_item(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(itertools.zip_longest([c], [], fillvalue=d))[0])  # expect: E0499
    p.sync_on(stream)


def padded(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(itertools.zip_longest([], [d], fillvalue=c))[0])  # expect: E0499
    p.sync_on(stream)


def unknown_length(dev: sk.Device, stream: sk.Stream, outs: list[sk.DeviceBuffer]) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(itertools.zip_longest(outs, [d], fillvalue=c))[0])  # expect: E0499
    p.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    for run in (first_item, padded):
        try:
            run(dev, stream)
        except sk.BorrowError as err:
            print("BorrowError:", err)
    try:
        unknown_length(dev, stream, [])
    except sk.BorrowError as err:
        print("BorrowError:", err)
