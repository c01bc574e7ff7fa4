"""What hovering shows: how a kernel call takes each argument, and where a moved value was moved.

Both answers come from what the checker already knows: the project index's kernel summaries (parameter modes
from `safekernels.ownership_model`, the one table) and the E0382 diagnostics of the file (their "value moved
here" labels).  Positions are 1-based lines and character columns, as in the checker's spans.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ownership_check.core.messages import MOVED_HERE, MOVED_IN_LOOP
from ownership_check.diagnostics import Diagnostic, Span
from ownership_check.frontend.prescan import FileSummary, dotted, resolve_local
from ownership_check.frontend.project_index import ProjectIndex
from safekernels.ownership_model import LAUNCH_FORMS, ParamMode

#: How a launch takes an argument, in the words the diagnostics use.
MODE_WORDS: dict[str, str] = {
    ParamMode.SHARED.value: "borrowed (shared, read-only for the launch)",
    ParamMode.MUT.value: "mutably borrowed (exclusive for the launch)",
    ParamMode.MOVE.value: "moved (ownership comes back from `sync_on`)",
    ParamMode.VALUE.value: "value (copied)",
}


#: Positional arguments before the kernel's own, per (kernel kind, launch method), read from the ownership table's
#: launch forms (the one place that says `launch(prepared, stream, *args)` skips two); a tile kernel is called.
LEADING_ARGUMENTS: dict[tuple[str, str], int] = {
    (kind, method): form.leading for (kind, method), form in LAUNCH_FORMS.items() if method is not None
}
LAUNCH_METHODS = frozenset(method for _, method in LEADING_ARGUMENTS)


def _contains(node: ast.expr, line: int, column: int) -> bool:
    end_line = node.end_lineno or node.lineno
    end_col = (node.end_col_offset or node.col_offset) + 1
    start = (node.lineno, node.col_offset + 1)
    return start <= (line, column) < (end_line, end_col) or (line, column) == (end_line, end_col)


def kernel_call_hover(source: str, summary: FileSummary, index: ProjectIndex, line: int, column: int) -> str | None:
    """Markdown for the kernel launched by the call whose callee is under (line, column)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    toplevel = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    best: tuple[ast.Call, str, str | None] | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not _contains(node.func, line, column):
            continue
        func = node.func
        method: str | None = None
        if isinstance(func, ast.Attribute) and func.attr in LAUNCH_METHODS:
            method = func.attr
            func = func.value
        name = dotted(func)
        if name is not None:
            best = (node, name, method)  # ast.walk is breadth-first: the innermost call under the cursor wins
    if best is None:
        return None
    call, name, method = best
    found = index.kernel(resolve_local(name, summary.imports, summary.module, toplevel))
    if found is None:
        return None
    qualified, kernel = found
    if method is None:
        skip = 0
    elif (kernel.track, method) in LEADING_ARGUMENTS:
        skip = LEADING_ARGUMENTS[(kernel.track, method)]
    else:
        return None
    args = call.args[skip:]
    rows = []
    for i, (param, mode) in enumerate(kernel.params):
        arg = ast.unparse(args[i]) if i < len(args) and not isinstance(args[i], ast.Starred) else ""
        passed = f" ← `{arg}`" if arg else ""
        rows.append(f"- `{param}`{passed}: {MODE_WORDS.get(mode, mode)}")
    track = {"simt": "SIMT", "tile": "tile"}.get(kernel.track, kernel.track)
    header = f"**{track} kernel `{qualified}`**: how this launch takes its arguments"
    return "\n".join([header, "", *rows])


def moved_value_hover(diagnostics: Sequence[Diagnostic], line: int, column: int) -> str | None:
    """Markdown for a use-after-move (or its move) under (line, column): where the value was moved."""

    def inside(span: Span) -> bool:
        return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)

    for diag in diagnostics:
        if diag.code != "E0382" or not any(inside(lb.span) for lb in diag.all_labels()):
            continue
        moves = [lb for lb in diag.labels if lb.message in (MOVED_HERE, MOVED_IN_LOOP)]
        where = "; ".join(f"line {lb.span.line}, column {lb.span.column} ({lb.message})" for lb in moves)
        name = diag.message.partition(": ")[2] or "the value"
        text = f"{name} was moved: {where}" if where else f"{name} was moved before this use"
        if diag.help:
            text += f"\n\nhelp: {diag.help}"
        return text
    return None
