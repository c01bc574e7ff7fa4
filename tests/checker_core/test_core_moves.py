"""Moves: definitely/maybe moved, loops, reinit, del, control flow ends, deduplication, labels."""

from __future__ import annotations

from core_ir_builders import P, alias, blk, fn, fresh, move, sp, use

from ownership_check.core import check_function, ir


def codes(function: ir.Function) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_function(function)]


def test_use_after_move_wording_and_labels() -> None:
    [d] = check_function(fn(fresh("z", 1), move("z", 2, 5), use("z", 3, 9)))
    assert d.code == "E0382"
    assert d.message == "use of moved value: `z`"
    assert d.span == sp(3, 9)
    assert [(lb.message, lb.primary) for lb in d.labels] == [
        ("value moved here", False),
        ("value used here after move", True),
    ]
    assert d.help == "use the values returned by `sync_on`"


def test_no_error_without_move_or_after_reinit() -> None:
    assert codes(fn(fresh("z", 1), use("z", 2), use("z", 3))) == []
    assert codes(fn(fresh("z", 1), move("z", 2), fresh("z", 3), use("z", 4))) == []


def test_maybe_moved_after_branch_is_reported() -> None:
    f = fn(fresh("z", 1), ir.Branch((blk(move("z", 2)), blk()), sp(2)), use("z", 3))
    assert codes(f) == [("E0382", 3)]


def test_both_branches_reinit_is_clean() -> None:
    f = fn(
        fresh("z", 1),
        ir.Branch((blk(move("z", 2), fresh("z", 3)), blk(fresh("z", 4))), sp(2)),
        use("z", 5),
    )
    assert codes(f) == []


def test_reported_once_at_first_use() -> None:
    f = fn(fresh("z", 1), move("z", 2), use("z", 3), use("z", 4), move("z", 5))
    assert codes(f) == [("E0382", 3)]


def test_moves_of_one_event_reported_once() -> None:
    f = fn(
        fresh("x", 1), fresh("y", 1), move("x", 2, event=7), move("y", 2, event=7), use("x", 3), use("y", 4)
    )
    assert codes(f) == [("E0382", 3)]


def test_loop_previous_iteration_label() -> None:
    f = fn(fresh("z", 1), ir.Loop(blk(), blk(move("z", 3, 9)), blk(), sp(2)))
    [d] = check_function(f)
    assert d.line == 3
    assert [lb.message for lb in d.labels if not lb.primary] == [
        "value moved here, in previous iteration of loop"
    ]


def test_loop_rebinding_each_iteration_is_clean() -> None:
    body = blk(move("z", 3), fresh("z", 4))
    assert codes(fn(fresh("z", 1), ir.Loop(blk(), body, blk(), sp(2)))) == []


def test_return_and_raise_end_paths() -> None:
    for end in (ir.Return(sp(3)), ir.Raise(sp(3))):
        f = fn(fresh("z", 1), ir.Branch((blk(move("z", 2), end), blk()), sp(2)), use("z", 4))
        assert codes(f) == []


def test_break_carries_move_out_of_loop_but_continue_does_not_reach_after() -> None:
    brk = fn(fresh("z", 1), ir.Loop(blk(), blk(move("z", 3), ir.Break(sp(3))), blk(), sp(2)), use("z", 5))
    assert codes(brk) == [("E0382", 5)]
    cont = fn(
        fresh("z", 1),
        ir.Loop(blk(), blk(move("z", 3), fresh("z", 4), ir.Continue(sp(4))), blk(), sp(2)),
        use("z", 5),
    )
    assert codes(cont) == []


def test_while_else_runs_when_loop_exits_through_head() -> None:
    f = fn(fresh("z", 1), ir.Loop(blk(), blk(ir.Break(sp(3))), blk(move("z", 4)), sp(2)), use("z", 5))
    assert codes(f) == [("E0382", 5)]


def test_infinite_loop_exits_only_by_break() -> None:
    f = fn(
        fresh("z", 1),
        ir.Loop(blk(), blk(fresh("z", 3), ir.Break(sp(3))), blk(), sp(2), infinite=True),
        use("z", 5),
    )
    assert codes(f) == []


def test_del_ends_a_name_and_alias_sees_move() -> None:
    assert codes(fn(fresh("z", 1), move("z", 2), ir.Del(P("z"), sp(3)))) == []
    assert codes(fn(fresh("z", 1), alias("d", "z", 2), move("z", 3), use("d", 4))) == [("E0382", 4)]


def test_try_handler_sees_moves_of_body() -> None:
    f = fn(
        fresh("z", 1),
        ir.Try(blk(move("z", 2), use("q", 3)), (blk(use("z", 4)),), blk(), blk(), sp(2)),
    )
    assert codes(f) == [("E0382", 4)]


def test_try_finally_runs_after_body() -> None:
    f = fn(fresh("z", 1), ir.Try(blk(move("z", 2)), (), blk(), blk(use("z", 3)), sp(2)))
    assert codes(f) == [("E0382", 3)]


def test_attribute_path_place() -> None:
    f = fn(fresh("self.out", 1), move("self.out", 2), use("self.out", 3), use("self.other", 4))
    [d] = check_function(f)
    assert d.message == "use of moved value: `self.out`"
