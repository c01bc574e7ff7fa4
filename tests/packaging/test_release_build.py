"""What a release needs (issue 25 items 1 and 10): `python -m build` makes an sdist and a wheel whose metadata a
package index accepts, from a copy of the checkout's release files.

`build` makes the sdist, then the wheel from the sdist, as a release does.  Both must hold
exactly one copy of the compiler and no link; the wheel installs it as `safekernels.codegen` and no top-level
`codegen`.  The metadata is checked as PyPI would (name, version, license expression, README as Markdown, project
URLs, requirements), and with `twine check --strict` where twine is installed (the release job of
docs/ci-recipes.md installs it; it is not in `[dev]`, its dependency tree is large).

Cost: ~30-40 s (an isolated build environment: setuptools from pip's cache or the index).  Marked `slow`.
"""

from __future__ import annotations

import email.parser
import importlib.util
import shutil
import stat
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SOURCES = (
    "pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "CHANGELOG.md", "src", "mypy_plugin", "docs", "examples",
)  # fmt: skip
_JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".mypy_cache", ".pytest_cache", "build", "dist")
#: Modules of the compiler whose copies are counted (one each in the sdist and the wheel).
COMPILER_FILES = ("pipeline.py", "build_cli.py", "sass_summary.py")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("build") is None:
        pytest.skip("`build` is not installed (it is in the [dev] extra)")
    root = tmp_path_factory.mktemp("release")
    source = root / "checkout"
    source.mkdir()
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=_JUNK, symlinks=True)
        else:
            shutil.copy2(path, source / name)
    out = root / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0 and "Could not find a version that satisfies the requirement setuptools" in proc.stdout:
        pytest.skip("no package index or pip cache for the isolated build environment (offline)")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return out


def _version() -> str:
    return str(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])


def test_sdist_holds_one_copy_of_the_compiler_and_no_link(dist: Path) -> None:
    (sdist,) = dist.glob("safekernels-*.tar.gz")
    assert sdist.name == f"safekernels-{_version()}.tar.gz"
    with tarfile.open(sdist) as archive:
        members = archive.getmembers()
    assert [m.name for m in members if m.issym() or m.islnk()] == []
    names = [m.name.split("/", 1)[1] for m in members if "/" in m.name]
    for module in COMPILER_FILES:
        home = f"src/safekernels/codegen/{module}"
        assert [n for n in names if n.endswith(f"/{module}") and "/tile/" not in n] == [home], module
    assert {"CHANGELOG.md", "README.md", "docs/checker.md", "docs/reference.md"} <= set(names)


def test_wheel_holds_one_copy_of_the_compiler_as_safekernels_codegen_and_no_link(dist: Path) -> None:
    (wheel,) = dist.glob("safekernels-*.whl")
    assert wheel.name == f"safekernels-{_version()}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos if stat.S_ISLNK(i.external_attr >> 16)] == []
    names = [i.filename for i in infos]
    for module in COMPILER_FILES:
        assert [n for n in names if n.endswith(f"/{module}") and "/tile/" not in n] == [f"safekernels/codegen/{module}"]
    assert "safekernels/codegen/frontend/__init__.py" in names and "safekernels/codegen/py.typed" in names
    top = {n.split("/", 1)[0] for n in names if "/" in n and not n.split("/", 1)[0].endswith(".dist-info")}
    assert top == {"safekernels", "ownership_check", "mypy_plugin"}  # never a top-level `codegen`


def test_wheel_metadata_is_what_an_index_accepts(dist: Path) -> None:
    (wheel,) = dist.glob("safekernels-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"safekernels-{_version()}.dist-info/METADATA").decode("utf-8")
    message = email.parser.Parser().parsestr(metadata)
    assert message["Name"] == "safekernels" and message["Version"] == _version()
    assert float(message["Metadata-Version"]) >= 2.4  # License-Expression needs 2.4
    assert message["License-Expression"] == "Apache-2.0"
    assert message["Requires-Python"] == ">=3.11"
    assert message["Description-Content-Type"] == "text/markdown"
    assert message.get_payload().strip() == (REPO / "README.md").read_text(encoding="utf-8").strip()
    urls = dict(value.split(", ", 1) for value in message.get_all("Project-URL", []))
    assert {"Homepage", "Documentation", "Repository", "Issues"} <= set(urls)
    requires = message.get_all("Requires-Dist", [])
    assert any(r.startswith("numpy") for r in requires) and any('extra == "dev"' in r for r in requires)


def test_twine_check(dist: Path) -> None:
    if importlib.util.find_spec("twine") is None:
        pytest.skip("twine is not installed here (the release job installs it: docs/ci-recipes.md)")
    proc = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
