"""Checker-core cases that mutation testing found unpinned (issue 15): where `launch_unchecked`'s E0133 is
attached, a `prepare` method on something that is not a kernel, a `split_at` unpacked into a non-name, and the
wording of the W0001/W0002 warnings (SPEC: diagnostic wording is relied on by outside tests).

The fake front end of `test_core_calls.py` is reused: expression nodes are strings, "lowering" one records it.
"""

from __future__ import annotations

from test_core_calls import VECADD, FakeFrontEnd, P, arg, expr, kernel_receiver, method_call, name, sp

from ownership_check.core import calls, ir, messages
from ownership_check.diagnostics import Span


def test_launch_unchecked_reports_e0133_at_the_call_node() -> None:
    """The front end locates the `unsafe` requirement by the node it is emitted with: the launch call."""
    fe = FakeFrontEnd()
    call = method_call(
        kernel_receiver(VECADD), "launch_unchecked", arg("cfg", 1), arg("s", 2), arg("x", 3), kernel=VECADD
    )
    calls.lower_call(call, None, fe)
    required = [(op, origin) for op, origin in fe.origins if isinstance(op, ir.RequireUnsafe)]
    assert required == [(ir.RequireUnsafe("launch_unchecked", call.span), "CALL")]


def test_prepare_on_something_that_is_not_a_kernel_is_an_ordinary_call() -> None:
    """Only a kernel's `prepare` brands its result; `cache.prepare(x)` is just a call (and must not crash)."""
    fe = FakeFrontEnd()
    receiver = calls.Operand("cache", Span(1, 70, 1, 71), ir.Place.parse("cache"), False)
    result = calls.lower_call(method_call(receiver, "prepare", expr("cfg", 1)), None, fe)
    assert not (isinstance(result, ir.Fresh) and result.kind == "prepared")


def test_split_at_into_a_name_and_an_element_views_one_half_and_evaluates_the_other_target() -> None:
    fe = FakeFrontEnd()
    targets: calls.UnpackTarget[str] = calls.UnpackTarget((name("lo", 1), calls.OtherTarget("x[0]")), sp(1))
    split = calls.SplitAt(P("c"), ("k",), sp(10))
    calls.lower_assignment(calls.Assignment((targets,), "c.split_at(k)", split=split), fe)
    assert fe.events == [("expr", "k"), ir.View(P("lo"), P("c"), ir.Half(1, 0), sp(10)), ("expr", "x[0]")]


def test_unused_suppression_names_the_directive_as_written() -> None:
    span = Span(3, 5, 3, 25)
    bare = messages.unused_suppression("app.py", (), span)
    assert (bare.code, bare.message) == ("W0001", "unused suppression `# ownership: ignore`")
    coded = messages.unused_suppression("app.py", ("E0382", "E0499"), span)
    assert coded.message == "unused suppression `# ownership: ignore[E0382, E0499]`"


def test_not_analyzed_says_the_file_was_not_checked_and_why() -> None:
    diagnostic = messages.not_analyzed("app.py", "file too complex to analyse", Span(1, 1, 1, 2))
    assert diagnostic.code == "W0002"
    assert diagnostic.message == "ownership of this file was not checked: file too complex to analyse"
