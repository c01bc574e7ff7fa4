"""Checker configuration: `[tool.ownership-check]` in pyproject.toml, overridden by command-line flags.

Keys: `exclude` (gitignore-style globs, relative to the directory holding pyproject.toml, added to the
default excludes), `select` and `ignore` (lists of codes or code prefixes), `per-file-ignores` (a table of
gitignore-style glob -> codes never reported in the files it matches).  The config's fingerprint is part of
every cache key.  A pyproject.toml that cannot be read or has the wrong shape is a `ConfigError` (exit 2)
naming the file, never a traceback; so is a code that names no diagnostic (`select = ["E9999"]`): a typo must
not quietly turn a CI gate off.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ownership_check.discovery import is_excluded
from safekernels.disk_data import DiskDataError, read_regular


class ConfigError(Exception):
    """Invalid configuration (exit status 2)."""


@dataclass(frozen=True)
class Config:
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: (glob, codes) pairs: the codes are never reported in files whose path (relative to `root`) matches
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: str = field(default=".", compare=False)
    #: the pyproject.toml the config came from (None: defaults); its folder is the project root
    pyproject: str | None = field(default=None, compare=False)

    def fingerprint(self) -> str:
        data = json.dumps(
            [self.exclude, self.select, self.ignore, self.per_file_ignores, os.path.abspath(self.root)]
        )
        return hashlib.sha256(data.encode()).hexdigest()[:16]

    def enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        return not any(code.startswith(s) for s in self.ignore)

    def enabled_in(self, path: str, code: str) -> bool:
        """`enabled(code)`, and not ignored by a `per-file-ignores` glob matching `path` (relative to cwd)."""
        if not self.enabled(code):
            return False
        if not self.per_file_ignores:
            return True
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))
        for pattern, codes in self.per_file_ignores:
            if any(code.startswith(c) for c in codes) and is_excluded(relative, False, (pattern,)):
                return False
        return True


def known_codes() -> tuple[str, ...]:
    """Every code the checker can report (the error index's entries), sorted."""
    from ownership_check.render.catalog import CODES

    return tuple(sorted(CODES))


def unknown_codes(selectors: Iterable[str]) -> list[str]:
    """The selectors that are neither a known code nor a prefix of one (`E05` selects E0502 and E0505)."""
    codes = known_codes()
    return [s for s in selectors if not any(code.startswith(s) for code in codes)]


def unknown_code_message(code: str, where: str) -> str:
    """The one-line error for an unknown code in `where` (`--select`, `[tool.ownership-check] ignore`, ...)."""
    return (
        f"unknown code {code!r} in {where}; valid codes: {', '.join(known_codes())} "
        "(or a prefix of them, such as E05)"
    )


def _codes(value: object, key: str, path: str = "pyproject.toml") -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: [tool.ownership-check] `{key}` must be a list of strings")
    return tuple(v.strip() for v in value if v.strip())


def _selectors(value: object, key: str, path: str) -> tuple[str, ...]:
    """`_codes` of a `select`/`ignore`-like key, upper-cased and checked against the known codes."""
    codes = tuple(c.upper() for c in _codes(value, key, path))
    for code in unknown_codes(codes):
        raise ConfigError(f"{path}: {unknown_code_message(code, f'[tool.ownership-check] `{key}`')}")
    return codes


def _per_file_ignores(value: object, path: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f'{path}: [tool.ownership-check] `per-file-ignores` must be a table ("glob" = [codes])')
    return tuple(
        (pattern, _selectors(codes, f"per-file-ignores.{pattern!r}", path)) for pattern, codes in value.items()
    )


def find_pyproject(start: str) -> str | None:
    directory = os.path.abspath(start)
    if os.path.isfile(directory):
        directory = os.path.dirname(directory)
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


#: Largest pyproject.toml read (a real one is a few KiB).
MAX_PYPROJECT_BYTES = 4 * 1024 * 1024


def load_config(start: str = ".") -> Config:
    """The config of the nearest pyproject.toml at or above `start` (defaults when there is none)."""
    path = find_pyproject(start)
    if path is None:
        return Config(root=os.path.abspath(start))
    try:
        data = tomllib.loads(read_regular(path, MAX_PYPROJECT_BYTES).decode("utf-8"))  # never a FIFO or a huge file
    except DiskDataError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read {path}: it is not valid UTF-8 ({exc.reason} at byte {exc.start})") from exc
    except (OSError, ValueError, RecursionError) as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table")
    section = tool.get("ownership-check", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.ownership-check] must be a table")
    unknown = set(section) - {"exclude", "select", "ignore", "per-file-ignores"}
    if unknown:
        raise ConfigError(f"{path}: [tool.ownership-check] unknown option(s): {', '.join(sorted(unknown))}")
    return Config(
        exclude=_codes(section.get("exclude", []), "exclude", path),
        select=_selectors(section.get("select", []), "select", path),
        ignore=_selectors(section.get("ignore", []), "ignore", path),
        per_file_ignores=_per_file_ignores(section.get("per-file-ignores", {}), path),
        root=os.path.dirname(path),
        pyproject=path,
    )
