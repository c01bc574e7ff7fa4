"""Report an error on the line Python's traceback names when the runtime raises it.

A call written over several lines raises from one line: the line of its callee's last part (`step` of `out =
step(`, `launch` of `k.launch(` even when `k` sits on the line above).  The analysis anchors a conflict at the
argument that causes it, which black-formatted code puts on a line of its own:

    fused, *_ = complementary(          <- the runtime's traceback names this line
        zeros, prev, corrected, ALPHA,  <- the argument the borrow conflict is about
    ).sync_on(stream)

So a diagnostic whose primary span lies inside such a call, on another line than the callee's, is reported at the
callee (a primary label "in this call") and keeps its argument as a second primary label: the rendered snippet
still underlines the argument, a suppression comment on either line covers it, and a CI gate or an editor shows it
on the same line as the runtime error it predicts.  Only the innermost call around the span counts: in
`show(\\n    x.to_numpy(s))` the read of `x` raises from `.to_numpy`'s line, which is `x`'s own.

Each front end lists its file's calls (`CallExtent`, from its own tree); this module is the one rule both apply.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ownership_check.diagnostics import Diagnostic, Label, Span

#: The label put at the callee of a diagnostic moved to its call's line.
IN_THIS_CALL = "in this call"


@dataclass(frozen=True, order=True)
class CallExtent:
    """One call of the source: the whole call expression, and the part of its callee on the line a traceback
    names for an exception the call raises (`callee_part`)."""

    whole: Span
    raising: Span


def callee_part(callee: Span, attribute: str | None) -> Span:
    """Where a traceback points for a call of `callee` (its span; `attribute`: the name of a callee written as
    `obj.name`): the whole callee when it is on one line, else its last line (the attribute name, or a point at
    the callee's end)."""
    if callee.line == callee.end_line:
        return callee
    width = len(attribute) if attribute is not None else 1
    return Span(callee.end_line, max(1, callee.end_column - width), callee.end_line, callee.end_column)


def _contains(outer: Span, inner: Span) -> bool:
    return (outer.line, outer.column) <= (inner.line, inner.column) and (inner.end_line, inner.end_column) <= (
        outer.end_line, outer.end_column
    )


def _innermost(calls: Sequence[CallExtent], span: Span) -> CallExtent | None:
    best: CallExtent | None = None
    for call in calls:
        if not _contains(call.whole, span):
            continue
        if best is None or _contains(best.whole, call.whole):
            best = call
    return best


def at_raising_line(diagnostic: Diagnostic, calls: Sequence[CallExtent]) -> Diagnostic:
    """`diagnostic` reported on the line its innermost call raises from, when its primary span is on another."""
    call = _innermost(calls, diagnostic.span)
    if call is None or call.raising.line == diagnostic.span.line or _contains(call.raising, diagnostic.span):
        return diagnostic
    labels = diagnostic.labels
    if not any(label.primary for label in labels):
        labels = (Label(diagnostic.span, "", primary=True), *labels)
    return dataclasses.replace(
        diagnostic, span=call.raising, labels=(Label(call.raising, IN_THIS_CALL, primary=True), *labels)
    )


def at_raising_lines(
    diagnostics: Sequence[Diagnostic], calls: Callable[[], Sequence[CallExtent]]
) -> list[Diagnostic]:
    """`at_raising_line` for each diagnostic (`calls` is asked only when there is one to place)."""
    if not diagnostics:
        return []
    found = calls()
    if not found:
        return list(diagnostics)
    return [at_raising_line(d, found) for d in diagnostics]


def operation_span(diagnostic: Diagnostic) -> Span:
    """The span of the operation a diagnostic is about: its argument when it was moved to its call's line, else
    its primary span."""
    for label in diagnostic.labels:
        if label.primary and label.span != diagnostic.span:
            return label.span
    return diagnostic.span


def reported_lines(diagnostic: Diagnostic) -> frozenset[int]:
    """The lines a suppression comment covers `diagnostic` from: its own, and its argument's when it was moved to
    its call's line."""
    return frozenset({diagnostic.span.line, operation_span(diagnostic).line})
