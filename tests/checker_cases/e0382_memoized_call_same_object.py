"""A function of the module memoised by `@functools.cache` / `@functools.lru_cache` hands back the same object
whenever it is called again with the same arguments: after the first `ones_tensor(64)` was moved into a tile launch,
the second call's result is that moved tensor (use after move); two `scratch("out", 64)` calls give one buffer, so
passing both as `DisjointSlice` outputs borrows it mutably twice, and a `scratch("in", 64)` passed as an input and
as the output is a shared and a mutable borrow of one buffer.  `scaled_once`, called twice, moves the tensor
`ones_tensor(16)` keeps into its launch: its second run gets the moved tensor.  A `.shared()` op the cache keeps is
read by every launch, never moved.  The runtime raises at each marked line."""

import functools
from functools import lru_cache

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

DEV = sk.Device.cpu()
STREAM = DEV.new_stream()


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 2.0)


@simt.kernel
@simt.launch_contract(block=32)
def split(x: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (a := lo.get_mut(idx)) is not None:
        a.set(x[i] - 1.0)
    idx2 = thread.index_1d()
    if (b := hi.get_mut(idx2)) is not None:
        b.set(x[i] + 1.0)


@simt.kernel
@simt.launch_contract(block=32)
def double(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


@functools.cache
def ones_tensor(n: int) -> tile.Tensor:
    return tile.ones((n,), f32).sync_on(STREAM)


@functools.cache
def weights(n: int) -> sk.SharedDeviceOp[tile.Tensor]:
    return tile.ones((n,), f32).shared()  # read by every launch it is passed to, never moved


@lru_cache(maxsize=8)
def scratch(role: str, n: int) -> sk.DeviceBuffer[f32]:
    return sk.zeros(n, f32, STREAM)


def scaled_twice() -> None:
    t = ones_tensor(64)
    out = tile.zeros((64,), f32).partition((32,))
    (first, _) = scale(out, t).sync_on(STREAM)
    print(first.unpartition().to_numpy(STREAM)[:2])
    out2 = tile.zeros((64,), f32).partition((32,))
    (second, _) = scale(out2, ones_tensor(64)).sync_on(STREAM)  # expect: E0382
    print(second.unpartition().to_numpy(STREAM)[:2])


def scaled_by_shared() -> None:
    out = tile.zeros((64,), f32).partition((32,))
    (first, _) = scale(out, weights(64)).sync_on(STREAM)
    out2 = tile.zeros((64,), f32).partition((32,))
    (second, _) = scale(out2, weights(64)).sync_on(STREAM)
    print(first.unpartition().to_numpy(STREAM)[:2], second.unpartition().to_numpy(STREAM)[:2])


def scaled_once() -> None:
    out = tile.zeros((16,), f32).partition((16,))
    (done, _) = scale(out, ones_tensor(16)).sync_on(STREAM)  # expect: E0382
    print(done.unpartition().to_numpy(STREAM)[:2])


def envelope(prep: simt.PreparedLaunch) -> None:
    x = sk.zeros(64, f32, STREAM)
    lo = scratch("out", 64)
    hi = scratch("out", 64)
    split.launch(prep, STREAM, x, lo, hi)  # expect: E0499


def doubled(prep: simt.PreparedLaunch) -> None:
    src = scratch("in", 64)
    double.launch(prep, STREAM, src, scratch("in", 64))  # expect: E0502


def main() -> None:
    scaled_by_shared()
    scaled_twice()
    envelope(split.prepare(simt.LaunchConfig1D.for_len(64, block=32), DEV))
    doubled(double.prepare(simt.LaunchConfig1D.for_len(64, block=32), DEV))
    scaled_once()
    scaled_once()
