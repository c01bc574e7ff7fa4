"""The same kernel text at two places is two cache entries: the binary embeds its place.

Found on the H200: a tile kernel `scale` with `assert b < 3, "too many blocks"` stood, letter for letter, in two
test files at different lines; the second program loaded the first one's cubin from the disk cache and its
`KernelAssertionError` named the other file's line.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from safekernels.codegen.cache import source_key_parts

KERNEL = '''
def scale(x, s):
    assert s < 3, "too many blocks"
    return x * s
'''


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_identical_source_at_another_line_or_file_has_another_key(tmp_path: Path) -> None:
    (tmp_path / "first.py").write_text(KERNEL)
    (tmp_path / "shifted.py").write_text("\n" * 10 + KERNEL)
    (tmp_path / "moved.py").write_text(KERNEL)
    first, shifted, moved = (_load(tmp_path / f"{n}.py").scale for n in ("first", "shifted", "moved"))
    keys = [source_key_parts(f) for f in (first, shifted, moved)]
    assert keys[0] != keys[1] and keys[0] != keys[2]


def test_the_key_is_stable_for_one_place(tmp_path: Path) -> None:
    (tmp_path / "again.py").write_text(KERNEL)
    once, twice = _load(tmp_path / "again.py").scale, _load(tmp_path / "again.py").scale
    assert source_key_parts(once) == source_key_parts(twice)
