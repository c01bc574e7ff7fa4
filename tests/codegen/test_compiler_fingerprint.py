"""The disk cache's key names the compiler's own sources, not only the package version.

Until a release every commit is version 0.1.0, so a user who installs a newer checkout (or a developer who edits
the compiler) would otherwise be handed the cubins the old compiler built, its bugs included.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import safekernels
from safekernels.codegen.pipeline import tool_versions
from safekernels.codegen.toolchain import compiler_fingerprint, sources_fingerprint

PACKAGE = Path(safekernels.__file__).resolve().parent


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "safekernels"
    for name in ("codegen", "tile", "simt"):
        shutil.copytree(PACKAGE / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(PACKAGE / "dtypes.py", copy / "dtypes.py")
    return copy


def test_every_cache_key_names_the_compiler_fingerprint() -> None:
    assert tool_versions()["compiler"] == compiler_fingerprint() == sources_fingerprint(str(PACKAGE))


def test_an_edit_of_the_compiler_or_a_language_table_changes_it(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    before = sources_fingerprint(str(copy))
    lowering = copy / "codegen" / "tile" / "frontend.py"
    lowering.write_text(lowering.read_text() + "\n# a fix\n")
    after_compiler = sources_fingerprint(str(copy))
    ops = copy / "tile" / "ops.py"
    ops.write_text(ops.read_text() + "\n# a new op\n")
    assert len({before, after_compiler, sources_fingerprint(str(copy))}) == 3


def test_file_times_and_bytecode_do_not_change_it(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    before = sources_fingerprint(str(copy))
    for path in copy.rglob("*.py"):
        os.utime(path, (1, 1))  # a fresh checkout or a reinstall of the same sources
    (copy / "codegen" / "__pycache__").mkdir(exist_ok=True)
    (copy / "codegen" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    assert sources_fingerprint(str(copy)) == before
