"""W0003 on the IR: which paths drop a lazy `DeviceOp`, and which hand it on (`core.must_use`)."""

from __future__ import annotations

from core_ir_builders import P, alias, blk, fn, fresh, move, sp, use

from ownership_check.core import check_must_use, ir


def produced(name: str, line: int) -> tuple[ir.Op, ir.Op]:
    """`name = add(...)` on `line`: the bind, then the must-use marker."""
    return fresh(name, line, kind="op"), ir.Produce(P(name), sp(line))


def lines(function: ir.Function) -> list[int]:
    found = check_must_use(function)
    assert all(d.code == "W0003" for d in found)
    return [d.line for d in found]


def test_an_expression_statement_drops_its_op_at_once() -> None:
    [d] = check_must_use(fn(ir.Produce(None, sp(3, 5, 12), "add")))
    assert (d.code, d.span) == ("W0003", sp(3, 5, 12))
    assert d.message == "unused `DeviceOp` returned by `add` that must be used"
    assert d.severity.value == "warning"


def test_a_bound_op_run_or_deleted_on_every_path_is_clean() -> None:
    assert lines(fn(*produced("op", 1), move("op", 2))) == []
    assert lines(fn(*produced("op", 1), ir.Branch((blk(move("op", 2)), blk(ir.Del(P("op"), sp(3)))), sp(2)))) == []
    assert lines(fn(*produced("op", 1), alias("other", "op", 2), use("other", 3))) == []  # run through an alias


def test_a_bound_op_dropped_on_one_path_is_reported_at_its_binding() -> None:
    f = fn(*produced("op", 4), ir.Branch((blk(move("op", 5)), blk()), sp(5)), ir.Return(sp(6)))
    [d] = check_must_use(f)
    assert d.span == sp(4)
    assert d.message == "unused `DeviceOp` that must be used: `op` is dropped without being run"
    assert [(lb.message, lb.span) for lb in d.labels if not lb.primary] == [
        ("the function returns here without running it", sp(6))
    ]


def test_reassignment_drops_the_previous_op_even_in_a_loop() -> None:
    body = blk(*produced("op", 3))
    f = fn(ir.Loop(blk(fresh("i", 2)), body, blk(), sp(2)), move("op", 4))
    assert lines(f) == [3]  # the second iteration rebinds `op` over the first op


def test_the_none_arm_and_exception_paths_drop_nothing() -> None:
    none_arm = ir.Bind((P("op"),), (ir.Fresh("none"),), sp(3))
    assert lines(fn(*produced("op", 1), ir.Branch((blk(move("op", 2)), blk(none_arm)), sp(2)))) == []
    raised = fn(*produced("op", 1), ir.Branch((blk(ir.Raise(sp(2))), blk()), sp(2)), move("op", 3))
    assert lines(raised) == []
    in_try = ir.Try(blk(*produced("op", 2), move("op", 3)), (blk(ir.Return(sp(4))),), blk(), blk(), sp(2))
    assert lines(fn(in_try)) == []  # interrupted while being built or run: not forgotten


def test_a_finally_that_runs_the_op_covers_the_return_it_finishes() -> None:
    tried = ir.Try(blk(ir.Return(sp(3))), (), blk(), blk(move("op", 5)), sp(2))
    assert lines(fn(*produced("op", 1), tried)) == []


def test_a_loop_is_assumed_to_run_its_body() -> None:
    loop = ir.Loop(blk(fresh("i", 2)), blk(move("op", 3)), blk(), sp(2))
    assert lines(fn(*produced("op", 1), loop)) == []


def test_module_level_names_outlive_the_top_level() -> None:
    module = ir.Function("<module>", blk(*produced("op", 1)), sp(1))
    assert lines(module) == []
    assert lines(ir.Function("main", blk(*produced("op", 1)), sp(1))) == [1]


def test_storing_into_an_attribute_hands_the_op_on() -> None:
    stored = ir.Bind((ir.Place("self", ("pending",)),), (ir.FromPlace(P("op"), sp(2)),), sp(2))
    assert lines(fn(*produced("op", 1), stored)) == []
