"""`safekernels explain CODE` prints the error index's section for every documented code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from safekernels.explain import explanation, known_codes
from safekernels.project_links import docs_url

CHECKER_CODES = ["E0382", "E0499", "E0502", "E0505", "E0133", "E0308", "E0001", "W0001", "W0002", "W0003"]


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
    from safekernels.codegen.frontend.codes import SK_CODES

    for code in SK_CODES:
        text = explanation(code)
        assert text is not None, code
        assert any(line.startswith(f"| {code} |") for line in text.splitlines()), code


@pytest.mark.parametrize("code", [*CHECKER_CODES, "SK001", "SK020"])
def test_explanations_are_rendered_for_a_reader(code: str) -> None:
    """No docs-harness markers, and every Markdown link is absolute (pip users have no docs/ folder)."""
    text = explanation(code)
    assert text is not None
    assert "<!--" not in text
    targets = re.findall(r"\]\(([^)]*)\)", text)
    assert all(target.startswith("https://") for target in targets), targets
    assert "https://" in text  # the section's own online address (or the guide's, for SK codes)


def test_relative_links_become_documentation_urls(tmp_path: Path) -> None:
    (tmp_path / "checker.md").write_text(
        "## E0777\n\n<!-- snippet: prelude=simt -->\nSee [E0502](#e0502), [editors](editors.md#mypy) and "
        "[a test](../tests/x.py).\n",
        encoding="utf-8",
    )
    text = explanation("E0777", tmp_path)
    assert text is not None
    assert "snippet" not in text
    assert f"[E0502]({docs_url('checker.md', 'e0502')})" in text
    assert f"[editors]({docs_url('editors.md', 'mypy')})" in text
    assert "[a test](../tests/x.py)" in text  # outside docs/: left as written
    assert text.rstrip().endswith(docs_url("checker.md", "e0777"))


def test_a_missing_index_says_where_to_read_it_online(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import safekernels.explain as explain

    monkeypatch.setattr(explain, "docs_dir", lambda: tmp_path)
    assert explain.main(["E0502"]) == 2
    out = capsys.readouterr().out
    assert "missing from this installation" in out and docs_url("checker.md") in out


def test_an_sk_code_explains_that_code_only() -> None:
    """`explain SK010` is SK010's row, not SK011's row that happens to mention SK010 (issue 25 item 9)."""
    text = explanation("SK010")
    assert text is not None
    rows = [line for line in text.splitlines() if line.startswith("| SK")]
    assert rows and all(row.startswith("| SK010 ") for row in rows), rows
    assert "SK011" not in text


def _explain(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    environment = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "safekernels", "explain", *args], capture_output=True, text=True, env=environment
    )


def test_a_terminal_gets_rendered_markdown_a_pipe_gets_markdown() -> None:
    piped = _explain("E0502")
    assert piped.returncode == 0 and piped.stdout.startswith("## E0502") and "```" in piped.stdout
    rendered = _explain("E0502", FORCE_COLOR="1")  # what a terminal gets
    assert rendered.returncode == 0 and "\x1b[" in rendered.stdout
    assert "## E0502" not in rendered.stdout and "```" not in rendered.stdout  # headings and fences rendered
    assert "cannot borrow `c` as mutable" in rendered.stdout
    raw = _explain("E0502", "--markdown", FORCE_COLOR="1")
    assert raw.stdout == piped.stdout
    plain = _explain("E0502", FORCE_COLOR="1", NO_COLOR="1")  # rendered layout, no colour
    assert "\x1b[3" not in plain.stdout and "## E0502" not in plain.stdout
