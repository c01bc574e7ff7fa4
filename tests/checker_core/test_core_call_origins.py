"""`core.calls` cases that mutation testing found unpinned (issue 15): where `launch_unchecked`'s E0133 is
attached, and a `prepare` method on something that is not a kernel.

The fake front end of `test_core_calls.py` is reused: expression nodes are strings, "lowering" one records it.
"""

from __future__ import annotations

from test_core_calls import VECADD, FakeFrontEnd, arg, expr, kernel_receiver, method_call

from ownership_check.core import calls, ir
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
