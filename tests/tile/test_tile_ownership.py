"""Runtime moves (the dynamic twin of E0382) and the DeviceOp combinators, for the tile track (SPEC §4)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from tile_harness import cpu_stream

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.errors import BorrowError, DeviceError, UseAfterMoveError
from safekernels.ownership_model import MOVING_METHODS
from safekernels.tile import Partition, Tensor

HERE = __file__
CPU = sk.Device.cpu()


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def next_line() -> int:
    """The line number after the caller's current line (where the move happens)."""
    return sys._getframe(1).f_lineno + 1


def moved_message(name: str, line: int) -> str:
    return rf"use of moved value: `{name}` .*at {HERE}:{line}\)"


def op_of_tensor() -> sk.DeviceOp[Any]:
    return tile.zeros((8,), f32, device=CPU)


#: One call of every method of the ownership table on a DeviceOp (receiver moves); keys == the table.
DEVICE_OP_MOVES: dict[str, Callable[[sk.DeviceOp[Any]], Any]] = {
    "partition": lambda op: op.partition((4,)),
    "unpartition": lambda op: op.unpartition(),
    "sync_on": lambda op: op.sync_on(cpu_stream()),
    "sync": lambda op: op.sync(),
    "graph_on": lambda op: op.graph_on(cpu_stream()),
    "then": lambda op: op.then(lambda v: v),
    "zip": lambda op: op.zip(op_of_tensor()),
    "first": lambda op: op.first(),
    "shared": lambda op: op.shared(),
}


#: moving methods of the table that are not DeviceOp methods: `DeviceBuffer.to` (tests/multidevice)
BUFFER_ONLY_MOVES = frozenset({"to"})


def test_the_moves_tested_here_are_exactly_the_ownership_table() -> None:
    assert set(DEVICE_OP_MOVES) == MOVING_METHODS - BUFFER_ONLY_MOVES


@pytest.mark.parametrize("method", sorted(MOVING_METHODS - BUFFER_ONLY_MOVES))
def test_each_moving_method_invalidates_its_receiver(method: str) -> None:
    op = op_of_tensor()
    if method == "unpartition":
        op = op.partition((4,))
    elif method == "first":
        op = op.then(lambda t: (t,))
    move = DEVICE_OP_MOVES[method]
    move(op)
    line = move.__code__.co_firstlineno  # the move happened inside the lambda (the innermost user frame)
    with pytest.raises(UseAfterMoveError, match=moved_message("op", line)) as info:
        op.sync_on(cpu_stream())
    assert f"moved into `{method}`" in str(info.value)


def test_tensor_partition_and_unpartition_move_their_receivers() -> None:
    t = tile.zeros((8,), f32).sync_on(cpu_stream())
    line = next_line()
    p = t.partition((4,))
    with pytest.raises(UseAfterMoveError, match=moved_message("t", line)):
        _ = t.shape
    line = next_line()
    back = p.unpartition()
    with pytest.raises(UseAfterMoveError, match=moved_message("p", line)):
        p.to_numpy()
    assert back.shape == (8,)


@pytest.mark.parametrize("kind", ["tensor", "deviceop"])
def test_launch_moves_every_argument(kind: str) -> None:
    stream = cpu_stream()
    if kind == "tensor":
        z = tile.zeros((8,), f32).sync_on(stream).partition((4,))
        x = tile.ones((8,), f32).sync_on(stream)
        y = tile.ones((8,), f32).sync_on(stream)
    else:
        z, x, y = tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), tile.ones((8,), f32)
    line = next_line()
    op = add(z, x, y)
    for name, value in (("z", z), ("x", x), ("y", y)):
        with pytest.raises(UseAfterMoveError, match=moved_message(name, line)) as info:
            add(value, x, y) if name == "z" else add(tile.zeros((8,), f32).partition((4,)), value, value)
        assert "moved into `add`" in str(info.value)
    z2, x2, y2 = op.sync_on(stream)  # ownership comes back as fresh handles
    np.testing.assert_array_equal(z2.unpartition().to_numpy(stream), np.full(8, 2, np.float32))
    assert x2.shape == y2.shape == (8,)


def test_same_value_twice_in_one_launch_is_moved_by_the_first() -> None:
    stream = cpu_stream()
    z, x, _y = add(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), tile.ones((8,), f32)).sync_on(
        stream
    )
    line = next_line() + 1
    with pytest.raises(UseAfterMoveError, match=moved_message("x", line)):
        add(z, x, x)


def test_value_of_a_launch_is_the_tuple_of_all_arguments() -> None:
    @tile.kernel
    def fill(out: Partition[f32]) -> None:
        out.store(tile.full((4,), 7.0, f32))

    result = fill(tile.zeros((8,), f32).partition((4,))).sync_on(cpu_stream())
    assert isinstance(result, tuple) and len(result) == 1
    assert isinstance(result[0], Partition)
    np.testing.assert_array_equal(result[0].to_numpy(), np.full(8, 7, np.float32))


def test_to_numpy_borrows_and_does_not_move() -> None:
    stream = cpu_stream()
    z, x, y = add(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), tile.ones((8,), f32)).sync_on(
        stream
    )
    first = z.to_numpy(stream)
    second = z.to_numpy(stream)
    np.testing.assert_array_equal(first, second)
    x.to_numpy(stream)
    z, x, y = add(z, x, y).sync_on(stream)  # still owned: usable in a launch after the borrows
    np.testing.assert_array_equal(z.to_numpy(stream), np.full(8, 2, np.float32))


def test_partition_of_shared_storage_raises() -> None:
    shared = tile.ones((8,), f32).shared()
    with pytest.raises(BorrowError, match=r"Cannot create mutable partition from shared tensor storage\."):
        shared.partition((4,))
    value = shared.sync_on(cpu_stream())
    with pytest.raises(BorrowError, match=r"Cannot create mutable partition from shared tensor storage\."):
        value.partition((4,))
    hidden = tile.zeros((8,), f32).then(lambda t: t.partition((4,))).shared()
    op = add(hidden, tile.ones((8,), f32), tile.ones((8,), f32))
    with pytest.raises(BorrowError, match="parameter `z`: Cannot create mutable partition from shared"):
        op.sync_on(cpu_stream())


def test_shared_executes_once_and_is_not_moved_by_its_users() -> None:
    calls: list[int] = []

    def count(t: Tensor[Any]) -> Tensor[Any]:
        calls.append(1)
        return t

    stream = cpu_stream()
    x = tile.ones((8,), f32).then(count).shared()
    # the shared op twice in one launch is fine: it is not moved by its users
    z1, x1, _y1 = add(tile.zeros((8,), f32).partition((4,)), x, x).sync_on(stream)
    z2, x2, _y2 = add(tile.zeros((8,), f32).partition((4,)), x, x1).sync_on(stream)
    assert calls == [1]
    assert x1 is x2  # the one shared value, handed back to every user
    np.testing.assert_array_equal(z1.to_numpy(stream), np.full(8, 2, np.float32))
    np.testing.assert_array_equal(z2.to_numpy(stream), np.full(8, 2, np.float32))
    assert x.sync_on(stream) is x1


def test_then_chains_values_and_runs_returned_ops() -> None:
    stream = cpu_stream()
    op = (
        tile.zeros((8,), f32)
        .partition((4,))
        .then(lambda z: add(z, tile.ones((8,), f32), tile.full((8,), 2.0, f32)))
        .then(lambda zxy: zxy[0].unpartition())
    )
    result = op.sync_on(stream)
    np.testing.assert_array_equal(result.to_numpy(stream), np.full(8, 3, np.float32))


def test_zip_and_first() -> None:
    stream = cpu_stream()
    a, b, c = sk.zip(tile.zeros((2,), f32), tile.ones((3,), f32), tile.arange(4, f32)).sync_on(stream)
    assert (a.shape, b.shape, c.shape) == ((2,), (3,), (4,))
    np.testing.assert_array_equal(c.to_numpy(), np.arange(4, dtype=np.float32))
    other = tile.ones((3,), f32)
    line = next_line()
    pair = tile.zeros((2,), f32).zip(other)
    with pytest.raises(UseAfterMoveError, match=moved_message("other", line)):
        other.sync_on(stream)
    first = pair.first().sync_on(stream)
    assert first.shape == (2,)
    z = add(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), tile.ones((8,), f32)).first()
    np.testing.assert_array_equal(z.sync_on(stream).to_numpy(), np.full(8, 2, np.float32))


def test_nothing_runs_until_sync() -> None:
    ran: list[str] = []
    op = tile.zeros((4,), f32).then(lambda t: ran.append("then") or t)
    assert ran == []
    op.sync_on(cpu_stream())
    assert ran == ["then"]


def test_sync_inside_a_running_op_is_refused() -> None:
    inner = tile.zeros((4,), f32)
    outer = tile.zeros((4,), f32).then(lambda _t: inner.sync_on(cpu_stream()))
    with pytest.raises(DeviceError, match="DeviceOp execution is non-reentrant"):
        outer.sync_on(cpu_stream())


def test_sync_inside_a_kernel_body_is_refused() -> None:
    pending = tile.zeros((4,), f32)

    @tile.kernel
    def nested(out: Partition[f32]) -> None:
        pending.sync_on(cpu_stream())

    with pytest.raises(DiagnosticError, match=r"SK004 unsupported method `\.sync_on`"):
        nested(tile.zeros((4,), f32).partition((4,))).sync_on(cpu_stream())


def test_launch_inside_a_kernel_body_is_refused() -> None:
    args = (tile.zeros((4,), f32).partition((4,)), tile.zeros((4,), f32), tile.zeros((4,), f32))

    @tile.kernel
    def nested(out: Partition[f32]) -> None:
        add(*args)

    with pytest.raises(DiagnosticError, match=r"SK004 `add\(\.\.\.\)` cannot be called in a tile kernel"):
        nested(tile.zeros((4,), f32).partition((4,))).sync_on(cpu_stream())


def test_constructors_are_lazy_device_ops_with_the_requested_values() -> None:
    stream = cpu_stream()
    data = np.arange(6, dtype=np.int32).reshape(2, 3)
    ops = [
        tile.zeros((2, 3), f32),
        tile.ones((2, 3), f32),
        tile.full((2, 3), 4.5, f32),
        tile.arange(5, f32),
        tile.from_numpy(data),
    ]
    assert all(isinstance(op, sk.DeviceOp) for op in ops)
    values = [op.sync_on(stream).to_numpy(stream) for op in ops]
    np.testing.assert_array_equal(values[0], np.zeros((2, 3)))
    np.testing.assert_array_equal(values[1], np.ones((2, 3)))
    np.testing.assert_array_equal(values[2], np.full((2, 3), 4.5))
    np.testing.assert_array_equal(values[3], np.arange(5))
    np.testing.assert_array_equal(values[4], data)
    assert values[4].dtype == np.int32 and values[0].dtype == np.float32


def test_from_numpy_copies_at_call_time() -> None:
    data = np.zeros(4, np.float32)
    op = tile.from_numpy(data)
    data[:] = 5
    np.testing.assert_array_equal(op.sync_on(cpu_stream()).to_numpy(), np.zeros(4))


def test_sync_uses_the_device_the_op_was_built_for() -> None:
    value = tile.ones((3,), f32, device=CPU).sync()
    assert value.device is CPU
    np.testing.assert_array_equal(value.to_numpy(), np.ones(3, np.float32))
    op = tile.ones((3,), f32, device=CPU)
    line = next_line()
    op.sync()
    with pytest.raises(UseAfterMoveError, match=moved_message("op", line)) as info:
        op.sync()
    assert "moved into `sync`" in str(info.value)
