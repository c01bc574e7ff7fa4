"""`safekernels build`: tile kernels with declared or command-line specializations, the manifest, and the
clear errors of issue 15 item 16 / issue 16 item 7 (bad -o, bad --arch, shadowing file names, __main__ code,
two kernels with one name)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def build(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    # an absolute PYTHONPATH: a relative entry such as "." would itself put the kernel's folder on sys.path
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "safekernels", "build", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def test_add_tile_example_builds_as_is(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = build(str(ROOT / "examples" / "add_tile.py"), "--emit", "ptx", "-o", str(out), "--no-check")
    assert result.returncode == 0, result.stderr
    assert ".visible .entry add(" in (out / "add.ptx").read_text()
    manifest = json.loads((out / "manifest.json").read_text())
    (entry,) = manifest["kernels"]
    assert entry["track"] == "tile" and entry["name"] == "add" and entry["files"] == {"ptx": "add.ptx"}
    assert [s[4] for s in entry["specialization"]] == [[128], None, None]
    assert "PASSED" not in result.stdout  # the example's __main__ block did not run


SIMT_FILE = """
from safekernels import simt, tile
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32

@simt.kernel
@simt.launch_contract(block=32)
def copy(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])

def _twice(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * 2.0)

other = simt.kernel(simt.launch_contract(block=32)(_twice))
other.name = "copy"  # a second kernel with the same name

@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32], s: f32) -> None:
    z.store(tile.load_like(x, z) * s)

print("TOP LEVEL RAN")
if __name__ == "__main__":
    print("MAIN RAN")
"""


@pytest.mark.parametrize("name", ["json.py", "inspect.py", "numpy.py", "codegen.py"])
def test_shadowing_file_names_build_and_main_does_not_run(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "kernels"  # not the working directory: `-m`'s cwd entry is another matter
    folder.mkdir()
    src = folder / name
    src.write_text(textwrap.dedent(SIMT_FILE))
    out = tmp_path / "out"
    result = build(
        str(src),
        "--emit",
        "ptx",
        "-o",
        str(out),
        "--no-check",
        "--specialize",
        "scale:f32[256]/[64],f32[256],f32",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "MAIN RAN" not in result.stdout and "TOP LEVEL RAN" in result.stdout  # documented: top level runs
    files = sorted(p.name for p in out.iterdir())
    assert "copy.copy.ptx" in files and "copy.other.ptx" in files  # neither output is lost
    assert "scale.ptx" in files
    assert "* 2.0" not in (out / "copy.copy.ptx").read_text()


def test_tile_kernel_without_specialization_is_an_error(tmp_path: Path) -> None:
    src = tmp_path / "k.py"
    src.write_text(textwrap.dedent(SIMT_FILE))
    result = build(str(src), "--emit", "ptx", "-o", str(tmp_path / "o"), "--no-check")
    assert result.returncode == 1
    assert "tile kernel `scale` has no specialization" in result.stderr


@pytest.mark.parametrize("arch", ["sm_70", "90", "sm_100"])
def test_bad_arch_lists_the_supported_ones(tmp_path: Path, arch: str) -> None:
    result = build(str(ROOT / "examples" / "add_tile.py"), "--emit", "ptx", "-o", str(tmp_path), "--arch", arch)
    assert result.returncode == 2
    assert "unsupported GPU architecture" in result.stderr and "sm_80, sm_86" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_output_folders_are_clear_errors(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    cases = [str(a_file), str(a_file / "below"), "/dev/null"]
    if not (hasattr(__import__("os"), "geteuid") and __import__("os").geteuid() == 0):
        cases.append(str(locked / "sub"))
    try:
        for out in cases:
            result = build(str(ROOT / "examples" / "add_tile.py"), "--emit", "ptx", "-o", out, "--no-check")
            assert result.returncode == 2, (out, result.stderr)
            assert f"-o {out}:" in result.stderr and "Traceback" not in result.stderr
    finally:
        locked.chmod(0o700)


def test_definition_error_in_the_file_is_a_located_message(tmp_path: Path) -> None:
    src = tmp_path / "bad.py"
    src.write_text("from safekernels import simt\n\n@simt.kernel\ndef k(a) -> None:\n    pass\n")
    result = build(str(src), "--emit", "ptx", "-o", str(tmp_path / "o"), "--no-check")
    assert result.returncode == 1
    assert f"{src}:4:7: SK011" in result.stderr and "Traceback" not in result.stderr
