"""The content-hash cache (hits, invalidation, atomic files) and `# ownership: ignore[...]` suppressions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_samples import TILE_BAD, TILE_CLEAN, write

import ownership_check.runner as runner
from ownership_check.cli import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    return tmp_path


@pytest.fixture
def analyses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = runner.analyze_source

    def counting(source: str, path: str, *args: object, **kwargs: object) -> object:
        calls.append(path)
        return real(source, path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "analyze_source", counting)
    return calls


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_cache_hit_and_content_invalidation(
    project: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, {"bad.py": TILE_BAD, "good.py": TILE_CLEAN})
    assert main([".", "--format", "json"]) == 1
    first = _json(capsys)
    assert sorted(analyses) == ["bad.py", "good.py"]
    cache_dir = project / ".ownership_check_cache"
    files = [p.name for p in cache_dir.iterdir()]
    assert any(name.endswith(".json") for name in files)
    assert not any(name.startswith(".tmp-") for name in files)
    analyses.clear()
    assert main([".", "--format", "json"]) == 1
    assert _json(capsys) == first
    assert analyses == []
    (project / "bad.py").write_text(TILE_CLEAN)
    assert main([".", "--format", "json"]) == 0
    assert _json(capsys)["diagnostics"] == []
    assert "bad.py" in analyses


KERNELS = """\
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


def helper(n: int) -> int:
    return n


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(f32(a[i] + b[i]))
"""

MAIN = """\
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32

from kernels import vecadd


def run(dev: sk.Device, stream: sk.Stream) -> None:
    a = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    vecadd.launch(prepared, stream, a, a, a)
"""


def test_editing_a_body_above_a_kernel_reanalyses_only_that_file(
    project: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, {"kernels.py": KERNELS, "main.py": MAIN})
    assert main([".", "--format", "json"]) == 1
    first = _json(capsys)["diagnostics"]
    assert isinstance(first, list) and [d["path"] for d in first] == ["main.py"]
    assert sorted(analyses) == ["kernels.py", "main.py"]
    analyses.clear()
    # the kernel moves down a line: nothing another file reads of it changes
    (project / "kernels.py").write_text(KERNELS.replace("    return n\n", "    n += 1\n    return n\n"))
    assert main([".", "--format", "json"]) == 1
    assert _json(capsys)["diagnostics"] == first
    assert analyses == ["kernels.py"]
    analyses.clear()
    # its parameters change (c becomes shared): what main.py's launch means changes, so main.py is analysed again
    (project / "kernels.py").write_text(KERNELS.replace("c: DisjointSlice[f32]", "c: Slice[f32]"))
    assert main([".", "--format", "json"]) in (0, 1)
    capsys.readouterr()
    assert sorted(analyses) == ["kernels.py", "main.py"]


def test_cache_invalidated_by_config_and_bypassed_by_no_cache(
    project: Path, analyses: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, {"bad.py": TILE_BAD})
    assert main(["."]) == 1
    analyses.clear()
    (project / "pyproject.toml").write_text("[tool.ownership-check]\nignore = ['E0505']\n")
    assert main(["."]) == 1
    assert analyses == ["bad.py"]
    analyses.clear()
    assert main([".", "--no-cache"]) == 1
    assert analyses == ["bad.py"]
    capsys.readouterr()


def test_corrupt_cache_is_ignored(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, {"bad.py": TILE_BAD})
    assert main(["."]) == 1
    for p in (project / ".ownership_check_cache").glob("*.json"):
        p.write_text("{not json")
    assert main([".", "--format", "concise"]) == 1
    assert "E0382" in capsys.readouterr().out


def test_suppression_and_unused_warning(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suppressed = TILE_BAD.replace(
        "add(z, x, z).sync()", "add(z, x, z).sync()  # ownership: ignore[E0382] known, see #12"
    )
    write(project, {"s.py": suppressed})
    assert main(["s.py", "--no-cache", "--format", "concise"]) == 0
    assert capsys.readouterr().out == ""
    wrong = TILE_BAD.replace("add(z, x, z).sync()", "add(z, x, z).sync()  # ownership: ignore[E0502]")
    write(project, {"w.py": wrong})
    assert main(["w.py", "--no-cache", "--format", "concise"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(" E0382 " in line for line in out)
    assert any(" W0001 unused suppression `# ownership: ignore[E0502]`" in line for line in out)
    unused = TILE_CLEAN.replace("print(z, x, y)", "print(z, x, y)  # ownership: ignore[E0382]")
    write(project, {"u.py": unused})
    assert main(["u.py", "--no-cache", "--format", "concise"]) == 1
    assert capsys.readouterr().out.startswith("u.py:16:21: W0001")
    assert main(["u.py", "--no-cache", "--ignore", "W0001"]) == 0
    capsys.readouterr()


def test_suppression_inside_string_does_not_count(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = TILE_BAD.replace("add(z, x, z).sync()", "add(z, x, z).sync(); s = '# ownership: ignore[E0382]'")
    write(project, {"s.py": text})
    assert main(["s.py", "--no-cache", "--format", "concise"]) == 1
    assert " E0382 " in capsys.readouterr().out


def test_excludes_from_pyproject(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.ownership-check]\nexclude = ['build', 'gen/*_pb.py', 'docs/examples/']\n"
    )
    write(
        project,
        {
            "src/bad.py": TILE_BAD,
            "build/bad.py": TILE_BAD,
            "src/build/bad.py": TILE_BAD,
            "gen/x_pb.py": TILE_BAD,
            "gen/keep.py": TILE_BAD,
            "docs/examples/bad.py": TILE_BAD,
        },
    )
    assert main([".", "--format", "concise", "--no-cache"]) == 1
    paths = sorted(line.split(":")[0] for line in capsys.readouterr().out.splitlines())
    assert paths == ["gen/keep.py", "src/bad.py"]
    assert main(["build/bad.py", "--format", "concise", "--no-cache"]) == 1
    capsys.readouterr()
