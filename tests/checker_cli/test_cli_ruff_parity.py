"""The flags users of ruff expect (issue 25 item 5) and unknown codes refused (issue 20 Deliver 4).

Every test drives the real entry point (`main`, or the installed console script through a subprocess where a
terminal, stdin or the environment matters) on a project with one known E0382 (`bad.py`, line 15, column 15).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_samples import TILE_BAD, TILE_CLEAN, write

from ownership_check import cli
from ownership_check.cli import main
from ownership_check.config import known_codes
from safekernels.cli import main as safekernels_main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    write(tmp_path, {"bad.py": TILE_BAD, "good.py": TILE_CLEAN})
    return tmp_path


def _run(
    args: list[str], cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ownership_check", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


@pytest.mark.parametrize(
    ("flags", "bad"),
    [
        (["--select", "E9999"], "E9999"),
        (["--ignore", "E0502,X1"], "X1"),
        (["--select", "e05,EE"], "EE"),
    ],
)
def test_unknown_codes_on_the_command_line_are_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str], flags: list[str], bad: str
) -> None:
    assert main(["bad.py", "--no-cache", *flags]) == 2
    err = capsys.readouterr().err
    assert f"unknown code '{bad}'" in err
    assert all(code in err for code in known_codes())  # the valid set is named


def test_prefixes_of_known_codes_are_accepted(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bad.py", "--no-cache", "--select", "e03", "--format", "concise"]) == 1
    assert "E0382" in capsys.readouterr().out


def test_unknown_codes_in_the_config_are_exit_2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text('[tool.ownership-check]\nselect = ["E9999"]\n')
    assert main(["bad.py", "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml" in err and "unknown code 'E9999'" in err and "E0502" in err
    (project / "pyproject.toml").write_text('[tool.ownership-check.per-file-ignores]\n"bad.py" = ["E0383"]\n')
    assert main(["bad.py", "--no-cache"]) == 2
    assert "unknown code 'E0383'" in capsys.readouterr().err


def test_unknown_codes_through_pre_commit_entry(project: Path) -> None:
    """pre-commit runs the console script with the staged files: the same refusal, exit 2."""
    proc = _run(["--select", "E9999", "bad.py", "good.py"], project)
    assert proc.returncode == 2 and "unknown code 'E9999'" in proc.stderr and proc.stdout == ""


def test_unknown_codes_in_mypy_config_are_refused_by_mypy(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x: int = 1\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["mypy_plugin"]\ndisable_error_code = ["E9999"]\n'
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "a.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert proc.returncode == 2 and "Invalid error code(s): E9999" in proc.stdout + proc.stderr


def test_per_file_ignores(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text('[tool.ownership-check.per-file-ignores]\n"b*.py" = ["E03"]\n')
    (project / "sub").mkdir()
    write(project, {"sub/bad.py": TILE_BAD})
    assert main(["bad.py", "--no-cache"]) == 0  # matched by the basename glob
    (project / "pyproject.toml").write_text('[tool.ownership-check.per-file-ignores]\n"/bad.py" = ["E0382"]\n')
    assert main([".", "--no-cache", "--format", "concise"]) == 1  # anchored: only the top-level file
    out = capsys.readouterr().out
    assert "sub/bad.py:15:15: E0382" in out and "\nbad.py" not in f"\n{out}"
    (project / "pyproject.toml").write_text('[tool.ownership-check]\nper-file-ignores = ["bad.py"]\n')
    assert main(["bad.py", "--no-cache"]) == 2
    assert "per-file-ignores" in capsys.readouterr().err


def test_version_and_output_format_alias(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"ownership-check {version('safekernels')}\n"
    assert main(["bad.py", "--no-cache", "--output-format", "concise"]) == 1
    assert capsys.readouterr().out.startswith("bad.py:15:15: E0382")


def test_statistics(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"bad2.py": TILE_BAD})
    assert main(["bad.py", "bad2.py", "--no-cache", "--statistics"]) == 1
    assert capsys.readouterr().out == "2\tE0382\tuse-after-move\n"
    assert main(["bad.py", "--no-cache", "--statistics", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out) == [{"code": "E0382", "name": "use-after-move", "count": 1}]
    assert main(["good.py", "--no-cache", "--statistics"]) == 0
    assert capsys.readouterr().out == ""


def test_stdin_with_filename(project: Path) -> None:
    proc = _run(["-", "--stdin-filename", "editor/buffer.py", "--format", "concise"], project, stdin=TILE_BAD)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("editor/buffer.py:15:15: E0382")
    clean = _run(["-", "--stdin-filename", "x.py"], project, stdin=TILE_CLEAN)
    assert clean.returncode == 0 and "No problems found" in clean.stdout
    (project / "pyproject.toml").write_text('[tool.ownership-check.per-file-ignores]\n"editor/*" = ["E0382"]\n')
    assert _run(["-", "--stdin-filename", "editor/buffer.py"], project, stdin=TILE_BAD).returncode == 0
    assert _run(["-", "bad.py"], project, stdin="").returncode == 2
    assert _run(["bad.py", "--stdin-filename", "x.py"], project).returncode == 2


def test_color_flag_and_environment(project: Path) -> None:
    escape = "\x1b["
    assert escape in _run(["bad.py", "--no-cache", "--color", "always"], project).stdout
    assert escape in _run(["bad.py", "--no-cache"], project, env={"FORCE_COLOR": "1"}).stdout
    no_color = {"FORCE_COLOR": "1", "NO_COLOR": "1"}
    assert escape not in _run(["bad.py", "--no-cache"], project, env=no_color).stdout
    assert escape in _run(["bad.py", "--no-cache", "--color", "always"], project, env=no_color).stdout
    assert escape not in _run(["bad.py", "--no-cache", "--color", "never"], project, env={"FORCE_COLOR": "1"}).stdout
    assert escape not in _run(["bad.py", "--no-cache"], project).stdout  # a pipe is not a terminal


def test_gitlab_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"bad2.py": TILE_BAD})
    assert main(["bad.py", "bad2.py", "--no-cache", "--format", "gitlab"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [r["location"] for r in report] == [
        {"path": "bad.py", "lines": {"begin": 15, "end": 15}},
        {"path": "bad2.py", "lines": {"begin": 15, "end": 15}},
    ]
    assert report[0]["check_name"] == "E0382" and report[0]["severity"] == "major"
    assert len({r["fingerprint"] for r in report}) == 2
    # the fingerprint survives unrelated lines being added above the finding
    (project / "bad.py").write_text("# a comment\n" + TILE_BAD)
    assert main(["bad.py", "--no-cache", "--format", "gitlab"]) == 1
    moved = json.loads(capsys.readouterr().out)
    assert moved[0]["fingerprint"] == report[0]["fingerprint"] and moved[0]["location"]["lines"]["begin"] == 16
    assert main(["good.py", "--no-cache", "--format", "gitlab"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_junit_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bad.py", "--no-cache", "--format", "junit"]) == 1
    root = ET.fromstring(capsys.readouterr().out)
    assert root.tag == "testsuites" and root.get("failures") == "1"
    (case,) = root.iter("testcase")
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "E0382"
    assert (failure.text or "").startswith("bad.py:15:15: E0382")
    assert main(["good.py", "--no-cache", "--format", "junit"]) == 0
    clean = ET.fromstring(capsys.readouterr().out)
    assert clean.get("failures") == "0" and len(list(clean.iter("testcase"))) == 1


def test_progress_line_only_on_a_terminal_for_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal:
        def __init__(self, tty: bool) -> None:
            self.tty = tty
            self.text = ""

        def isatty(self) -> bool:
            return self.tty

        def write(self, text: str) -> int:
            self.text += text
            return len(text)

        def flush(self) -> None:
            pass

    import time

    monkeypatch.setattr(cli, "PROGRESS_AFTER_S", 0.05)
    term = Terminal(True)
    with cli._progress(term, "src/"):  # type: ignore[arg-type]
        time.sleep(0.3)
    assert "checking src/…" in term.text and term.text.endswith("\r\x1b[2K")  # shown, then erased
    quick = Terminal(True)
    monkeypatch.setattr(cli, "PROGRESS_AFTER_S", 5.0)
    with cli._progress(quick, "src/"):  # type: ignore[arg-type]
        pass
    assert quick.text == ""
    pipe = Terminal(False)
    monkeypatch.setattr(cli, "PROGRESS_AFTER_S", 0.0)
    with cli._progress(pipe, "src/"):  # type: ignore[arg-type]
        time.sleep(0.1)
    assert pipe.text == ""


def test_safekernels_check_help_names_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert safekernels_main(["check", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: safekernels check ") and "ownership-check" not in out.splitlines()[0]


def test_console_script_version() -> None:
    script = shutil.which("ownership-check", path=str(Path(sys.executable).parent)) or shutil.which("ownership-check")
    assert script is not None, "the ownership-check console script is not installed beside this Python"
    proc = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("ownership-check ")


def test_every_documented_code_can_be_selected() -> None:
    """`--select`/`ignore` accept exactly the catalog's codes: every code of the error index must be one of them."""
    import re

    index = (Path(__file__).resolve().parents[2] / "docs" / "checker.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^## ([EW]\d{4})$", index, re.M))
    assert documented and documented <= set(known_codes())
