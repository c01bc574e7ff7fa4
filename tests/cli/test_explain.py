"""`safekernels explain CODE` prints the error index's section for every documented code."""

from __future__ import annotations

import subprocess
import sys

import pytest

from safekernels.explain import explanation, known_codes

CHECKER_CODES = ["E0382", "E0499", "E0502", "E0505", "E0133", "E0308", "E0001", "W0001", "W0002"]


@pytest.mark.parametrize("code", CHECKER_CODES)
def test_every_checker_code_has_an_explanation(code: str) -> None:
    text = explanation(code)
    assert text is not None, code
    assert code in text.splitlines()[0]
    assert "```" in text  # the index shows a failing and a fixed example


def test_explain_command_prints_the_section_and_rejects_unknown_codes() -> None:
    ok = subprocess.run([sys.executable, "-m", "safekernels", "explain", "e0502"], capture_output=True, text=True)
    assert ok.returncode == 0
    assert "E0502" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "safekernels", "explain", "E9999"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "E0382" in bad.stdout  # lists the known codes


def test_known_codes_include_the_checker_codes() -> None:
    assert set(CHECKER_CODES) <= set(known_codes())


def test_every_codegen_code_has_an_explanation() -> None:
    from codegen.frontend.codes import SK_CODES

    for code in SK_CODES:
        text = explanation(code)
        assert text is not None, code
        assert any(line.startswith(f"| {code} |") for line in text.splitlines()), code
