"""Front-end differential fuzzing, bounded for CI: random programs over the safekernels API through the CLI, the mypy
plugin and the CPU executor; and programs over the whole ownership table (`surface.py`), with its coverage.

Asserted for every generated program: no internal error in either front end; the CLI and the plugin report the same
ownership diagnostics (code, line and column) wherever mypy types the program (see `differential.py` for the rest,
counted apart); and every line from which the runtime raised `UseAfterMoveError`/`AliasingError`/`BorrowError` is a
line the static checker reports.  The long runs (`run_long.py`, `run_surface.py`) and their counts are in
docs/checker-internals.md; `SAFEKERNELS_SURFACE_PROGRAMS=N` runs N surface programs here instead of the CI few.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("libcst")
pytest.importorskip("mypy")

from differential import Counts, describe, run_batch
from plugin_cases import _warm_cache
from programs import programs
from surface import (
    FLOW_FORMS,
    STDLIB_TEMPLATES,
    TEMPLATES,
    coverage,
    expression_forms,
    random_program,
    table_entries,
)
from surface_run import SurfaceReport, run_surface

BATCH = 12
#: Surface programs checked and run in CI (a few seconds with the warm mypy cache); the long run is run_surface.py.
SURFACE_PROGRAMS = int(os.environ.get("SAFEKERNELS_SURFACE_PROGRAMS", "8"))


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = tmp_path_factory.mktemp("fuzz-mypy") / "cache"
    shutil.copytree(_warm_cache(), cache)
    return cache


@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
@given(batch=st.lists(programs(), min_size=BATCH, max_size=BATCH))
def test_front_ends_agree_and_cover_the_runtime(
    batch: list[str], mypy_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outcomes = run_batch(batch, tmp_path_factory.mktemp("fuzz"), mypy_cache)
    counts = Counts()
    for outcome in outcomes:
        counts.add(outcome)
    bad = [o for o in outcomes if o.internal_errors or (o.disagrees and o.typed) or o.missed_runtime_lines]
    assert not bad, f"{counts}\n" + "\n\n".join(describe(o) for o in bad[:3])
    assert counts.typed >= BATCH // 2, counts  # the generator keeps producing programs mypy can type


def test_the_generator_covers_every_construct() -> None:
    """Over a few hundred seeded programs, every statement kind the checker lowers shows up."""
    from programs import random_program

    text = "\n".join(random_program(seed) for seed in range(200))
    for construct in (
        "launch_async(", ".sync_on(stream)", "op = add(", ".view(", "[0:32]", "for _ in range(k):", "while n1 < k:",
        "try:", "finally:", "except RuntimeError:", "match k:", " if add(", "contextlib.suppress", "break",
        "continue", "return", "a, c = c, a", "a = b = ", "for out, inp in ", "else:", "if p is not None:",
    ):
        assert construct in text, construct


def test_every_ownership_table_entry_has_a_template_and_is_generated() -> None:
    """The grammar is built from the table: an entry without a template fails here the day it lands, and over a
    few hundred seeded programs (600) every entry, expression form and flow form is generated at least 10 times."""
    assert set(TEMPLATES) == set(table_entries())
    entries, expressions, flows = coverage([random_program(seed) for seed in range(600)])
    assert set(expressions) == set(expression_forms()) and set(flows) == set(FLOW_FORMS)
    under = {name: n for counts in (entries, expressions, flows) for name, n in counts.items() if n < 10}
    assert under == {}, under


def test_every_stdlib_table_entry_has_a_template() -> None:
    """The checker's standard-library table (what `next`, `itertools.cycle`, `zip`... give) is part of the grammar:
    an entry without an expression template fails here the day it lands."""
    from ownership_check.core.stdlib_flow import STDLIB_FLOWS

    assert set(STDLIB_TEMPLATES) == set(STDLIB_FLOWS)


def test_surface_programs_agree_and_cover_the_runtime(mypy_cache: Path, tmp_path: Path) -> None:
    """The runtime is the oracle: no runtime ownership error on a line neither front end reports (outside the
    forms the error index says the checker does not follow, counted apart), no internal error, and the CLI and
    the plugin agree on codes, positions and notes wherever mypy types the program."""
    report = SurfaceReport()
    run_surface([random_program(seed, 6) for seed in range(SURFACE_PROGRAMS)], tmp_path, mypy_cache, report)
    print(report.table(0))
    assert report.failures() == [], "\n".join([report.table(0), *report.failures()])
