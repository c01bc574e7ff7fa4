"""Call summaries computed by the core from a callee's IR (`summarize.call_summary`) and the memo that guards
recursion (`call_effects.SummaryMemo`); both front ends apply them (golden cases `*_helper_*`, `*_method_*`)."""

from __future__ import annotations

from core_ir_builders import P, alias, blk, borrow, fn, fresh, move, sp, use

from ownership_check.core import ir
from ownership_check.core.call_effects import CallSummary, SummaryMemo, bind_parameters
from ownership_check.core.calls import Operand
from ownership_check.core.summarize import call_summary


def test_a_moved_parameter_is_a_summary_move_with_the_callee_span() -> None:
    summary = call_summary(fn(move("out", 3), use("src", 4)), ["out", "src"])
    assert [(m.path, m.span.line) for m in summary.moves] == [(("out", ()), 3)]
    assert summary.rebinds == ()


def test_a_parameter_rebound_after_its_move_still_moved_the_callers_value() -> None:
    # def f(out): out = out.sync_on(s)[0]  -- the caller's `out` is consumed even though `out` is rebound
    summary = call_summary(fn(move("out", 3), fresh("out", 3)), ["out"])
    assert [m.path for m in summary.moves] == [("out", ())]


def test_an_attribute_path_of_the_receiver_is_moved_and_rebound() -> None:
    body = fn(move("self.x", 3), fresh("self.x", 4), alias("self.scratch", "self.total", 5))
    summary = call_summary(body, ["self"], receiver="self")
    assert [m.path for m in summary.moves] == [("self", ("x",))]
    assert dict(summary.rebinds) == {("self", ("scratch",)): ("self", ("total",)), ("self", ("x",)): ir.Fresh()}
    assert summary.receiver == "self"


def test_an_attribute_bound_on_one_path_only_is_a_new_value() -> None:
    body = fn(ir.Branch((blk(alias("self.scratch", "self.total", 3)), ()), sp(2)))
    summary = call_summary(body, ["self"], receiver="self")
    assert dict(summary.rebinds) == {("self", ("scratch",)): None}


def test_only_borrows_on_every_path_are_kept_and_a_path_borrowed_both_ways_counts_once() -> None:
    body = fn(
        borrow("lhs", False, 1, 3),
        borrow("out", False, 1, 3, 5),
        borrow("out", True, 1, 3, 9),
        ir.Branch((blk(borrow("lhs", True, 2, 5)), ()), sp(4)),
    )
    summary = call_summary(body, ["lhs", "out"])
    assert summary.borrows == (((("lhs", ()), False), (("out", ()), True)),)


def test_a_local_value_is_no_summary() -> None:
    summary = call_summary(fn(fresh("t", 2), move("t", 3)), ["out"])
    assert summary.empty


def test_recursion_gives_every_function_of_the_cycle_no_summary() -> None:
    memo = SummaryMemo()
    some = CallSummary("f", moves=())

    def f() -> CallSummary | None:
        assert memo.get("g", g) is None
        return CallSummary("f", rebinds=((("p", ("x",)), None),))

    def g() -> CallSummary | None:
        assert memo.get("f", f) is None  # f is running: a cycle
        return some

    assert memo.get("f", f) is None
    assert memo.done == {"g": None, "f": None}


def test_parameters_bind_by_position_keyword_and_receiver() -> None:
    def op(name: str, keyword: str | None = None, star: bool = False) -> Operand[str]:
        return Operand(name, sp(1), P(name), True, keyword=keyword, star=star)

    receiver = op("job")
    bound = dict(bind_parameters(["self", "a", "b"], ["k"], [op("x"), op("y", keyword="k")], receiver))
    assert {name: o.node for name, o in bound.items()} == {"self": "job", "a": "x", "k": "y"}
    after_splat = dict(bind_parameters(["a", "b"], [], [op("rest", star=True), op("x")], None))
    assert after_splat == {}
