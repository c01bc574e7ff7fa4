"""Unsupported Python in a kernel is an SK diagnostic at the right file, line and column, not a traceback."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from ownership_check.diagnostics import DiagnosticError
from safekernels import codegen

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from conftest_helpers import load  # noqa: E402

CASES_PATH = HERE / "sk_cases.py"
CASES = load(CASES_PATH, "sk_cases")


def _expectations() -> dict[int, tuple[str, int]]:
    expected = {}
    for number, line in enumerate(CASES_PATH.read_text().splitlines(), 1):
        m = re.search(r"# expect: (SK\d+):(\d+)", line)
        if m:
            expected[number] = (m.group(1), int(m.group(2)))
    return expected


@pytest.mark.parametrize("fn", CASES.CASES, ids=lambda f: f.__name__)
def test_sk_diagnostic_position(fn: Any) -> None:
    with pytest.raises(DiagnosticError) as info:
        codegen.compile_simt_kernel(fn, arch="sm_90", use_cache=False)
    (diag,) = info.value.diagnostics
    assert diag.path == str(CASES_PATH)
    assert _expectations().get(diag.line) == (diag.code, diag.column), (diag.line, diag.code, diag.message)
    assert diag.message and "Traceback" not in diag.message
    rendered = str(info.value)
    assert rendered.startswith(f"{CASES_PATH}:{diag.line}:{diag.column}: {diag.code} ")


def test_every_expectation_is_exercised() -> None:
    assert len(_expectations()) == len(CASES.CASES)


def test_sk_codes_are_documented() -> None:
    from safekernels.codegen.frontend.codes import SK_CODES, TILE_CODES

    docs = HERE.parents[1] / "docs"
    simt_doc = (docs / "simt-compiler.md").read_text()
    tile_doc = (docs / "tile-compiler.md").read_text()
    for code in SK_CODES:
        assert code in simt_doc or code in tile_doc, code
        if code in TILE_CODES:
            assert code in tile_doc, code
