"""Where a runtime move error says the value was moved, and what it calls the value (issue 15, mutation testing).

`runtime/ownership.py` finds a move's site cheaply and builds the message only on error; its shortcuts (the
frame pinned while a `DeviceOp` chain executes, the name looked up among running frames, the line read from
the instruction offset) each had a mutant that the ownership tests did not notice.  These tests pin the
user-visible answer in the cases where a shortcut taken too broadly, or not at all, would give another one.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from tile_harness import cpu_stream

from safekernels import tile
from safekernels.dtypes import f32
from safekernels.errors import UseAfterMoveError

HERE = __file__


def next_line() -> int:
    """The line after the caller's current line."""
    return sys._getframe(1).f_lineno + 1


def test_a_move_inside_a_then_callback_is_reported_at_the_callbacks_line() -> None:
    """The frame pinned while a chain executes is only for the chain's own moves: a move the user's callback
    makes is reported where the callback made it, not at the `sync_on` that ran the chain."""
    stream = cpu_stream()
    kept: list[Any] = []
    moved_at: list[int] = []

    def callback(t: Any) -> Any:
        kept.append(t)
        moved_at.append(next_line())
        return t.partition((4,))

    op = tile.zeros((8,), f32).then(callback)
    sync_line = next_line()
    op.sync_on(stream)
    with pytest.raises(UseAfterMoveError) as info:
        kept[0].partition((4,))
    message = str(info.value)
    assert f"moved into `partition` at {HERE}:{moved_at[0]})" in message
    assert f":{sync_line})" not in message


def test_an_op_returned_by_then_is_moved_at_the_sync_on_that_ran_the_chain() -> None:
    """The chain's own move (the `then` link taking the op its callback returned) is reported at the user's
    `sync_on` line, with the value named by the user's local."""
    stream = cpu_stream()
    inner = tile.ones((8,), f32)
    op = tile.zeros((8,), f32).then(lambda _t: inner)
    line = next_line()
    result = op.sync_on(stream)
    assert result.shape == (8,)
    with pytest.raises(UseAfterMoveError, match=rf"use of moved value: `inner` .*`then` at {HERE}:{line}\)"):
        inner.sync_on(stream)


def test_chain_moves_in_a_helper_are_reported_in_the_helper() -> None:
    stream = cpu_stream()
    inner = tile.ones((8,), f32)

    def run(op: Any) -> tuple[Any, int]:
        line = next_line()
        return op.sync_on(stream), line

    _, line = run(tile.zeros((8,), f32).then(lambda _t: inner))
    with pytest.raises(UseAfterMoveError, match=rf"`then` at {HERE}:{line}\)"):
        inner.sync_on(stream)


def use_again(value: Any) -> None:
    value.sync_on(cpu_stream())


def test_the_value_is_named_by_the_local_of_the_frame_that_moved_it() -> None:
    """Two running user frames hold the moved value (this test as `original`, the helper as `value`): the
    message names it as the frame where the move happened does."""
    original = tile.zeros((8,), f32)
    line = next_line()
    original.partition((4,))
    with pytest.raises(UseAfterMoveError, match=rf"use of moved value: `original` .*at {HERE}:{line}\)"):
        use_again(original)


def test_a_launch_names_each_argument_by_the_moving_frames_local() -> None:
    @tile.kernel
    def add(z: tile.Partition[f32], x: tile.Tensor[f32], y: tile.Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))

    first, second = tile.ones((8,), f32), tile.ones((8,), f32)
    line = next_line()
    add(tile.zeros((8,), f32).partition((4,)), first, second)
    with pytest.raises(UseAfterMoveError, match=rf"use of moved value: `second` .*`add` at {HERE}:{line}\)"):
        use_again(second)


def test_the_line_of_a_move_in_a_multi_line_statement_is_the_line_of_the_call() -> None:
    """The line comes from the instruction offset of the moving call, not from the start of the statement or of
    the function."""
    stream = cpu_stream()
    t = tile.zeros((8,), f32).sync_on(stream)
    values = [
        1,
        2,
        t.partition(
            (4,),
        ),
    ]
    call_line = sys._getframe().f_lineno - 4
    assert len(values) == 3
    with pytest.raises(UseAfterMoveError) as info:
        _ = t.shape
    assert f"at {HERE}:{call_line})" in str(info.value)
