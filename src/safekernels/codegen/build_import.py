"""How `safekernels build FILE` imports FILE: only what FILE itself imports may run.

Putting FILE's folder on `sys.path` (at either end) lets that folder decide what other names mean: a plain
`cuda.py` beside the kernel beats the `cuda` namespace package wherever the folder sits on the path (Python
prefers a module to a namespace portion), so `import cuda.bindings` in the runtime would run the stranger's
file.  Instead the folder stays off `sys.path`, and `SiblingFinder`, placed last on `sys.meta_path`, serves a
top-level module from it only when

    1. FILE (or a sibling module it already imported through this finder) names it in an `import` statement,
       read from the source text before anything runs, and
    2. every other finder, the standard library, site-packages and namespace packages included, failed to find
       it (the finder is consulted last),

so a sibling `helpers.py` that FILE imports works, and a sibling `cuda.py`, `json.py` or `numpy.py` is never
executed unless nothing else of that name exists and FILE asked for it.  The finder is removed again when the
import finishes; modules it loaded stay in `sys.modules` for the kernels that use them.
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import NoReturn

#: Source larger than this is not scanned for import names (the import itself then reports what is wrong).
_MAX_SCAN_BYTES = 16 * 1024 * 1024


def imported_top_level_names(source: bytes | str) -> set[str]:
    """The top-level module names a file's absolute `import` statements name (any nesting); empty if unparsable."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _scan(path: Path) -> set[str]:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_SCAN_BYTES:
            return set()
        return imported_top_level_names(path.read_bytes())
    except OSError:
        return set()


class SiblingFinder:
    """A last-resort finder for the top-level modules beside the built file that it imports (module docstring)."""

    def __init__(self, folder: Path, wanted: set[str]) -> None:
        self.folder = folder
        self.wanted = set(wanted)
        self._path = importlib.machinery.FileFinder(
            str(folder),
            (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES),
            (importlib.machinery.SourcelessFileLoader, importlib.machinery.BYTECODE_SUFFIXES),
        )

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if path is not None or "." in name or name not in self.wanted:
            return None  # submodules resolve through their package's own __path__
        spec = self._path.find_spec(name, target)
        if spec is None or spec.loader is None:
            return None
        origin = Path(spec.origin) if spec.origin else None
        if origin is not None:
            self.wanted |= _scan(origin)  # what this sibling imports may come from the folder too
            if origin.name == "__init__.py":
                for child in origin.parent.glob("*.py"):
                    self.wanted |= _scan(child)
        return spec


@contextmanager
def exits_raise() -> Iterator[None]:
    """While FILE's module-level code runs, `os._exit(n)` raises `SystemExit(n)` instead of ending the process.

    `sys.exit()` already raises (and the build reports it as a failed build); `os._exit(0)` would end the build
    with status 0 and no manifest, which a script reads as success.
    """
    real = os._exit

    def refuse(status: int) -> NoReturn:
        raise SystemExit(status)

    os._exit = refuse
    try:
        yield
    finally:
        os._exit = real


@contextmanager
def sibling_imports(path: Path) -> Iterator[SiblingFinder]:
    """While the block runs, FILE's own imports may resolve to modules in its folder (last resort only)."""
    finder = SiblingFinder(path.resolve().parent, _scan(path))
    sys.meta_path.append(finder)
    try:
        yield finder
    finally:
        try:
            sys.meta_path.remove(finder)
        except ValueError:
            pass

