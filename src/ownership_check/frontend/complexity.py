"""The guard in front of libcst: files too big or too deeply nested to analyse safely are refused, located.

libcst's native parser recurses once per nesting level and, for `a and b and c ...`, once per operand (it
builds a left-nested tree where `ast` keeps one flat `BoolOp`): a valid file with a 10,000-term `and` kills the
process with a segfault, and the lowering's time grows faster than linearly with such chains.  Nothing
recursive may therefore see a file before this guard has measured it, with an explicit stack, on the `ast`
tree the prescan already built:

    nesting   libcst-equivalent depth: `ast` depth, plus `len(values) - 1` for every `and`/`or` chain
    size      bytes of the file; the longest line

Each measure has a limit far above hand-written code (the deepest nesting in the CPython 3.11 stdlib outside its
tests is 34, its longest line 175 characters; files at the limits analyse in under a second) and far below what
breaks libcst or the Python stack.  A file over a limit gets W0002 "ownership of this file was not checked: file
too complex to analyse: ..." at the offending node, so the run fails (exit 1) instead of crashing, hanging or
passing silently.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ownership_check.diagnostics import Span
from ownership_check.frontend.ast_walk import child_nodes

MAX_NESTING = 400
MAX_ANALYSED_BYTES = 512 * 1024
MAX_LINE_CHARS = 20_000


@dataclass(frozen=True)
class TooComplex:
    reason: str
    span: Span

    def to_json(self) -> list[object]:
        return [self.reason, self.span.line, self.span.column]

    @classmethod
    def from_json(cls, data: object) -> TooComplex:
        if not (isinstance(data, list) and len(data) == 3):
            raise ValueError("bad complexity record")
        reason, line, column = data
        if not (isinstance(reason, str) and isinstance(line, int) and isinstance(column, int)):
            raise ValueError("bad complexity record")
        return cls(reason, Span(line, column, line, column + 1))


def _node_span(node: ast.AST) -> Span:
    line = getattr(node, "lineno", 1) or 1
    column = (getattr(node, "col_offset", 0) or 0) + 1
    return Span(line, column, line, column + 1)


def measure_text(text: str, size: int) -> TooComplex | None:
    """Size limits, checked before any parser sees the text."""
    if size > MAX_ANALYSED_BYTES:
        return TooComplex(
            f"file too complex to analyse: it is {size:,} bytes (the limit is {MAX_ANALYSED_BYTES:,})",
            Span(1, 1, 1, 2),
        )
    start = 0
    line = 1
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > MAX_LINE_CHARS:
            return TooComplex(
                f"file too complex to analyse: line {line} is {stop - start:,} characters long "
                f"(the limit is {MAX_LINE_CHARS:,})",
                Span(line, 1, line, 2),
            )
        if end < 0:
            return None
        start = end + 1
        line += 1


def measure_tree(tree: ast.AST) -> TooComplex | None:
    """The first node (in walk order) whose libcst-equivalent nesting exceeds `MAX_NESTING`."""
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return TooComplex(
                f"file too complex to analyse: nested more than {MAX_NESTING} levels deep",
                _node_span(node),
            )
        if isinstance(node, ast.BoolOp):
            chain = len(node.values) - 1
            if depth + chain > MAX_NESTING:
                return TooComplex(
                    f"file too complex to analyse: an `and`/`or` chain of {len(node.values):,} operands "
                    f"(at most {MAX_NESTING} levels of nesting are analysed)",
                    _node_span(node),
                )
            stack.extend((child, depth + chain + 1) for child in node.values)
            continue
        stack.extend((child, depth + 1) for child in child_nodes(node))
    return None


def parser_gave_up(exc: BaseException) -> TooComplex:
    """Python's own parser hit its recursion or memory limit (so Python could not run the file either)."""
    what = "too deeply nested" if isinstance(exc, RecursionError) else "too large"
    what += " for Python's own parser"
    return TooComplex(f"file too complex to analyse: {what}", Span(1, 1, 1, 2))
