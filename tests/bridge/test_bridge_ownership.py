"""DeviceBuffer as a movable value: `partition`, tile launches, views, `as_buffer(tensor)`, and E0505 at runtime.

Every test runs on the CPU executor.  Messages are checked for the variable's name and the file:line of the move,
as the checker reports E0382 / E0505 for the same code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.errors import BorrowError, ShapeError, UseAfterMoveError
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

HERE = __file__
N = 1000  # not a multiple of the tile or block size: edges are exercised


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def double(z: Partition[f32]) -> None:
    z.store(z.load() * 2.0)


def next_line() -> int:
    return sys._getframe(1).f_lineno + 1


def moved(name: str, line: int) -> str:
    return rf"use of moved value: `{name}` .*at {HERE}:{line}\)"


def stream() -> sk.Stream:
    return sk.Device.default().default_stream


def buf(values: Any) -> sk.DeviceBuffer[Any]:
    return sk.to_device(np.asarray(values, dtype=np.float32), stream())


def prepared(n: int = N) -> simt.PreparedLaunch[Any]:
    return vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), sk.Device.default())


def test_default_device_is_the_cpu_executor() -> None:
    assert sk.Device.default().is_cpu


# -- partition moves the buffer ------------------------------------------------------------------------------
def test_partition_moves_the_buffer_into_a_1d_partition() -> None:
    c = buf(np.arange(N))
    ptr = c.ptr
    line = next_line()
    parts = c.partition((256,))
    assert isinstance(parts, Partition)
    assert parts.shape == (N,) and parts.tile_shape == (256,) and parts.grid == (4,)
    assert parts.buffer.ptr == ptr
    assert c.is_moved
    with pytest.raises(UseAfterMoveError, match=moved("c", line)):
        c.to_numpy()
    assert "(moved)" in repr(c)
    back = parts.unpartition()
    assert isinstance(back, Tensor)
    np.testing.assert_array_equal(back.to_numpy(), np.arange(N, dtype=np.float32))


def every_use_of_a_buffer() -> dict[str, Callable[[sk.DeviceBuffer[Any]], Any]]:
    """Each way to use a buffer handle; all must refuse a moved one."""
    b = buf(np.ones(N))
    c = buf(np.zeros(N))
    return {
        "to_numpy": lambda x: x.to_numpy(),
        "view": lambda x: x.view(0, 4),
        "slicing": lambda x: x[1:3],
        "split_at": lambda x: x.split_at(4),
        "copy_from_numpy": lambda x: x.copy_from_numpy(np.zeros(N)),
        "len": lambda x: len(x),
        "shape": lambda x: x.shape,
        "host_view": lambda x: x.host_view(),
        "dlpack": lambda x: x.__dlpack__(),
        "as_buffer": lambda x: sk.as_buffer(x),
        "partition": lambda x: x.partition((256,)),
        "simt_launch": lambda x: vecadd.launch(prepared(), stream(), x, b, c),
        "simt_launch_output": lambda x: vecadd.launch(prepared(), stream(), b, c, x),
        "launch_async": lambda x: vecadd.launch_async(prepared(), x, b, c),
        "launch_unchecked": lambda x: _unchecked(x, b, c),
        "tile_launch_tensor": lambda x: add(tile.zeros((N,), f32).partition((256,)), x, tile.ones((N,), f32)),
    }


def _unchecked(a: Any, b: Any, c: Any) -> None:
    with simt.unsafe():
        vecadd.launch_unchecked(simt.LaunchConfig1D.for_len(N, block=256), stream(), a, b, c)


@pytest.mark.parametrize("use", sorted(every_use_of_a_buffer()))
@pytest.mark.parametrize("mover", ["partition", "tile_launch"])
def test_every_use_of_a_moved_buffer_raises(use: str, mover: str) -> None:
    c = buf(np.arange(N))
    line = next_line() + (1 if mover == "partition" else 3)
    if mover == "partition":
        c.partition((256,))
    else:
        add(tile.zeros((N,), f32).partition((256,)), c, tile.ones((N,), f32))
    with pytest.raises(UseAfterMoveError, match=moved("c", line)):
        every_use_of_a_buffer()[use](c)


# -- tile launches take buffers for Tensor parameters --------------------------------------------------------
def test_tile_launch_moves_a_buffer_and_hands_back_a_fresh_handle() -> None:
    x = buf(np.arange(N))
    y = buf(np.full(N, 0.5))
    ptr = x.ptr
    z = sk.zeros(N, f32, stream())
    line = next_line()
    op = add(z.partition((256,)), x, y)
    with pytest.raises(UseAfterMoveError, match=moved("x", line)):
        x.view(0, 1)
    zp, x2, y2 = op.sync_on(stream())
    assert type(x2) is sk.DeviceBuffer and type(y2) is sk.DeviceBuffer
    assert x2 is not x and x2.ptr == ptr and len(x2) == N and not x2.is_moved
    np.testing.assert_array_equal(zp.unpartition().to_numpy(), np.arange(N, dtype=np.float32) + 0.5)
    np.testing.assert_array_equal(x2.to_numpy(), np.arange(N, dtype=np.float32))  # you get back what you put in
    # the handed-back buffers are ordinary buffers again: a SIMT launch and another tile launch take them
    out = sk.zeros(N, f32, stream())
    vecadd.launch(prepared(), stream(), x2, y2, out)
    np.testing.assert_array_equal(out.to_numpy(), np.arange(N, dtype=np.float32) + 0.5)
    (z3, x3, y3) = add(out.partition((256,)), x2, y2).sync_on(stream())
    np.testing.assert_array_equal(z3.unpartition().to_numpy(), np.arange(N, dtype=np.float32) + 0.5)
    assert x3.ptr == x2.ptr and y3.ptr == y2.ptr and x2.is_moved


def test_a_buffer_for_a_partition_parameter_must_come_through_partition() -> None:
    z = sk.zeros(N, f32, stream())
    with pytest.raises(TypeError, match=r"pass buf.partition\(tile_shape\)"):
        add(z, tile.ones((N,), f32), tile.ones((N,), f32))
    assert not z.is_moved  # refused before anything moved


def test_refused_launches_and_partitions_move_nothing() -> None:
    x = buf(np.arange(N))
    z = sk.zeros(N, f32, stream())
    with pytest.raises(ShapeError):
        z.partition((256, 2))
    assert not z.is_moved
    with pytest.raises(TypeError, match="shared Tensor input"):
        add(tile.zeros((N,), f32).partition((256,)), x, tile.ones((N,), f32).partition((256,)))
    with pytest.raises(TypeError, match=r"expects Tensor\[f32\]"):
        add(z.partition((256,)), sk.zeros(N, sk.dtypes.f64, stream()), x)
    assert not x.is_moved


def test_the_same_buffer_twice_is_moved_by_the_first() -> None:
    x = buf(np.arange(N))
    with pytest.raises(UseAfterMoveError, match="use of moved value"):
        add(tile.zeros((N,), f32).partition((256,)), x, x)


def test_a_buffer_and_a_partition_of_the_same_memory_are_refused_at_run_time() -> None:
    """A foreign wrapper of the same memory is outside the move model; the launch's overlap check still sees it."""
    host = np.zeros(N, dtype=np.float32)
    z = sk.as_buffer(host)
    alias = sk.as_buffer(host)  # a second owner of the same numpy memory
    op = add(z.partition((256,)), alias, tile.ones((N,), f32))
    with pytest.raises(sk.AliasingError, match="overlaps"):
        op.sync_on(stream())


# -- views borrow their parent -------------------------------------------------------------------------------
def test_moving_a_buffer_invalidates_its_views() -> None:
    c = buf(np.arange(N))
    lo, hi = c.split_at(N // 2)
    inner = lo[2:10]
    window = c.view(1, 5)
    line = next_line()
    parts = c.partition((256,))
    for name, view in (("lo", lo), ("hi", hi), ("inner", inner), ("window", window)):
        with pytest.raises(UseAfterMoveError, match=rf"`{name}` .*`c`, which it views, was moved .*{HERE}:{line}\)"):
            view.to_numpy()
    b = buf(np.ones(N // 2))
    with pytest.raises(UseAfterMoveError):
        vecadd.launch(prepared(N // 2), stream(), b, b, hi)
    del parts


def test_a_view_cannot_be_moved() -> None:
    c = buf(np.arange(N))
    lo, _hi = c.split_at(512)
    with pytest.raises(BorrowError, match=r"cannot move out of `lo` because it is borrowed"):
        lo.partition((256,))
    with pytest.raises(BorrowError, match=r"cannot move out of `lo` because it is borrowed"):
        add(tile.zeros((512,), f32).partition((256,)), lo, tile.ones((512,), f32))
    assert not lo.is_moved and not c.is_moved
    np.testing.assert_array_equal(lo.to_numpy(), np.arange(512, dtype=np.float32))


def test_views_that_died_do_not_block_anything() -> None:
    c = buf(np.arange(N))
    c.view(0, 10).to_numpy()
    parts = c.partition((256,))
    assert parts.grid == (4,)


# -- tile results as SIMT buffers: as_buffer(tensor) ---------------------------------------------------------
def test_as_buffer_of_a_1d_tensor_borrows_without_moving() -> None:
    t = tile.arange(N, f32).sync_on(stream())
    handle = sk.as_buffer(t)
    assert handle.ptr == t.buffer.ptr and len(handle) == N and not t.is_moved
    ones = buf(np.ones(N))
    out = sk.zeros(N, f32, stream())
    vecadd.launch(prepared(), stream(), handle, ones, out)  # read the tile result
    np.testing.assert_array_equal(out.to_numpy(), np.arange(N, dtype=np.float32) + 1)
    vecadd.launch(prepared(), stream(), out, ones, t.as_buffer())  # write into the tensor in place
    np.testing.assert_array_equal(t.to_numpy(), np.arange(N, dtype=np.float32) + 2)
    vecadd.launch(prepared(), stream(), t, ones, out)  # a 1-D tensor is a SIMT argument directly
    np.testing.assert_array_equal(out.to_numpy(), np.arange(N, dtype=np.float32) + 3)


def test_a_lent_handle_ends_when_the_tensor_moves() -> None:
    t = tile.zeros((N,), f32).sync_on(stream())
    handle = t.as_buffer()
    line = next_line()
    parts = t.partition((256,))
    with pytest.raises(UseAfterMoveError, match=rf"`handle` .*`t`, which it views, was moved .*{HERE}:{line}\)"):
        vecadd.launch(prepared(), stream(), handle, handle, sk.zeros(N, f32, stream()))
    with pytest.raises(UseAfterMoveError):
        t.as_buffer()
    del parts


def test_a_lent_handle_cannot_be_moved_and_other_tensors_refuse() -> None:
    t = tile.zeros((N,), f32).sync_on(stream())
    handle = t.as_buffer()
    with pytest.raises(BorrowError, match=r"cannot move out of `handle` because it is borrowed"):
        handle.partition((256,))
    with pytest.raises(ShapeError, match="1-D"):
        tile.zeros((4, 8), f32).sync_on(stream()).as_buffer()
    shared = tile.zeros((N,), f32).shared().sync_on(stream())
    with pytest.raises(BorrowError, match="shared tensor storage"):
        sk.as_buffer(shared)
    parts = tile.zeros((N,), f32).partition((256,)).sync_on(stream())
    with pytest.raises(TypeError, match="not a Partition"):
        sk.as_buffer(parts)


# -- E0505: moving what a pending launch_async borrows -------------------------------------------------------
@pytest.mark.parametrize("borrowed_as", ["a", "c"])  # shared (Slice) and mutable (DisjointSlice)
def test_partition_while_async_borrowed_is_e0505(borrowed_as: str) -> None:
    a, b, c = buf(np.ones(N)), buf(np.ones(N)), sk.zeros(N, f32, stream())
    pending = vecadd.launch_async(prepared(), a, b, c)
    target = a if borrowed_as == "a" else c
    expected = rf"cannot move out of `({borrowed_as}|target)` because it is borrowed \(E0505\)"
    with pytest.raises(BorrowError, match=expected) as info:
        target.partition((256,))
    assert f"argument `{borrowed_as}`" in str(info.value) and "vecadd.launch_async" in str(info.value)
    assert not target.is_moved
    pending.sync_on(stream())
    np.testing.assert_array_equal(c.to_numpy(), np.full(N, 2, dtype=np.float32))
    assert target.partition((256,)).grid == (4,)  # the borrow ended at sync_on


def test_a_view_borrowed_by_a_pending_op_blocks_moving_its_parent() -> None:
    a, b, c = buf(np.ones(N)), buf(np.ones(N)), sk.zeros(N, f32, stream())
    lo, hi = c.split_at(500)
    pending = vecadd.launch_async(prepared(500), a[0:500], b[0:500], hi)
    with pytest.raises(BorrowError, match="cannot move out of `c`"):
        c.partition((256,))
    del lo
    pending.sync_on(stream())


def test_tile_launch_of_a_borrowed_buffer_is_e0505_and_moves_nothing() -> None:
    a, b, c = buf(np.ones(N)), buf(np.ones(N)), sk.zeros(N, f32, stream())
    pending = vecadd.launch_async(prepared(), a, b, c)
    out = tile.zeros((N,), f32).partition((256,))
    with pytest.raises(BorrowError, match=r"cannot move out of `a` because it is borrowed"):
        add(out, a, tile.ones((N,), f32))
    assert not out.is_moved and not a.is_moved
    pending.sync_on(stream())
    z, a2, _ = add(out, a, tile.ones((N,), f32)).sync_on(stream())
    np.testing.assert_array_equal(z.unpartition().to_numpy(), np.full(N, 2, dtype=np.float32))
    assert a2.ptr == a.ptr


def test_moving_a_tensor_whose_lent_memory_is_borrowed_is_e0505() -> None:
    t = tile.ones((N,), f32).sync_on(stream())
    out = sk.zeros(N, f32, stream())
    pending = vecadd.launch_async(prepared(), t.as_buffer(), t.as_buffer(), out)
    with pytest.raises(BorrowError, match=r"cannot move out of `t` because it is borrowed"):
        t.partition((256,))
    with pytest.raises(BorrowError, match=r"cannot move out of `t` because it is borrowed"):
        add(tile.zeros((N,), f32).partition((256,)), t, tile.ones((N,), f32))
    pending.sync_on(stream())
    np.testing.assert_array_equal(out.to_numpy(), np.full(N, 2, dtype=np.float32))
    assert t.partition((256,)).grid == (4,)


# -- the round trip: SIMT -> tile -> SIMT on the same memory -------------------------------------------------
def test_round_trip_simt_tile_simt_on_the_same_memory() -> None:
    rng = np.random.default_rng(7)
    ha, hb = rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)
    a, b = buf(ha), buf(hb)
    c = sk.zeros(N, f32, stream())
    ptr = c.ptr
    vecadd.launch(prepared(), stream(), a, b, c)  # c = a + b            (SIMT)
    (doubled,) = double(c.partition((256,))).sync_on(stream())  # c *= 2 (tile, in place)
    (z, a2, b2) = add(doubled, a, b).sync_on(stream())  # c = a + b     (tile, buffers as Tensors)
    t = z.unpartition()
    assert t.buffer.ptr == ptr  # still the very same memory
    d = sk.zeros(N, f32, stream())
    vecadd.launch(prepared(), stream(), t.as_buffer(), a2, d)  # d = c + a (SIMT reads the tile result)
    np.testing.assert_allclose(d.to_numpy(), (ha + hb) + ha, rtol=1e-6)
    np.testing.assert_allclose(b2.to_numpy(), hb)


def test_a_tile_launch_of_buffers_replays_in_a_graph() -> None:
    x = buf(np.arange(N))
    z = sk.zeros(N, f32, stream())
    graph = add(z.partition((256,)), x, tile.ones((N,), f32)).graph_on(stream())
    graph.replay()
    zp, x2, _ = graph.value
    np.testing.assert_array_equal(zp.unpartition().to_numpy(), np.arange(N, dtype=np.float32) + 1)
    assert isinstance(x2, sk.DeviceBuffer) and x2.ptr == x.ptr
