"""`core.calls` on its own: neutral call shapes in, IR operations out, no front end involved.

The fake front end below stands for libcst or mypy: its expression nodes are plain strings, "lowering" one just
records it, so each test reads as the exact interleaving of IR operations and ordinary sub-expressions a call makes.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from ownership_check.core import calls, ir
from ownership_check.core.messages import move_help
from ownership_check.diagnostics import Span

Event = ir.Op | tuple[str, str]  # an IR op, or ("expr", node) where the front end lowered an ordinary expression

LIBCST_LIKE = calls.Dialect(launch_move_events=True)
MYPY_LIKE = calls.Dialect(launch_move_events=False)


def sp(col: int) -> Span:
    return Span(1, col, 1, col + 1)


def P(name: str) -> ir.Place:
    return ir.Place.parse(name)


@dataclass
class FakeFrontEnd:
    kernel_body: bool = False
    dialect: calls.Dialect = LIBCST_LIKE
    peeked: frozenset[str] = frozenset()
    events: list[Event] = field(default_factory=list)
    origins: list[tuple[ir.Op, str | None]] = field(default_factory=list)
    group: int = 0
    tmp: int = 0

    def emit(self, op: ir.Op, origin: str | None = None, /) -> None:
        self.events.append(op)
        self.origins.append((op, origin))

    def lower_expr(self, node: str, /) -> None:
        self.events.append(("expr", node))

    def value(self, node: str, holder: ir.Place | None = None, /) -> ir.Value:
        self.events.append(("value", node))
        return ir.Fresh("value", brand=holder.key if holder else None)

    def next_group(self) -> int:
        self.group += 1
        return self.group

    def temp(self, display: str) -> ir.Place:
        self.tmp += 1
        return ir.Place(f"$t{self.tmp}", (), display)

    def block(self, build: Callable[[], None], /) -> ir.Block:
        outer, self.events = self.events, []
        try:
            build()
            return tuple(e for e in self.events if not isinstance(e, tuple))
        finally:
            self.events = outer


@dataclass(frozen=True)
class Kernel:
    name: str
    track: str
    params: tuple[tuple[str, str], ...]
    autotuned: bool = False


VECADD = Kernel("vecadd", "simt", (("a", "shared"), ("b", "shared"), ("c", "mut"), ("n", "value")))
ADD = Kernel("add", "tile", (("z", "move"), ("x", "move"), ("y", "move")))


def arg(name: str, col: int, *, device: bool = True, keyword: str | None = None) -> calls.Operand[str]:
    """An argument that names a place."""
    return calls.Operand(name, sp(col), P(name), device, keyword=keyword)


def expr(text: str, col: int, view: calls.ViewCall[str] | calls.SliceView[str] | None = None) -> calls.Operand[str]:
    """An argument that is not a place (a call, a literal, a view)."""
    return calls.Operand(text, sp(col), None, False, view)


def method_call(
    receiver: calls.Operand[str],
    name: str,
    *args: calls.Operand[str],
    kernel: Kernel | None = None,
    safekernels_receiver: bool = False,
) -> calls.Call[str]:
    method = calls.MethodCall(name, sp(90), receiver, kernel, safekernels_receiver)
    return calls.Call("CALL", sp(80), f"{receiver.node}.{name}", tuple(args), method=method)


def kernel_receiver(kernel: Kernel) -> calls.Operand[str]:
    return calls.Operand(kernel.name, sp(70), P(kernel.name), False)


# --- SIMT launches -----------------------------------------------------------------------------------------------


def test_launch_checks_the_brand_then_borrows_by_parameter_mode() -> None:
    fe = FakeFrontEnd()
    call = method_call(
        kernel_receiver(VECADD), "launch", arg("prep", 1), expr("stream()", 2), arg("x", 3), arg("y", 4),
        arg("out", 5), expr("n", 6), kernel=VECADD,
    )
    result = calls.lower_call(call, P("held"), fe)
    assert result == ir.Fresh("value")
    assert fe.events == [
        ir.CheckBrand(P("prep"), "vecadd", sp(1), sp(90)),
        ("expr", "stream()"),
        ("expr", "n"),  # every argument is evaluated before the launch borrows any
        ir.Borrow(P("x"), False, 1, sp(3)),
        ir.Borrow(P("y"), False, 1, sp(4)),
        ir.Borrow(P("out"), True, 1, sp(5)),
    ]
    assert all(origin == "CALL" for op, origin in fe.origins if not isinstance(op, ir.View))


def test_launch_async_borrows_are_held_by_the_bound_op_and_simt_launches_take_no_keywords() -> None:
    fe = FakeFrontEnd()
    call = method_call(
        kernel_receiver(VECADD), "launch_async", arg("prep", 1), arg("out", 2, keyword="c"), arg("x", 3),
        calls.Operand("rest", sp(4), star=True), kernel=VECADD,
    )
    assert calls.lower_call(call, P("op"), fe) == ir.Fresh("op")
    assert fe.events == [
        ir.CheckBrand(P("prep"), "vecadd", sp(1), sp(90)),
        # `launch_async(prepared, *args)` takes no keyword arguments (the runtime raises TypeError): no borrow
        ("expr", "out"),
        ("expr", "rest"),  # `*rest`: unknown parameters, an ordinary expression, evaluated before any borrow
        ir.Borrow(P("x"), False, 1, sp(3), P("op")),  # first positional after `prepared`: parameter `a`
    ]


def test_tile_launch_keywords_pick_their_parameter_and_arguments_after_a_splat_map_from_the_end() -> None:
    fe = FakeFrontEnd()
    call = calls.Call("add(...)", sp(9), "add", (arg("z", 1, keyword="z"),), kernel=ADD)
    calls.lower_call(call, None, fe)
    assert [e.place for e in fe.events if isinstance(e, ir.Move)] == [P("z")]
    fe = FakeFrontEnd()
    rest = calls.Operand("rest", sp(2), star=True)
    call = method_call(kernel_receiver(VECADD), "launch", arg("p", 1), arg("s", 2), rest, arg("c", 3), arg("n", 4),
                       kernel=VECADD)
    calls.lower_call(call, None, fe)
    # `*rest` has unknown length, but `c, n` are the last two arguments: parameters `c` (mutable) and `n`
    assert ir.Borrow(P("c"), True, 1, sp(3)) in fe.events


def test_launch_group_is_numbered_after_the_leading_arguments_are_lowered() -> None:
    class Nested(FakeFrontEnd):
        def lower_expr(self, node: str, /) -> None:
            super().lower_expr(node)
            self.next_group()  # the leading argument contains a call of its own

        def value(self, node: str, holder: ir.Place | None = None, /) -> ir.Value:
            found = super().value(node, holder)
            self.next_group()  # the prepared launch is a call of its own (`launch_for(n)`), evaluated for its brand
            return found

    fe = Nested()
    call = method_call(kernel_receiver(VECADD), "launch", expr("make()", 1), expr("s", 2), arg("x", 3), kernel=VECADD)
    calls.lower_call(call, None, fe)
    assert fe.events[-1] == ir.Borrow(P("x"), False, 3, sp(3))


def test_launch_unchecked_requires_unsafe_and_has_no_brand() -> None:
    fe = FakeFrontEnd()
    call = method_call(
        kernel_receiver(VECADD), "launch_unchecked", arg("cfg", 1), arg("s", 2), arg("x", 3), kernel=VECADD
    )
    calls.lower_call(call, None, fe)
    assert fe.events == [
        ("expr", "cfg"),
        ("expr", "s"),
        ir.RequireUnsafe("launch_unchecked", sp(80)),
        ir.Borrow(P("x"), False, 1, sp(3)),
    ]


def test_a_view_argument_is_borrowed_through_a_temporary_view() -> None:
    fe = FakeFrontEnd()
    view = calls.ViewCall(P("x"), True, ("0", "8"), (0, 8))
    sliced = calls.SliceView(P("c"), True, ("k",), False, None, True, None, False)  # c[:k]
    call = method_call(
        kernel_receiver(VECADD), "launch", arg("prep", 1), arg("s", 2), expr("x.view(0, 8)", 3, view),
        arg("y", 4), expr("c[:k]", 5, sliced), kernel=VECADD,
    )
    calls.lower_call(call, None, fe)
    x_view = ir.Place("$a1", (), "x")
    c_view = ir.Place("$a2", (), "c")
    assert fe.events[2:] == [
        ("expr", "0"),
        ("expr", "8"),
        ir.View(x_view, P("x"), ir.Range(0, 8), sp(3)),
        ir.Borrow(x_view, False, 1, sp(3)),
        ir.Borrow(P("y"), False, 1, sp(4)),
        ("expr", "k"),
        ir.View(c_view, P("c"), ir.Whole(), sp(5)),
        ir.Borrow(c_view, True, 1, sp(5)),
    ]


def test_a_view_of_a_non_device_value_is_an_ordinary_expression() -> None:
    fe = FakeFrontEnd()
    view = calls.ViewCall(P("x"), False, ("0", "8"), (0, 8))
    call = method_call(
        kernel_receiver(VECADD), "launch", arg("p", 1), arg("s", 2), expr("x.view(0, 8)", 3, view), kernel=VECADD
    )
    calls.lower_call(call, None, fe)
    assert fe.events[-1] == ("expr", "x.view(0, 8)")


def test_prepare_brands_its_result() -> None:
    fe = FakeFrontEnd()
    call = method_call(kernel_receiver(VECADD), "prepare", expr("cfg", 1), arg("dev", 2), kernel=VECADD)
    assert calls.lower_call(call, None, fe) == ir.Fresh("prepared", brand="vecadd")
    assert fe.events == [("expr", "cfg"), ("expr", "dev")]


# --- tile launches and moving methods ----------------------------------------------------------------------------


def tile_call(*args: calls.Operand[str]) -> calls.Call[str]:
    return calls.Call("CALL", sp(80), "add", args, kernel=ADD)


def test_tile_launch_moves_its_tensor_arguments_as_one_event() -> None:
    fe = FakeFrontEnd()
    assert calls.lower_call(tile_call(arg("z", 1), expr("ones()", 2), arg("y", 3)), None, fe) == ir.Fresh("op")
    help_text = move_help("launch")
    assert fe.events == [
        ("expr", "ones()"),  # every argument is evaluated before the launch moves any
        ir.Move(P("z"), sp(1), help_text, event=1),
        ir.Move(P("y"), sp(3), help_text, event=1),
    ]


def test_the_mypy_dialect_keeps_tile_moves_as_separate_events() -> None:
    fe = FakeFrontEnd(dialect=MYPY_LIKE)
    calls.lower_call(tile_call(arg("z", 1)), None, fe)
    assert fe.events == [ir.Move(P("z"), sp(1), move_help("launch"))]


def test_sync_on_moves_a_device_receiver_and_returns_its_value() -> None:
    fe = FakeFrontEnd()
    call = method_call(arg("op", 1), "sync_on", arg("s", 2))
    assert calls.lower_call(call, None, fe) == ir.FromPlace(ir.value_place(P("op")), call.span)
    assert fe.events == [("expr", "s"), ir.Move(P("op"), sp(1), move_help("sync_on"))]


def test_a_launch_async_op_value_is_its_arguments_bound_below_the_holder() -> None:
    fe = FakeFrontEnd()
    call = method_call(
        kernel_receiver(VECADD), "launch_async", arg("prep", 1), arg("x", 2), arg("y", 3), arg("c", 4), kernel=VECADD
    )
    result = calls.lower_call(call, P("op"), fe)
    assert isinstance(result, ir.Fresh) and result.kind == "op"
    assert [path for path, _ in result.parts] == [("$", "$0"), ("$", "$1"), ("$", "$2")]
    staged = [op for op in fe.events if isinstance(op, ir.Bind)]
    assert [b.values[0] for b in staged] == [ir.FromPlace(P(n), sp(i)) for i, n in ((2, "x"), (3, "y"), (4, "c"))]
    assert [b.targets[0] for b in staged] == [stage for _, stage in result.parts]
    assert all(stage.root.startswith(ir.ARGUMENT_TEMP_PREFIX) for _, stage in result.parts)


def test_unpacking_an_op_value_binds_its_items() -> None:
    fe = FakeFrontEnd()
    whole = ir.FromPlace(ir.value_place(P("op")), sp(1))
    target: calls.UnpackTarget[str] = calls.UnpackTarget(
        (calls.PlaceTarget(P("a"), sp(2)), calls.PlaceTarget(P("b"), sp(3))), sp(1)
    )
    calls.bind_target(target, whole, fe)
    assert fe.events == [
        ir.Bind((P("a"),), (ir.FromPlace(ir.Place("op", ("$", "$0")), sp(1)),), sp(2)),
        ir.Bind((P("b"),), (ir.FromPlace(ir.Place("op", ("$", "$1")), sp(1)),), sp(3)),
    ]


def test_a_moving_method_on_a_value_not_known_to_be_device_is_an_ordinary_call() -> None:
    fe = FakeFrontEnd()
    call = method_call(arg("line", 1, device=False), "partition", expr("'='", 2))
    assert calls.lower_call(call, None, fe) == ir.Fresh()
    assert fe.events == [ir.Use(P("line"), sp(1)), ("expr", "'='")]


def test_distinct_moving_methods_move_any_receiver_in_both_dialects() -> None:
    """`op = helper(); op.sync_on(s)`: the table's rule, whether or not the front end knows `op` to be an op."""
    call = method_call(arg("op", 1, device=False), "sync_on", arg("s", 2))
    for dialect in (LIBCST_LIKE, MYPY_LIKE):
        fe = FakeFrontEnd(dialect=dialect)
        calls.lower_call(call, None, fe)
        assert fe.events == [("expr", "s"), ir.Move(P("op"), sp(1), move_help("sync_on"))]


def test_zip_method_moves_every_place_argument() -> None:
    """`zip` takes nothing but ops, so a place the front end cannot tell is device-like (`plain`, an op a helper
    returned) is moved too; an argument that is no place (`f()`) is only evaluated."""
    fe = FakeFrontEnd()
    call = method_call(arg("a", 1), "zip", arg("b", 2), arg("plain", 3, device=False), expr("f()", 4))
    assert calls.lower_call(call, None, fe) == ir.Fresh("op")
    combinator = move_help("combinator")
    assert fe.events == [
        ir.Move(P("b"), sp(2), combinator),
        ir.Move(P("plain"), sp(3), combinator),
        ("expr", "f()"),
        ir.Move(P("a"), sp(1), combinator),
    ]


def test_a_module_receiver_is_not_moved() -> None:
    fe = FakeFrontEnd()
    call = method_call(arg("simt", 1), "partition", arg("a", 2), safekernels_receiver=True)
    assert calls.lower_call(call, None, fe) == ir.Fresh()
    assert fe.events == [ir.Use(P("simt"), sp(1)), ("expr", "a")]


def test_zip_function_moves_its_device_arguments() -> None:
    fe = FakeFrontEnd()
    call = calls.Call("CALL", sp(80), "sk.zip", (arg("a", 1), arg("b", 2)), safekernels_function="safekernels.zip")
    assert calls.lower_call(call, None, fe) == ir.Fresh("op")
    assert [type(e) for e in fe.events] == [ir.Move, ir.Move]


def test_to_numpy_borrows_its_receiver_shared() -> None:
    fe = FakeFrontEnd()
    calls.lower_call(method_call(arg("c", 1), "to_numpy", arg("s", 2)), None, fe)
    assert fe.events == [("expr", "s"), ir.Borrow(P("c"), False, 1, sp(1))]


# --- kernel-side calls and unsafe operations ---------------------------------------------------------------------


def test_get_mut_in_a_kernel_moves_the_witness_and_lends_the_element() -> None:
    fe = FakeFrontEnd(kernel_body=True)
    assert calls.lower_call(method_call(arg("c", 1), "get_mut", arg("idx", 2)), P("o"), fe) == ir.Fresh("elem")
    assert fe.events == [
        ir.Move(P("idx"), sp(2), move_help("get_mut")),
        ir.Borrow(P("c"), True, 1, sp(1), P("o")),
    ]


def test_get_mut_outside_a_kernel_is_an_ordinary_call() -> None:
    fe = FakeFrontEnd(kernel_body=False)
    assert calls.lower_call(method_call(arg("d", 1), "get_mut", arg("k", 2)), P("o"), fe) == ir.Fresh()
    assert fe.events == [ir.Use(P("d"), sp(1)), ("expr", "k")]


def test_unsafe_operations_require_an_unsafe_block() -> None:
    fe = FakeFrontEnd(kernel_body=True)
    calls.lower_call(method_call(arg("c", 1), "get_unchecked_mut", arg("i", 2)), None, fe)
    shared = calls.Call("CALL", sp(80), "simt.shared_array", (expr("f32", 1), expr("256", 2)), shared_array=True)
    assert calls.lower_call(shared, None, fe) == ir.Fresh("shared_array")
    assert fe.events == [
        ir.Use(P("c"), sp(1)),
        ("expr", "i"),
        ir.RequireUnsafe("get_unchecked_mut", sp(80)),
        ("expr", "f32"),
        ("expr", "256"),
        ir.RequireUnsafe("shared_array", sp(80)),
    ]
    assert {origin for op, origin in fe.origins if isinstance(op, ir.RequireUnsafe)} == {"CALL"}


def test_an_unrelated_function_call_lowers_callee_then_arguments() -> None:
    fe = FakeFrontEnd()
    assert calls.lower_call(calls.Call("CALL", sp(80), "print", (arg("a", 1),)), None, fe) == ir.Fresh()
    assert fe.events == [("expr", "print"), ("expr", "a")]


# --- views ---------------------------------------------------------------------------------------------------


def region(view: calls.ViewCall[str] | calls.SliceView[str]) -> ir.Region | None:
    found = calls.view_region(view, FakeFrontEnd())
    return None if found is None else found[1]


def test_view_regions_follow_literal_bounds() -> None:
    base = P("c")
    assert region(calls.ViewCall(base, True, ("0", "8"), (0, 8))) == ir.Range(0, 8)
    assert region(calls.ViewCall(base, True, ("0", "k"), (0, None))) == ir.Whole()
    assert region(calls.ViewCall(base, True, ("0",), (0,))) == ir.Whole()
    assert region(calls.SliceView(base, True, ("8",), True, 8, False, None, False)) == ir.Range(8, None)  # c[8:]
    assert region(calls.SliceView(base, True, ("4",), False, None, True, 4, False)) == ir.Range(0, 4)  # c[:4]
    assert region(calls.SliceView(base, True, ("-1",), True, -1, False, None, False)) == ir.Whole()  # c[-1:]
    assert region(calls.SliceView(base, True, ("2",), False, None, False, None, True)) == ir.Whole()  # c[::2]
    assert region(calls.SliceView(base, False, (), False, None, False, None, False)) is None


def test_bind_view_binds_a_temporary_spelled_as_its_base() -> None:
    fe = FakeFrontEnd()
    bound = calls.bind_view(calls.ViewCall(P("c"), True, ("0", "8"), (0, 8)), sp(5), fe)
    tmp = ir.Place("$t1", (), "c")
    assert bound == ir.FromPlace(tmp, sp(5))
    assert fe.events == [("expr", "0"), ("expr", "8"), ir.View(tmp, P("c"), ir.Range(0, 8), sp(5))]


def test_method_results_that_are_device_values() -> None:
    never: list[str] = []

    def receiver_device() -> bool:
        never.append("asked")
        return True

    assert calls.method_result_is_device("sync_on", False, receiver_device)
    assert calls.method_result_is_device("split_at", False, receiver_device)
    assert calls.method_result_is_device("anything", True, receiver_device)
    assert never == []  # decided without asking about the receiver
    assert calls.method_result_is_device("partition", False, lambda: True)
    assert calls.method_result_is_device("view", False, lambda: True)
    assert not calls.method_result_is_device("partition", False, lambda: False)
    assert not calls.method_result_is_device("strip", False, lambda: True)


# --- assignments and `with` ----------------------------------------------------------------------------------


def name(text: str, col: int) -> calls.PlaceTarget:
    return calls.PlaceTarget(P(text), sp(col))


def test_split_at_unpacking_gives_two_disjoint_halves() -> None:
    fe = FakeFrontEnd()
    targets: calls.UnpackTarget[str] = calls.UnpackTarget((name("lo", 1), name("hi", 5)), sp(1))
    split = calls.SplitAt(P("c"), ("k",), sp(10))
    calls.lower_assignment(calls.Assignment((targets,), "c.split_at(k)", split=split), fe)
    assert fe.events == [
        ("expr", "k"),
        ir.View(P("lo"), P("c"), ir.Half(1, 0), sp(10)),
        ir.View(P("hi"), P("c"), ir.Half(1, 1), sp(10)),
    ]


def test_parallel_assignment_binds_all_targets_at_once() -> None:
    fe = FakeFrontEnd()
    targets: calls.UnpackTarget[str] = calls.UnpackTarget((name("a", 1), calls.OtherTarget("x[0]")), sp(1))
    calls.lower_assignment(calls.Assignment((targets,), "b, a", items=("b", "a")), fe)
    assert fe.events == [
        ("value", "b"),
        ("value", "a"),
        ir.Bind((P("a"),), (ir.Fresh(),), sp(1)),
        ("expr", "x[0]"),
    ]


def test_a_starred_target_collects_the_middle_items_into_a_new_list() -> None:
    """`a, *rest, z = b, c, d`: `a` and `z` take the first and last items in parallel, `rest` is a new list (its
    item `c` is read where it is a place); the same over a sequence container's element places
    (`first, *rest = bufs`)."""
    fe = FakeFrontEnd()
    rest: calls.StarTarget[str] = calls.StarTarget(name("rest", 5))
    star: calls.UnpackTarget[str] = calls.UnpackTarget((name("a", 1), rest, name("z", 9)), sp(1), starred=True)
    calls.lower_assignment(calls.Assignment((star,), "b, c, d", items=("b", "c", "d")), fe)
    fresh = ir.Fresh("value")
    assert fe.events == [
        ("value", "b"),
        ("value", "c"),
        ("value", "d"),
        ir.Bind((P("a"), P("z")), (fresh, fresh), sp(1)),
        ir.Bind((P("rest"),), (ir.Fresh(),), sp(5)),
    ]
    fe = FakeFrontEnd()
    elements = (P("bufs$e0"), P("bufs$e1"))
    first: calls.UnpackTarget[str] = calls.UnpackTarget((name("first", 1), rest), sp(1), starred=True)
    calls.lower_assignment(calls.Assignment((first,), "bufs", elements=elements), fe)
    assert fe.events == [
        ("expr", "bufs"),
        ir.Bind((P("first"),), (ir.FromPlace(P("bufs$e0"), sp(1)),), sp(1)),
        ir.Bind((P("rest"),), (ir.Fresh(),), sp(5)),
    ]


def test_a_starred_target_that_cannot_match_binds_new_values() -> None:
    fe = FakeFrontEnd()
    rest: calls.StarTarget[str] = calls.StarTarget(name("rest", 5))
    star: calls.UnpackTarget[str] = calls.UnpackTarget(
        (name("a", 1), name("b", 2), rest, name("z", 9)), sp(1), starred=True
    )
    calls.lower_assignment(calls.Assignment((star,), "c, d", items=("c", "d")), fe)
    assert fe.events == [
        ("value", "c, d"),
        ir.Bind((P("a"),), (ir.Fresh(),), sp(1)),
        ir.Bind((P("b"),), (ir.Fresh(),), sp(2)),
        ir.Bind((P("rest"),), (ir.Fresh(),), sp(5)),
        ir.Bind((P("z"),), (ir.Fresh(),), sp(9)),
    ]


def test_a_value_bound_to_one_name_is_held_by_it_and_attribute_targets_read_their_root() -> None:
    fe = FakeFrontEnd()
    calls.lower_assignment(calls.Assignment((name("op", 1),), "launch()"), fe)
    attr = calls.PlaceTarget(P("self.out"), sp(1), root_span=sp(1))
    calls.lower_assignment(calls.Assignment((attr, name("d", 12)), "c"), fe)
    assert fe.events == [
        ("value", "launch()"),
        ir.Bind((P("op"),), (ir.Fresh("value", brand="op"),), sp(1)),
        # an attribute target holds the value too (`self.op = k.launch_async(...)` keeps the op's loans)
        ("value", "c"),
        ir.Use(P("self"), sp(1)),
        ir.Bind((P("self.out"),), (ir.Fresh("value", brand="self.out"),), sp(1)),
        # A chained assignment binds one object: later targets alias the first place target.
        ir.Bind((P("d"),), (ir.FromPlace(P("self.out"), sp(1)),), sp(12)),
    ]


def test_a_chained_assignment_binds_one_object_held_by_the_first_name() -> None:
    fe = FakeFrontEnd()
    calls.lower_assignment(calls.Assignment((name("a", 1), name("b", 5)), "launch()"), fe)
    assert fe.events == [
        ("value", "launch()"),
        ir.Bind((P("a"),), (ir.Fresh("value", brand="a"),), sp(1)),
        ir.Bind((P("b"),), (ir.FromPlace(P("a"), sp(1)),), sp(5)),
    ]


def test_with_suppress_wraps_the_body_in_a_try_with_an_empty_handler() -> None:
    fe = FakeFrontEnd()
    body: ir.Block = (ir.Use(P("x"), sp(3)),)
    calls.lower_with([calls.WithItem("suppress(E)", False, None, suppresses=True)], lambda: body, sp(1), fe)
    assert fe.events == [("expr", "suppress(E)"), ir.Try(body, ((),), (), (), sp(1))]


def test_the_none_arm_rebinds_the_tested_name_to_a_fresh_object() -> None:
    assert calls.none_arm(P("pending"), sp(4)) == ir.Bind((P("pending"),), (ir.Fresh("none"),), sp(4))


def test_with_unsafe_wraps_the_body_and_other_items_bind_fresh_objects() -> None:
    fe = FakeFrontEnd()
    body: ir.Block = (ir.Use(P("x"), sp(3)),)
    items = [calls.WithItem("simt.unsafe()", True), calls.WithItem("open(p)", False, name("fh", 9))]
    calls.lower_with(items, lambda: body, sp(1), fe)
    assert fe.events == [
        ("value", "open(p)"),  # held only when it keeps a pending op (`calls._opaque_call`): not here
        ir.Bind((P("fh"),), (ir.Fresh(),), sp(9)),
        ir.Unsafe(body, sp(1)),
    ]
    plain = FakeFrontEnd()
    calls.lower_with([calls.WithItem("lock", False)], lambda: body, sp(1), plain)
    assert plain.events == [("value", "lock"), *body]


def test_calls_module_imports_neither_libcst_nor_mypy() -> None:
    code = (
        "import sys; import ownership_check.core.calls; "
        "assert 'libcst' not in sys.modules and 'mypy' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_argument_that_may_be_one_of_several_places_borrows_each_on_its_own_path() -> None:
    fe = FakeFrontEnd()
    choice = calls.Operand(
        "b if f else c", sp(4), None, True, choices=(arg("b", 4), arg("c", 4)), prelude=("f",)
    )
    call = method_call(kernel_receiver(VECADD), "launch", arg("p", 1), arg("s", 2), arg("a", 3), choice, arg("c", 5),
                       kernel=VECADD)
    calls.lower_call(call, None, fe)
    assert ("expr", "f") in fe.events
    branch = next(e for e in fe.events if isinstance(e, ir.Branch))
    assert branch.arms == ((ir.Borrow(P("b"), False, 1, sp(4)),), (ir.Borrow(P("c"), False, 1, sp(4)),))
    assert fe.events[-1] == ir.Borrow(P("c"), True, 1, sp(5))
