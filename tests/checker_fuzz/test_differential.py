"""Front-end differential fuzzing, bounded for CI: random programs over the safekernels API through the CLI, the mypy
plugin and the CPU executor.

Asserted for every generated program: no internal error in either front end; the CLI and the plugin report the same
ownership diagnostics (code, line and column) wherever mypy types the program (see `differential.py` for the rest,
counted apart); and every line from which the runtime raised `UseAfterMoveError`/`AliasingError`/`BorrowError` is a
line the static checker reports.  The long run (`run_long.py`) and its counts are in docs/checker-internals.md.
"""

from __future__ import annotations

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

BATCH = 12


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
