"""Several CPU executors in one process: the cross-device rules of the runtime, run in CI without a GPU.

`Device.cpu(n)` are distinct devices sharing host memory.  A launch refuses a buffer of another device
(`CrossDeviceError`, naming the kernel, the parameter, the caller's variable and both devices); `buf.to(device,
stream)` copies and *moves* `buf` (later use: `UseAfterMoveError`; a pending `launch_async` borrow blocks it:
`BorrowError`, E0505); `with device:` changes only what `Device.default()` answers in the block.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.errors import BorrowError, CrossDeviceError, UseAfterMoveError
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

HERE = __file__


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def tile_add(z: Partition[Any], x: Tensor[Any], y: Tensor[Any]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def next_line() -> int:
    return sys._getframe(1).f_lineno + 1


def config(n: int) -> simt.LaunchConfig1D:
    return simt.LaunchConfig1D.for_len(n, block=64)


def test_cpu_devices_are_distinct_singletons_with_an_index() -> None:
    d0, d1, d2 = sk.Device.cpu(), sk.Device.cpu(1), sk.Device.cpu(2)
    assert d0 is sk.Device.cpu(0) and d1 is sk.Device.cpu(1)
    assert len({id(d0), id(d1), id(d2)}) == 3
    assert [d.index for d in (d0, d1, d2)] == [0, 1, 2]
    assert all(d.is_cpu and d.ordinal is None for d in (d0, d1, d2))
    assert [repr(d) for d in (d0, d1, d2)] == ["Device.cpu()", "Device.cpu(1)", "Device.cpu(2)"]


@pytest.mark.parametrize("bad", [-1, "1", 1.0, True])
def test_a_bad_cpu_index_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"Device.cpu\(index\): index must be a non-negative int"):
        sk.Device.cpu(bad)


def test_kernels_run_on_a_second_cpu_device() -> None:
    d1 = sk.Device.cpu(1)
    s1 = d1.new_stream()
    n = 100
    a = sk.to_device(np.arange(n, dtype=np.float32), s1)
    b = sk.to_device(np.full(n, 2.0, dtype=np.float32), s1)
    c = sk.zeros(n, f32, s1)
    assert a.device is d1 and c.device is d1
    vecadd.launch(vecadd.prepare(config(n), d1), s1, a, b, c)
    np.testing.assert_array_equal(c.to_numpy(s1), np.arange(n, dtype=np.float32) + 2)


def test_a_launch_refuses_a_buffer_of_another_device_naming_kernel_parameter_variable_and_devices() -> None:
    d0, d1 = sk.Device.cpu(), sk.Device.cpu(1)
    s1 = d1.new_stream()
    stranger = sk.to_device(np.ones(8, dtype=np.float32), d0.new_stream())
    b = sk.zeros(8, f32, s1)
    c = sk.zeros(8, f32, s1)
    prepared = vecadd.prepare(config(8), d1)
    with pytest.raises(CrossDeviceError) as info:
        vecadd.launch(prepared, s1, stranger, b, c)
    assert str(info.value) == (
        "vecadd: argument `a` (the caller's `stranger`) lives on Device.cpu(), but the launch runs on "
        "Device.cpu(1): a kernel reads and writes only memory of its own device; help: move it there first "
        "with `stranger.to(Device.cpu(1), stream)` (a stream of Device.cpu(1))"
    )
    assert isinstance(info.value, ValueError)  # as every launch-argument refusal
    np.testing.assert_array_equal(c.to_numpy(s1), np.zeros(8, dtype=np.float32))  # nothing ran
    with pytest.raises(CrossDeviceError, match=r"argument `c` \(the caller's `out0`\) lives on Device.cpu\(\)"):
        out0 = sk.zeros(8, f32, d0.new_stream())
        vecadd.launch_async(prepared, b, b, out0)
    with simt.unsafe(), pytest.raises(CrossDeviceError, match="argument `a`"):
        vecadd.launch_unchecked(config(8), s1, stranger, b, c)


def test_a_tile_launch_refuses_a_tensor_of_another_device() -> None:
    s0, s1 = sk.Device.cpu().new_stream(), sk.Device.cpu(1).new_stream()
    z = tile.zeros((8,), f32).sync_on(s1).partition((4,))
    x = tile.from_numpy(np.ones(8, dtype=np.float32)).sync_on(s0)
    y = tile.from_numpy(np.ones(8, dtype=np.float32)).sync_on(s1)
    refused = r"tile_add: argument `x`.* lives on Device.cpu\(\), but the launch runs on Device.cpu\(1\)"
    with pytest.raises(CrossDeviceError, match=refused):
        tile_add(z, x, y).sync_on(s1)


def test_numpy_arguments_of_a_launch_on_a_second_cpu_device_are_wrapped_there() -> None:
    d1 = sk.Device.cpu(1)
    s1 = d1.new_stream()
    out = np.zeros(16, dtype=np.float32)
    vecadd.launch(vecadd.prepare(config(16), d1), s1, np.ones(16, np.float32), np.ones(16, np.float32), out)
    np.testing.assert_array_equal(out, np.full(16, 2.0, np.float32))
    assert sk.as_buffer(out, d1).device is d1 and sk.as_buffer(out).device is sk.Device.cpu()


def test_to_copies_to_the_other_device_and_moves_the_source() -> None:
    d0, d1 = sk.Device.cpu(), sk.Device.cpu(1)
    s0, s1 = d0.new_stream(), d1.new_stream()
    src = sk.to_device(np.arange(32, dtype=np.float32), s0)
    view = src[4:8]
    line = next_line()
    moved = src.to(d1, s1)
    assert moved.device is d1 and moved.ptr != src.ptr and moved.dtype == src.dtype
    np.testing.assert_array_equal(moved.to_numpy(s1), np.arange(32, dtype=np.float32))
    with pytest.raises(UseAfterMoveError) as info:
        src.to_numpy(s0)
    assert str(info.value) == (
        f"use of moved value: `src` (to_numpy after it was moved into `to` at {HERE}:{line}); use the buffer "
        "`to` returned, on its new device"
    )
    with pytest.raises(UseAfterMoveError, match="which it views, was moved into `to`"):
        view.to_numpy(s0)
    with pytest.raises(UseAfterMoveError, match="moved into `to`"):
        src.to(d1, s1)  # a second move of the same handle
    with pytest.raises(UseAfterMoveError):
        vecadd.launch(vecadd.prepare(config(32), d0), s0, src, src, sk.zeros(32, f32, s0))


def test_to_the_same_device_is_a_move_without_a_copy() -> None:
    d0 = sk.Device.cpu()
    s0 = d0.new_stream()
    src = sk.to_device(np.arange(4, dtype=np.float32), s0)
    same = src.to(d0, s0)
    assert same.ptr == src.ptr and same.device is d0
    with pytest.raises(UseAfterMoveError):
        len(src)


def test_a_pending_launch_async_borrow_blocks_to_until_the_op_is_consumed() -> None:
    d0, d1 = sk.Device.cpu(), sk.Device.cpu(1)
    s0, s1 = d0.new_stream(), d1.new_stream()
    a, b, c = (sk.to_device(np.full(8, v, np.float32), s0) for v in (1.0, 2.0, 0.0))
    op = vecadd.launch_async(vecadd.prepare(config(8), d0), a, b, c)
    for name, value, kind in (("a", a, "shared"), ("c", c, "mutably")):
        with pytest.raises(BorrowError) as info:
            value.to(d1, s1)
        assert str(info.value) == (
            f"cannot move out of `{name}` because it is borrowed (E0505): the pending `vecadd.launch_async` "
            f"borrows it ({kind}) as argument `{name}`; consume that DeviceOp with `sync_on`/`sync` before "
            f"moving `{name}` into `to`"
        )
    assert c.device is d0 and c.host_view()[0] == 0.0  # the refused moves left `c` alive, nothing ran
    op.sync_on(s0)
    c1 = c.to(d1, s1)
    np.testing.assert_array_equal(c1.to_numpy(s1), np.full(8, 3.0, np.float32))


def test_a_view_cannot_be_moved_to_another_device() -> None:
    d0, d1 = sk.Device.cpu(), sk.Device.cpu(1)
    buf = sk.zeros(8, f32, d0.new_stream())
    head, _tail = buf.split_at(4)
    with pytest.raises(BorrowError, match=r"cannot move out of `head` because it is borrowed: it is a view"):
        head.to(d1, d1.new_stream())
    assert len(buf) == 8  # the owner is untouched


def test_to_refuses_a_stream_of_another_device_and_bad_arguments_before_moving() -> None:
    d0, d1 = sk.Device.cpu(), sk.Device.cpu(1)
    s0 = d0.new_stream()
    buf = sk.zeros(4, f32, s0)
    with pytest.raises(CrossDeviceError) as info:
        buf.to(d1, s0)
    assert str(info.value) == (
        "`buf.to(Device.cpu(1), stream)`: the stream belongs to Device.cpu(); the copy runs on a stream of the "
        "destination, Device.cpu(1) (help: `Device.cpu(1).new_stream()` or its `default_stream`)"
    )
    with pytest.raises(TypeError, match="expected a safekernels Device, got int"):
        buf.to(1)  # type: ignore[arg-type]
    with pytest.raises(CrossDeviceError, match=r"source_stream belongs to Device.cpu\(1\)"):
        buf.to(d1, source_stream=d1.new_stream())
    assert len(buf) == 4  # every refusal left it alive
    moved = buf.to(d1)  # the destination's default stream
    assert moved.device is d1


def test_a_read_only_source_gives_a_writable_copy() -> None:
    data = np.frombuffer(np.arange(4, dtype=np.float32).tobytes(), dtype=np.float32)
    wrapped = sk.as_buffer(data)
    assert wrapped.read_only
    moved = wrapped.to(sk.Device.cpu(1))
    assert not moved.read_only
    moved.copy_from_numpy(np.zeros(4, np.float32))


def test_a_pipeline_across_devices_gives_the_single_device_result() -> None:
    d0, d1 = sk.Device.cpu(), sk.Device.cpu(1)
    s0, s1 = d0.new_stream(), d1.new_stream()
    x = np.linspace(0, 1, 200, dtype=np.float32)
    a = sk.to_device(x, s0)
    b = sk.to_device(x, s0)
    c = sk.zeros(200, f32, s0)
    vecadd.launch(vecadd.prepare(config(200), d0), s0, a, b, c)  # c = 2x on device 0
    c1 = c.to(d1, s1)
    d = sk.zeros(200, f32, s1)
    vecadd.launch(vecadd.prepare(config(200), d1), s1, c1, c1, d)  # d = 4x on device 1
    back = d.to(d0, s0)
    np.testing.assert_array_equal(back.to_numpy(s0), 4 * x)


def test_with_device_changes_only_the_default_of_this_thread() -> None:
    d1, d2 = sk.Device.cpu(1), sk.Device.cpu(2)
    outside = sk.Device.default()
    seen: list[sk.Device] = []
    with d1 as entered:
        assert entered is d1 and sk.Device.default() is d1
        assert sk.zeros(2, f32).device is d1  # a constructor without a stream
        with d2:
            assert sk.Device.default() is d2
            worker = threading.Thread(target=lambda: seen.append(sk.Device.default()))
            worker.start()
            worker.join()
        assert sk.Device.default() is d1
    assert sk.Device.default() is outside and seen == [outside]
    with pytest.raises(RuntimeError), d1:
        raise RuntimeError("the block ends anyway")
    assert sk.Device.default() is outside


def test_the_buffer_device_decides_not_the_enclosing_block() -> None:
    d0, d1 = sk.Device.cpu(), sk.Device.cpu(1)
    s0 = d0.new_stream()
    a = sk.to_device(np.ones(8, np.float32), s0)
    c = sk.zeros(8, f32, s0)
    with d1:  # launches, copies and reads follow the buffers' and the prepared launch's device
        vecadd.launch(vecadd.prepare(config(8), d0), s0, a, a, c)
        np.testing.assert_array_equal(c.to_numpy(), np.full(8, 2.0, np.float32))
        assert c.device is d0
