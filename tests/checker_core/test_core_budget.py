"""A function whose fixed point runs out of its step budget is reported W0002, never silently trusted."""

from __future__ import annotations

import pytest
from core_ir_builders import fn, fresh, move, use

from ownership_check.api import check_source
from ownership_check.core import check_function, checker

SOURCE = """\
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z))


def step(stream: sk.Stream) -> None:
    x = tile.zeros((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
    z, x = add(z, x).sync_on(stream)
"""


def _starved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checker, "STEP_BUDGET_PER_NODE", 0)
    monkeypatch.setattr(checker, "STEP_BUDGET_BASE", 0)


def test_a_settled_analysis_reports_no_w0002() -> None:
    function = fn(fresh("z", 1), move("z", 2), use("z", 3))
    assert [d.code for d in check_function(function)] == ["E0382"]
    assert [d.code for d in check_source(SOURCE, "step.py")] == []


def test_budget_exhaustion_is_w0002_naming_the_function(monkeypatch: pytest.MonkeyPatch) -> None:
    _starved(monkeypatch)
    [d] = [d for d in check_function(fn(fresh("z", 1), move("z", 2), use("z", 3))) if d.code == "W0002"]
    assert d.message == (
        "ownership of this file was not checked: the analysis of `f` stopped before it converged "
        "(please report this file)"
    )


def test_the_cli_front_end_reports_it_at_the_function(monkeypatch: pytest.MonkeyPatch) -> None:
    _starved(monkeypatch)
    found = [(d.code, d.span.line) for d in check_source(SOURCE, "step.py") if d.code == "W0002"]
    assert ("W0002", 12) in found
