"""The clean twin of e0382_memoized_call_same_object: a memoised function called with other arguments hands back
another object (`ones_tensor(32)` after `ones_tensor(64)` was moved, `scratch("lo", 64)` and `scratch("hi", 64)`
as the two outputs), the buffer `scratch("in", 64)` gives is passed once as an input, and `scaled_once`, which
moves the tensor `ones_tensor(16)` keeps, runs once."""

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
    out2 = tile.zeros((32,), f32).partition((32,))
    (second, _) = scale(out2, ones_tensor(32)).sync_on(STREAM)
    print(second.unpartition().to_numpy(STREAM)[:2])


def scaled_by_shared() -> None:
    out = tile.zeros((64,), f32).partition((32,))
    (first, _) = scale(out, weights(64)).sync_on(STREAM)
    out2 = tile.zeros((64,), f32).partition((32,))
    (second, _) = scale(out2, weights(64)).sync_on(STREAM)
    print(first.unpartition().to_numpy(STREAM)[:2], second.unpartition().to_numpy(STREAM)[:2])


def scaled_once() -> None:
    out = tile.zeros((16,), f32).partition((16,))
    (done, _) = scale(out, ones_tensor(16)).sync_on(STREAM)
    print(done.unpartition().to_numpy(STREAM)[:2])


def envelope(prep: simt.PreparedLaunch) -> None:
    x = sk.zeros(64, f32, STREAM)
    lo = scratch("lo", 64)
    hi = scratch("hi", 64)
    split.launch(prep, STREAM, x, lo, hi)


def doubled(prep: simt.PreparedLaunch) -> None:
    src = scratch("in", 64)
    double.launch(prep, STREAM, src, scratch("out", 64))


def main() -> None:
    scaled_by_shared()
    scaled_twice()
    envelope(split.prepare(simt.LaunchConfig1D.for_len(64, block=32), DEV))
    doubled(double.prepare(simt.LaunchConfig1D.for_len(64, block=32), DEV))
    scaled_once()
