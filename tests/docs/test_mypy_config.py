"""One recommended mypy configuration (issue 25 item 2): the same on every page and in the scaffold, and tested.

Every ```toml block of docs/*.md and README.md that has a `[tool.mypy]` table, every ```ini block with a `[mypy]`
section and the `safekernels new` pyproject.toml must set exactly `RECOMMENDED` (a project's own `mypy_path` aside);
mypy with that configuration must pass over every shipped example and the documented tile idiom
`z, x, y = add(z, x, y).sync_on(stream)`.  (The docs' code blocks are type-checked with it in test_doc_snippets.py.)
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from safekernels import scaffold

REPO = Path(__file__).resolve().parents[2]
PAGES = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]

RECOMMENDED: dict[str, Any] = {
    "plugins": ["mypy_plugin"],
    "check_untyped_defs": True,
    "allow_redefinition_new": True,
    "local_partial_types": True,
}
#: Keys a page or the scaffold may add: where the project's own sources live.
PROJECT_KEYS = {"mypy_path"}

_FENCED = re.compile(r"^```(toml|ini)\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _mypy_tables() -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _FENCED.finditer(text):
            where = f"{page.relative_to(REPO)}:{text[: match.start()].count(chr(10)) + 1}"
            if match.group(1) == "toml":
                table = tomllib.loads(match.group(2)).get("tool", {}).get("mypy")
                if table is not None:
                    found.append((where, table))
            else:
                parser = configparser.ConfigParser()
                parser.read_string(match.group(2))
                if parser.has_section("mypy"):
                    section = parser["mypy"]
                    found.append(
                        (
                            where,
                            {
                                key: [v.strip() for v in value.split(",")]
                                if key == "plugins"
                                else section.getboolean(key)
                                if value in ("True", "False", "true", "false")
                                else value
                                for key, value in section.items()
                            },
                        )
                    )
    return found


def test_every_page_gives_the_recommended_configuration() -> None:
    tables = _mypy_tables()
    assert len(tables) >= 5  # quickstart, checker, ci-recipes, editors (toml and ini)
    wrong = {
        where: table
        for where, table in tables
        if {k: v for k, v in table.items() if k not in PROJECT_KEYS} != RECOMMENDED
    }
    assert wrong == {}


def test_the_scaffold_uses_the_recommended_configuration() -> None:
    table = tomllib.loads(scaffold._PYPROJECT.format(name="demo"))["tool"]["mypy"]
    assert {k: v for k, v in table.items() if k not in PROJECT_KEYS} == RECOMMENDED


def test_the_snippet_test_type_checks_with_the_recommended_configuration() -> None:
    spec = importlib.util.spec_from_file_location("_doc_snippets", REPO / "tests" / "docs" / "test_doc_snippets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    table = tomllib.loads(module.MYPY_CONFIG)["tool"]["mypy"]
    assert {k: v for k, v in table.items() if k not in PROJECT_KEYS | {"overrides"}} == RECOMMENDED


def _config(extra: str = "") -> str:
    lines = [f"{key} = {json.dumps(value)}" for key, value in RECOMMENDED.items()]
    return (
        "[tool.mypy]\n"
        + "\n".join(lines)
        + f"\nmypy_path = {json.dumps(str(REPO / 'src'))}\n"
        + extra
        # the library itself is read as source from the checkout: its own strictness is not under test here
        + '\n[[tool.mypy.overrides]]\nmodule = ["safekernels.*", "ownership_check.*", "llvmlite.*", "cuda.*"]\n'
        'follow_imports = "silent"\nignore_missing_imports = true\n'
    )


IDIOM = """\
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    z, x, y = add(z, x, y).sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:4], x, y)
"""


def test_mypy_with_the_recommended_configuration_passes_every_example_and_the_idiom(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    examples = sorted((REPO / "examples").glob("*.py"))
    assert len(examples) >= 8
    for path in examples:
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "tile_idiom.py").write_text(IDIOM, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(_config(), encoding="utf-8")
    files = [p.name for p in examples] + ["tile_idiom.py"]
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", *files],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    own = [line for line in proc.stdout.splitlines() if line.split(":", 1)[0] in files]
    assert proc.returncode in (0, 1) and own == [], proc.stdout + proc.stderr
    # the configuration matters: without the two rebinding flags the idiom is the [assignment] error users hit
    (tmp_path / "pyproject.toml").write_text(
        _config().replace("allow_redefinition_new = true\n", "").replace("local_partial_types = true\n", ""),
        encoding="utf-8",
    )
    bare = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", "tile_idiom.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    # the rebinding line (17) or the use after it (18): mypy versions differ on where they report it
    assert re.search(r"tile_idiom\.py:1[78]: error", bare.stdout) and "[assignment]" in bare.stdout, bare.stdout
