"""Borrows: per-call conflicts, aliases per path, views, pending DeviceOps (E0505), kernel get_mut (NLL)."""

from __future__ import annotations

from core_ir_builders import P, alias, blk, borrow, fn, fresh, move, sp, use

from ownership_check.core import check_function, ir


def codes(function: ir.Function) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_function(function)]


def test_shared_then_mut_is_e0502_at_later_argument() -> None:
    [d] = check_function(fn(fresh("c", 1), borrow("c", False, 1, 2, 5), borrow("c", True, 1, 2, 11)))
    assert d.code == "E0502"
    assert d.message == "cannot borrow `c` as mutable because it is also borrowed as immutable"
    assert d.span == sp(2, 11)
    assert {(lb.message, lb.primary) for lb in d.labels} == {
        ("immutable borrow occurs here", False),
        ("mutable borrow occurs here", True),
    }


def test_mut_then_shared_says_immutable_second() -> None:
    [d] = check_function(fn(borrow("c", True, 1, 2, 5), borrow("c", False, 1, 2, 11)))
    assert d.message == "cannot borrow `c` as immutable because it is also borrowed as mutable"


def test_two_mut_is_e0499_and_distinct_calls_do_not_conflict() -> None:
    [d] = check_function(fn(borrow("c", True, 1, 2), borrow("c", True, 1, 2, 9)))
    assert d.code == "E0499"
    assert d.message == "cannot borrow `c` as mutable more than once at a time"
    assert codes(fn(borrow("c", True, 1, 2), borrow("c", True, 2, 3))) == []
    assert codes(fn(borrow("a", False, 1, 2), borrow("a", False, 1, 2, 5), borrow("c", True, 1, 2, 9))) == []


def test_alias_through_assignment_conflicts() -> None:
    f = fn(fresh("c", 1), alias("d", "c", 2), borrow("d", False, 1, 3), borrow("c", True, 1, 3, 9))
    assert codes(f) == [("E0502", 3)]


def test_swap_in_loop_is_not_a_conflict() -> None:
    swap = ir.Bind(
        (P("src"), P("dst")),
        (ir.FromPlace(P("dst"), sp(5)), ir.FromPlace(P("src"), sp(5))),
        sp(5),
    )
    body = blk(borrow("src", False, 1, 4), borrow("dst", True, 1, 4, 9), swap)
    f = fn(
        fresh("a", 1),
        fresh("c", 2),
        alias("src", "a", 3),
        alias("dst", "c", 3),
        ir.Loop(blk(), body, blk(), sp(4)),
    )
    assert codes(f) == []


def test_conditional_alias_may_conflict() -> None:
    f = fn(
        fresh("a", 1),
        fresh("c", 1),
        alias("d", "a", 2),
        ir.Branch((blk(alias("d", "c", 3)), blk()), sp(3)),
        borrow("d", False, 1, 4),
        borrow("c", True, 1, 4, 9),
    )
    assert codes(f) == [("E0502", 4)]


def _view(target: str, source: str, region: ir.Region, line: int) -> ir.View:
    return ir.View(P(target), P(source), region, sp(line))


def test_views_overlap_unless_disjoint() -> None:
    disjoint = fn(
        fresh("c", 1),
        _view("lo", "c", ir.Range(0, 8), 2),
        _view("hi", "c", ir.Range(8, 16), 3),
        borrow("lo", True, 1, 4),
        borrow("hi", True, 1, 4, 9),
    )
    assert codes(disjoint) == []
    overlapping = fn(
        fresh("c", 1),
        _view("lo", "c", ir.Range(0, 9), 2),
        _view("hi", "c", ir.Range(8, 16), 3),
        borrow("lo", True, 1, 4),
        borrow("hi", True, 1, 4, 9),
    )
    assert codes(overlapping) == [("E0499", 4)]
    halves = fn(
        fresh("c", 1),
        _view("a", "c", ir.Half(1, 0), 2),
        _view("b", "c", ir.Half(1, 1), 2),
        borrow("a", False, 1, 3),
        borrow("b", True, 1, 3, 9),
        borrow("c", False, 2, 4),
        borrow("a", True, 2, 4, 9),
    )
    assert codes(halves) == [("E0502", 4)]


def test_pending_op_borrow_blocks_move_until_consumed() -> None:
    pending = fn(
        fresh("c", 1),
        borrow("c", True, 1, 2, holder="op"),
        fresh("op", 2, kind="op"),
        move("c", 3),
        move("op", 4),
    )
    [d] = check_function(pending)
    assert d.code == "E0505"
    assert d.message == "cannot move out of `c` because it is borrowed"
    synced = fn(
        fresh("c", 1),
        borrow("c", True, 1, 2, holder="op"),
        fresh("op", 2, kind="op"),
        move("op", 3),
        move("c", 4),
    )
    assert codes(synced) == []


def test_pending_op_borrow_conflicts_with_later_launch() -> None:
    f = fn(
        borrow("c", True, 1, 2, holder="op"),
        fresh("op", 2, kind="op"),
        borrow("c", False, 2, 3),
        move("op", 4),
    )
    [d] = check_function(f)
    assert d.code == "E0502"
    assert d.help is not None and "sync_on" in d.help


def test_get_mut_results_conflict_only_while_both_live() -> None:
    both_live = fn(
        borrow("c", True, 1, 2, holder="a"),
        fresh("a", 2, kind="elem"),
        borrow("c", True, 2, 3, holder="b"),
        fresh("b", 3, kind="elem"),
        use("a", 4),
        use("b", 5),
    )
    assert codes(both_live) == [("E0499", 3)]
    first_dead = fn(
        borrow("c", True, 1, 2, holder="a"),
        fresh("a", 2, kind="elem"),
        use("a", 3),
        borrow("c", True, 2, 4, holder="b"),
        fresh("b", 4, kind="elem"),
        use("b", 5),
    )
    assert codes(first_dead) == []


def test_unsafe_is_lexical_and_brand_checked() -> None:
    need = ir.RequireUnsafe("shared_array", sp(2))
    [d] = check_function(fn(need))
    assert d.code == "E0133"
    assert d.message == "use of unsafe operation `shared_array` requires an unsafe block"
    assert check_function(fn(ir.Unsafe(blk(need), sp(1)))) == []
    arr = fn(ir.Unsafe(blk(fresh("sh", 2, kind="shared_array")), sp(1)), ir.Use(P("sh"), sp(3), element=True))
    assert codes(arr) == [("E0133", 3)]
    brand = fn(fresh("p", 1, kind="prepared", brand="k1"), ir.CheckBrand(P("p"), "k2", sp(2), sp(2, 1)))
    [b] = check_function(brand)
    assert b.code == "E0308" and b.message == "mismatched types"
    assert any("k1" in n and "k2" in n for n in b.notes)
    assert (
        check_function(
            fn(fresh("p", 1, kind="prepared", brand="k2"), ir.CheckBrand(P("p"), "k2", sp(2), sp(2)))
        )
        == []
    )
