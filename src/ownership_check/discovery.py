"""Which files a run checks: explicit files as given, directories walked for `*.py`, excludes applied.

Excludes are gitignore-style globs relative to the config root: `build` matches a file or directory named
`build` at any depth, `tests/fixtures` is anchored (it contains a slash), `*.pyi`-style wildcards work, `**`
matches any number of directories, and a trailing `/` matches directories only.  Explicitly named files are
always checked (as ruff and mypy do).  Paths are reported as given, or relative to the working directory for
files found inside a directory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".ownership_check_cache",
        ".tox",
        ".nox",
    }
)


@lru_cache(maxsize=256)
def _compile(pattern: str) -> tuple[re.Pattern[str], bool]:
    dir_only = pattern.endswith("/")
    pattern = pattern.strip("/") if pattern.startswith("/") else pattern.rstrip("/")
    anchored = "/" in pattern
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(c))
        i += 1
    body = "".join(out)
    regex = f"^{body}$" if anchored else f"^(?:.*/)?{body}$"
    return re.compile(regex), dir_only


def is_excluded(relpath: str, is_dir: bool, patterns: Sequence[str]) -> bool:
    relpath = relpath.replace(os.sep, "/").lstrip("./") if relpath not in (".", "") else ""
    for pattern in patterns:
        regex, dir_only = _compile(pattern.lstrip("/") if pattern.startswith("/") else pattern)
        if dir_only and not is_dir:
            continue
        if regex.match(relpath):
            return True
    return False


def _display(found: str, given: str) -> str:
    if os.path.isabs(given):
        rel = os.path.relpath(found)
        return found if rel.startswith("..") else rel
    return os.path.normpath(found)


def discover(paths: Sequence[str], exclude: Sequence[str], root: str) -> Iterator[tuple[str, str]]:
    """(path to open, path to display) for every file of the run, each once, in a stable order."""
    seen: set[str] = set()
    root = os.path.abspath(root)
    for given in paths:
        if os.path.isdir(given):
            for dirpath, dirnames, filenames in os.walk(given):
                abs_dir = os.path.abspath(dirpath)
                rel_dir = os.path.relpath(abs_dir, root)
                kept = []
                for d in sorted(dirnames):
                    if d in SKIP_DIRS or d.endswith(".egg-info"):
                        continue
                    if exclude and is_excluded(os.path.join(rel_dir, d), True, exclude):
                        continue
                    kept.append(d)
                dirnames[:] = kept
                for filename in sorted(filenames):
                    if not filename.endswith(".py"):
                        continue
                    full = os.path.join(dirpath, filename)
                    if exclude and is_excluded(os.path.join(rel_dir, filename), False, exclude):
                        continue
                    key = os.path.abspath(full)
                    if key not in seen:
                        seen.add(key)
                        yield full, _display(full, given)
        else:
            key = os.path.abspath(given)
            if key not in seen:
                seen.add(key)
                yield given, given
