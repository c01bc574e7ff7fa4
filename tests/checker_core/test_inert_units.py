"""Skipping a unit before lowering it changes nothing (`frontend/inert_units.py`).

Over every golden case, every fresh program and the examples: each unit the test skips is lowered anyway, and
must lower to no ownership operation and define no nested unit; and the lowered module (what the core checks) is
the same with and without the skipping.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ownership_check.frontend import ast_lowering
from ownership_check.frontend.ast_lowering import FileContext, FunctionLowerer, Unit, lower_module
from ownership_check.frontend.inert_units import InertUnits, table_names
from ownership_check.frontend.prescan import mentions_marker, summarize_and_measure
from ownership_check.frontend.project_index import ProjectIndex

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    [
        *(ROOT / "tests" / "checker_cases").rglob("*.py"),
        *(ROOT / "tests" / "checker_fresh" / "programs").glob("*.py"),
        *(ROOT / "examples").rglob("*.py"),
    ]
)


def _context(path: Path) -> tuple[FileContext, ast.Module] | None:
    data = path.read_bytes()
    try:
        source = data.decode("utf-8")
        tree = ast.parse(source)
    except (UnicodeDecodeError, SyntaxError, ValueError):
        return None
    summary, _ = summarize_and_measure(tree, str(path), mentions_marker(data), path.stem)
    if summary is None:
        return None
    return FileContext(source, str(path), summary, ProjectIndex([summary]), tree), tree


def _inert(ctx: FileContext, module: ast.Module) -> InertUnits:
    return InertUnits(ctx.source, ctx.line_starts, module, ctx.summary, ctx.index)


def _lower_all(ctx: FileContext, module: ast.Module) -> tuple[list[object], list[str]]:
    """`lower_module` without the skipping; also the units the test would have skipped but that lower to
    something or define a nested unit (each a failure)."""
    inert = _inert(ctx, module)
    out: list[object] = []
    wrong: list[str] = []
    pending = [Unit("<module>", module, "module")]
    while pending:
        unit = pending.pop(0)
        lowerer = FunctionLowerer(ctx, unit)
        function = lowerer.lower()
        if inert.skips(unit) and (lowerer.interesting or lowerer.nested):
            wrong.append(f"{unit.name} ({unit.kind}) at line {getattr(unit.node, 'lineno', 1)}")
        if lowerer.interesting:
            out.append(function)
        pending.extend(lowerer.nested)
    return out, wrong


def test_the_corpora_are_there() -> None:
    assert len(FILES) > 500


def test_the_table_names_include_every_moving_and_unsafe_name() -> None:
    names = table_names()
    for name in ("sync_on", "partition", "to_numpy", "launch_async", "launch_unchecked", "get_mut", "prepare",
                 "Tensor", "SharedArray", "shared_array", "unsafe", "as_buffer", "kernel", "autotune"):
        assert name in names


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_skipped_unit_lowers_to_nothing_and_skipping_changes_nothing(path: Path) -> None:
    found = _context(path)
    if found is None:
        pytest.skip("not a parsable UTF-8 file with a summary")
    ctx, module = found
    everything, wrong = _lower_all(ctx, module)
    assert wrong == []
    fresh = _context(path)
    assert fresh is not None
    skipped = lower_module(*fresh)
    assert skipped == everything


def test_a_unit_that_mentions_a_table_name_is_lowered() -> None:
    source = "import safekernels as sk\n\ndef f(x):\n    return x.sync_on(None)\n\ndef g(n):\n    return n + 1\n"
    tree = ast.parse(source)
    summary, _ = summarize_and_measure(tree, "m.py", True, "m")
    assert summary is not None
    inert = InertUnits(source, [0, *(i + 1 for i, c in enumerate(source) if c == "\n")], tree, summary,
                       ProjectIndex([summary]))
    f, g = (Unit(d.name, d, "function") for d in tree.body[1:] if isinstance(d, ast.FunctionDef))
    assert not inert.skips(f)
    assert inert.skips(g)
    assert ast_lowering.InertUnits is InertUnits
