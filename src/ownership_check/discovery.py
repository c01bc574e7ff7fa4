"""Which files a run checks, and which other files of the same project it reads for context.

Explicit files are checked as given (as ruff and mypy do, even when excluded).  Directories are walked for
`*.py` files, skipping:

    DEFAULT_EXCLUDES      the folders ruff skips by default (`.venv`, `venv`, `.git`, `build`, `dist`,
                          `site-packages`, `node_modules`, `__pypackages__`, caches, ...) and `*.egg-info`
    `exclude`             `[tool.ownership-check] exclude`, added to the defaults
    .gitignore            the patterns of the `.gitignore` files at the config root and in the folders below
                          it, `!` negations included (as git: the deepest file's last matching line decides;
                          each a regular file of at most 1 MiB, else an error)
    non-regular files     FIFOs, sockets, devices and symlinks to them (reading a FIFO blocks forever)
    symlinks out          a file symlink whose target lies outside the walked directory

Excludes are gitignore-style globs relative to the config root (`path_patterns.py`: matched in linear time,
whatever the pattern): `build` matches a file or directory named `build` at any depth (`.venv` included: only a
leading `./` is dropped from paths, never a leading dot), `tests/fixtures` is anchored (it contains a slash),
`*`/`?`/`[...]` wildcards and `**` work, `!` re-includes, and a trailing `/` matches directories only.  The
config's `exclude` and the `.gitignore` are two lists: a path is skipped when either excludes it.  A directory
that cannot be read is an error (exit 2), never silently "0 files".

`project_context` lists the other `*.py` files of the project the checked paths belong to (root: the folder of
the nearest `pyproject.toml`, else of `.git`), so that kernels defined in unchanged modules resolve when only
some files are given (a pre-commit hook passes only the changed ones).  Paths are reported as given, or
relative to the working directory for files found inside a directory.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from functools import lru_cache

from ownership_check.path_patterns import PathMatcher, PatternError, parse_gitignore

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


def _relative(relpath: str) -> str:
    """`relpath` with `/` separators and without leading `./` segments (a leading dot of a name stays)."""
    relpath = relpath.replace(os.sep, "/")
    while relpath.startswith("./"):
        relpath = relpath[2:]
    return "" if relpath == "." else relpath


@lru_cache(maxsize=16)
def _matcher(patterns: tuple[str, ...]) -> PathMatcher:
    return PathMatcher(patterns)


def is_excluded(relpath: str, is_dir: bool, patterns: Sequence[str]) -> bool:
    """Whether `patterns` (gitignore rules, `!` negations included: the last match decides) exclude `relpath`."""
    return _matcher(tuple(patterns)).excluded(_relative(relpath), is_dir)


class Excludes:
    """The config's `exclude` globs and the project's `.gitignore` files: a path is skipped when either excludes it.

    The `.gitignore` files follow git: the root one, plus one in any folder below the root that the walk enters
    (`add_folder`), whose patterns are relative to its folder; a deeper file's matching line overrides a
    shallower one's, and within one file the last matching line decides (`!` re-includes).
    """

    def __init__(self, exclude: Sequence[str], gitignore: Sequence[str]) -> None:
        self.config = PathMatcher(tuple(exclude)) if exclude else None
        self.gitignores: dict[str, PathMatcher] = {"": PathMatcher(tuple(gitignore))} if gitignore else {}

    def __bool__(self) -> bool:
        return self.config is not None or bool(self.gitignores)

    def add_folder(self, rel_dir: str, root: str, errors: list[str] | None) -> None:
        """Read `rel_dir/.gitignore` (relative to the root) if there is one; a bad one is reported, not used."""
        rel_dir = _relative(rel_dir)
        if not rel_dir or rel_dir.startswith("../") or rel_dir == ".." or rel_dir in self.gitignores:
            return
        try:
            patterns = read_gitignore(os.path.join(root, rel_dir))
        except GitignoreError as exc:
            if errors is not None:
                errors.append(str(exc))
            return
        if patterns:
            self.gitignores[rel_dir] = PathMatcher(patterns)

    def excluded(self, relpath: str, is_dir: bool) -> bool:
        relpath = _relative(relpath)
        if self.config is not None and self.config.excluded(relpath, is_dir):
            return True
        if not self.gitignores:
            return False
        parts = relpath.split("/")
        for depth in range(len(parts) - 1, -1, -1):  # the deepest .gitignore with a matching line decides
            matcher = self.gitignores.get("/".join(parts[:depth]))
            if matcher is not None:
                decision = matcher.decision("/".join(parts[depth:]), is_dir)
                if decision is not None:
                    return decision
        return False


#: Largest `.gitignore` read (a larger one is an error, never cut short: a lost `!` line would hide files).
MAX_GITIGNORE_BYTES = 1 << 20


class GitignoreError(ValueError):
    """The root `.gitignore` cannot be used (not a regular file, too large, too many wildcard patterns)."""


def read_gitignore(root: str) -> tuple[str, ...]:
    """The patterns of `root/.gitignore`, in order, `!` negations included; () when there is none.

    Only a regular file is read (opened without blocking: a FIFO named `.gitignore` is an error, not a hang),
    at most `MAX_GITIGNORE_BYTES`; undecodable bytes are kept as in file names (surrogate escapes).
    """
    path = os.path.join(root, ".gitignore")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return ()
    except OSError as exc:
        if not os.path.lexists(path):
            return ()
        raise GitignoreError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GitignoreError(f"{path}: not a regular file")
        data = os.read(fd, MAX_GITIGNORE_BYTES + 1) if info.st_size <= MAX_GITIGNORE_BYTES else b""
        if info.st_size > MAX_GITIGNORE_BYTES or len(data) > MAX_GITIGNORE_BYTES:
            raise GitignoreError(f"{path}: larger than {MAX_GITIGNORE_BYTES // 1024} KiB")
    except OSError as exc:
        raise GitignoreError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    patterns = tuple(parse_gitignore(data.decode("utf-8", "surrogateescape")))
    try:
        PathMatcher(patterns)
    except PatternError as exc:
        raise GitignoreError(f"{path}: {exc}") from None
    return patterns


def gitignore_patterns(root: str) -> tuple[str, ...]:
    """`read_gitignore`, with an unusable file counted as none (for callers that only want context)."""
    try:
        return read_gitignore(root)
    except GitignoreError:
        return ()


def _display(found: str, given: str) -> str:
    if os.path.isabs(given):
        rel = os.path.relpath(found)
        return found if rel.startswith("..") else rel
    return os.path.normpath(found)


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _walk(top: str, exclude: Excludes, root: str, errors: list[str] | None) -> Iterator[str]:
    """`*.py` regular files under `top`, sorted, with the exclusion rules of the module docstring."""
    real_top = os.path.realpath(top)

    def onerror(exc: OSError) -> None:
        if errors is not None:
            errors.append(f"{exc.filename or top}: cannot read directory: {exc.strerror or exc}")

    rel_top = _relative(os.path.relpath(os.path.abspath(top), root))
    if not rel_top.startswith(".."):  # the .gitignore files of the folders between the root and `top`
        parts = [part for part in rel_top.split("/") if part]
        for depth in range(1, len(parts) + 1):
            exclude.add_folder("/".join(parts[:depth]), root, errors)
    for dirpath, dirnames, filenames in os.walk(top, onerror=onerror):
        rel_dir = os.path.relpath(os.path.abspath(dirpath), root)
        exclude.add_folder(rel_dir, root, errors)
        kept = []
        for d in sorted(dirnames):
            if d in DEFAULT_EXCLUDES or d.endswith(".egg-info"):
                continue
            if exclude.excluded(os.path.join(rel_dir, d), True):
                continue
            kept.append(d)
        dirnames[:] = kept
        for filename in sorted(filenames):
            if not filename.endswith(".py"):
                continue
            full = os.path.join(dirpath, filename)
            if exclude.excluded(os.path.join(rel_dir, filename), False):
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
    try:
        gitignore = read_gitignore(root)
    except GitignoreError as exc:
        gitignore = ()  # checked without it (more files, never fewer) and reported: the run exits 2
        if errors is not None:
            errors.append(str(exc))
    try:
        excludes = Excludes(exclude, gitignore)
    except PatternError as exc:
        if errors is not None:
            errors.append(f"exclude: {exc}")
        excludes = Excludes((), gitignore)
    for given in paths:
        if os.path.isdir(given):
            for full in _walk(given, excludes, root, errors):
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
    try:
        excludes = Excludes(exclude, gitignore_patterns(root))
    except PatternError:
        excludes = Excludes((), gitignore_patterns(root))
    found: list[str] = []
    for full in _walk(root, excludes, root, None):
        found.append(full)
        if len(found) >= MAX_CONTEXT_FILES:
            break
    return found
