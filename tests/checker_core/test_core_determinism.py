"""The core's answer depends on the IR only: not on what it checked before, nor on where objects were allocated.

The checker memoises per place by identity; a memo keyed by a bare `id()` read the entry of a freed place whose
`id` a new one reused, and a report came and went with the allocator (with the files analysed before, in a CLI
run over a folder or in mypy).  Checking one function many times in a row, with other work in between, must give
the same diagnostics every time.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ownership_check.core import check_function, ir
from ownership_check.frontend.ast_lowering import FileContext, lower_module
from ownership_check.frontend.prescan import summarize
from ownership_check.frontend.project_index import ProjectIndex

CASES = Path(__file__).resolve().parent.parent / "checker_cases"


def _functions(name: str) -> list[ir.Function]:
    path = CASES / name
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    summary = summarize(tree, str(path), True, module=path.stem)
    return lower_module(FileContext(source, str(path), summary, ProjectIndex([summary]), tree), tree)


def _shown(function: ir.Function) -> list[tuple[str, int, int, str]]:
    return [(d.code, d.span.line, d.span.column, d.message) for d in check_function(function)]


def test_a_function_checked_again_gets_the_same_diagnostics() -> None:
    functions = _functions("e0382_item_of_ops_a_combinator_consumed.py")
    twins = _functions("clean_item_of_ops_a_combinator_consumed.py")
    first = {f.name: _shown(f) for f in functions}
    assert any(d[3] == "use of moved value: `self.panes[brightest]`" for d in first["Window.render"])
    for _ in range(8):
        for twin in twins:
            check_function(twin)
        for f in functions:
            assert _shown(f) == first[f.name], f.name
