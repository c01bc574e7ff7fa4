"""CLI exit codes, flags and output formats (the JSON schema is an exact contract)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_samples import NOT_SAFEKERNELS, SIMT_BAD, TILE_BAD, TILE_CLEAN, write

from ownership_check.api import check_paths
from ownership_check.cli import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    return tmp_path


def test_exit_codes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"good.py": TILE_CLEAN, "bad.py": TILE_BAD, "plain.py": NOT_SAFEKERNELS})
    assert main(["good.py", "plain.py", "--no-cache"]) == 0
    assert main(["bad.py", "--no-cache"]) == 1
    assert main(["bad.py", "--no-cache", "--exit-zero"]) == 0
    assert main(["bad.py", "--format", "nope"]) == 2
    assert main(["missing.py"]) == 2
    assert main(["bad.py", "--jobs", "0"]) == 2
    capsys.readouterr()


def test_invalid_config_is_exit_2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"bad.py": TILE_BAD})
    (project / "pyproject.toml").write_text("[tool.ownership-check]\nbogus = 1\n")
    assert main(["bad.py"]) == 2
    assert "bogus" in capsys.readouterr().err


def test_json_schema_exact(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"bad.py": TILE_BAD, "plain.py": NOT_SAFEKERNELS})
    assert main(["bad.py", "plain.py", "--format", "json", "--no-cache"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"version", "files_checked", "diagnostics"}
    assert doc["version"] == 1 and doc["files_checked"] == 2
    [d] = doc["diagnostics"]
    assert set(d) == {
        "code",
        "severity",
        "message",
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "labels",
        "notes",
        "help",
    }
    assert (d["code"], d["path"], d["line"], d["column"]) == ("E0382", "bad.py", 15, 15)
    assert d["message"] == "use of moved value: `z`"
    assert d["help"] == "use the values returned by `sync_on`"
    labels = {(lb["message"], lb["line"], lb["column"], lb["primary"]) for lb in d["labels"]}
    assert labels == {("value moved here", 15, 9, False), ("value used here after move", 15, 15, True)}


def test_directory_paths_are_relative_to_cwd(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"pkg/sub/bad.py": TILE_BAD})
    assert main([str(project / "pkg"), "--format", "concise", "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("pkg/sub/bad.py:15:15: E0382 use of moved value: `z`")


def test_select_and_ignore(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"t.py": TILE_BAD, "s.py": SIMT_BAD})
    assert main([".", "--format", "concise", "--no-cache"]) == 1
    both = capsys.readouterr().out
    assert "E0382" in both and "E0502" in both
    assert main([".", "--format", "concise", "--no-cache", "--select", "E0502"]) == 1
    assert "E0382" not in capsys.readouterr().out
    assert main([".", "--format", "concise", "--no-cache", "--ignore", "E0502,E0382"]) == 0
    assert capsys.readouterr().out == ""


def test_text_sarif_github_render(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"s.py": SIMT_BAD})
    assert main(["s.py", "--no-cache"]) == 1
    text = capsys.readouterr().out
    assert "error[E0502]: cannot borrow `c` as mutable because it is also borrowed as immutable" in text
    assert "--> s.py:23:36" in text
    assert main(["s.py", "--no-cache", "--format", "sarif"]) == 1
    assert json.loads(capsys.readouterr().out)["version"] == "2.1.0"
    assert main(["s.py", "--no-cache", "--format", "github"]) == 1
    assert capsys.readouterr().out.startswith("::error")


def test_python_dash_m_entry_point(project: Path) -> None:
    write(project, {"bad.py": TILE_BAD})
    proc = subprocess.run(
        [sys.executable, "-m", "ownership_check", "bad.py", "--format", "concise", "--no-cache"],
        capture_output=True,
        text=True,
        cwd=project,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("bad.py:15:15: E0382")


def test_syntax_error_is_e0001_and_other_files_still_checked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = "import safekernels\n\ndef f(:\n    pass\n"
    write(project, {"broken.py": broken, "bad.py": TILE_BAD, "plain_broken.py": "def f(:\n"})
    assert main([".", "--format", "concise", "--no-cache"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("broken.py:3:") and " E0001 " in line for line in lines)
    assert any(line.startswith("bad.py:15:15: E0382") for line in lines)
    assert not any(line.startswith("plain_broken.py") for line in lines)


def test_jobs_gives_same_result(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {f"m{i}.py": TILE_BAD if i % 2 else SIMT_BAD for i in range(6)})
    assert main([".", "--format", "json", "--no-cache"]) == 1
    serial = json.loads(capsys.readouterr().out)
    assert main([".", "--format", "json", "--no-cache", "--jobs", "2"]) == 1
    parallel = json.loads(capsys.readouterr().out)
    assert serial == parallel
    assert len(serial["diagnostics"]) == 6


def test_w0003_message_names_a_callee_reached_through_a_call() -> None:
    """`Runner().launch(...)` dropped as a statement: the warning names the callee as written, `()` included."""
    case = Path(__file__).parents[1] / "checker_cases" / "w0003_op_returned_by_method_dropped.py"
    messages = {d.line: d.message for d in check_paths([str(case)], use_cache=False).diagnostics}
    dropped = {line: text for line, text in messages.items() if "DeviceOp" in text}
    assert any("`Runner().launch`" in text for text in dropped.values()), dropped
    assert any("`Runner.build`" in text for text in dropped.values()), dropped
