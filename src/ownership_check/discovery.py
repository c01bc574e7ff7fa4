"""Which files a run checks, and which other files of the same project it reads for context.

Explicit files are checked as given (as ruff and mypy do, even when excluded).  Directories are walked for
`*.py` files, skipping:

    DEFAULT_EXCLUDES      the folders ruff skips by default (`.venv`, `venv`, `.git`, `build`, `dist`,
                          `site-packages`, `node_modules`, `__pypackages__`, caches, ...) and `*.egg-info`
    `exclude`             `[tool.ownership-check] exclude`, added to the defaults
    .gitignore            the patterns of the `.gitignore` at the config root (negations are not supported)
    non-regular files     FIFOs, sockets, devices and symlinks to them (reading a FIFO blocks forever)
    symlinks out          a file symlink whose target lies outside the walked directory

Excludes are gitignore-style globs relative to the config root: `build` matches a file or directory named
`build` at any depth (`.venv` included: only a leading `./` is dropped from paths, never a leading dot),
`tests/fixtures` is anchored (it contains a slash), `*`/`?` wildcards and `**` work, and a trailing `/` matches
directories only.  A directory that cannot be read is an error (exit 2), never silently "0 files".

`project_context` lists the other `*.py` files of the project the checked paths belong to (root: the folder of
the nearest `pyproject.toml`, else of `.git`), so that kernels defined in unchanged modules resolve when only
some files are given (a pre-commit hook passes only the changed ones).  Paths are reported as given, or
relative to the working directory for files found inside a directory.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Sequence
from functools import lru_cache

DEFAULT_EXCLUDES = frozenset(
    {
        ".bzr",
        ".direnv",
        ".eggs",
        ".git",
        ".git-rewrite",
        ".hg",
        ".ipynb_checkpoints",
        ".mypy_cache",
        ".nox",
        ".pants.d",
        ".pyenv",
        ".pytest_cache",
        ".pytype",
        ".ruff_cache",
        ".svn",
        ".tox",
        ".venv",
        ".vscode",
        "__pycache__",
        "__pypackages__",
        "_build",
        "buck-out",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        "venv",
        ".ownership_check_cache",
        ".safekernels_cache",
    }
)

#: The most files `project_context` reads (a project root found far up, e.g. a home folder under git).
MAX_CONTEXT_FILES = 20_000


@lru_cache(maxsize=256)
def _compile(pattern: str) -> tuple[re.Pattern[str], bool]:
    dir_only = pattern.endswith("/")
    anchored = "/" in pattern.rstrip("/")  # a leading or inner slash anchors at the root (gitignore rules)
    pattern = pattern.strip("/")
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
    return re.compile(regex, re.DOTALL), dir_only


def _relative(relpath: str) -> str:
    """`relpath` with `/` separators and without leading `./` segments (a leading dot of a name stays)."""
    relpath = relpath.replace(os.sep, "/")
    while relpath.startswith("./"):
        relpath = relpath[2:]
    return "" if relpath == "." else relpath


def is_excluded(relpath: str, is_dir: bool, patterns: Sequence[str]) -> bool:
    relpath = _relative(relpath)
    for pattern in patterns:
        while pattern.startswith("./"):  # `./.venv` means `/.venv`: anchored at the config root
            pattern = "/" + pattern[2:]
        regex, dir_only = _compile(pattern)
        if dir_only and not is_dir:
            continue
        if regex.match(relpath):
            return True
    return False


def gitignore_patterns(root: str) -> tuple[str, ...]:
    """The usable patterns of `root/.gitignore` (comments, blanks and `!` negations left out)."""
    try:
        with open(os.path.join(root, ".gitignore"), encoding="utf-8", errors="replace") as f:
            lines = f.read(1 << 20).splitlines()
    except OSError:
        return ()
    out = []
    for line in lines:
        line = line.strip()
        if line and not line.startswith(("#", "!")):
            out.append(line)
    return tuple(out)


def _display(found: str, given: str) -> str:
    if os.path.isabs(given):
        rel = os.path.relpath(found)
        return found if rel.startswith("..") else rel
    return os.path.normpath(found)


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _walk(top: str, exclude: Sequence[str], root: str, errors: list[str] | None) -> Iterator[str]:
    """`*.py` regular files under `top`, sorted, with the exclusion rules of the module docstring."""
    real_top = os.path.realpath(top)

    def onerror(exc: OSError) -> None:
        if errors is not None:
            errors.append(f"{exc.filename or top}: cannot read directory: {exc.strerror or exc}")

    for dirpath, dirnames, filenames in os.walk(top, onerror=onerror):
        rel_dir = os.path.relpath(os.path.abspath(dirpath), root)
        kept = []
        for d in sorted(dirnames):
            if d in DEFAULT_EXCLUDES or d.endswith(".egg-info"):
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
            try:
                info = os.lstat(full)
                if stat.S_ISLNK(info.st_mode):
                    if not _inside(os.path.realpath(full), real_top):
                        continue
                    info = os.stat(full)
            except OSError:
                continue  # a dangling symlink or a file that vanished: not a source file
            if stat.S_ISREG(info.st_mode):
                yield full


def discover(
    paths: Sequence[str], exclude: Sequence[str], root: str, errors: list[str] | None = None
) -> Iterator[tuple[str, str]]:
    """(path to open, path to display) for every file of the run, each once, in a stable order.

    Problems (an unreadable directory) are appended to `errors`, one message each.
    """
    seen: set[str] = set()
    root = os.path.abspath(root)
    patterns = (*exclude, *gitignore_patterns(root))
    for given in paths:
        if os.path.isdir(given):
            for full in _walk(given, patterns, root, errors):
                key = os.path.abspath(full)
                if key not in seen:
                    seen.add(key)
                    yield full, _display(full, given)
        else:
            key = os.path.abspath(given)
            if key not in seen:
                seen.add(key)
                yield given, given


def project_root(paths: Sequence[str], pyproject: str | None) -> str | None:
    """The project the paths belong to: the folder of the config's pyproject.toml, else of the nearest `.git`."""
    if pyproject is not None:
        return os.path.dirname(os.path.abspath(pyproject))
    start = os.path.abspath(paths[0] if paths else ".")
    directory = start if os.path.isdir(start) else os.path.dirname(start)
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def project_context(paths: Sequence[str], exclude: Sequence[str], root: str | None) -> list[str]:
    """The project's other `*.py` files (opened only to index kernels and imports; never reported on)."""
    if root is None:
        return []
    given = [os.path.abspath(p) for p in paths]
    if not any(_inside(p, root) for p in given) or any(p == root for p in given):
        return []  # nothing of this project is checked, or all of it is
    patterns = (*exclude, *gitignore_patterns(root))
    found: list[str] = []
    for full in _walk(root, patterns, root, None):
        found.append(full)
        if len(found) >= MAX_CONTEXT_FILES:
            break
    return found
