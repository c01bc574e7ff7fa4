"""Checker configuration: `[tool.ownership-check]` in pyproject.toml, overridden by command-line flags.

Keys: `exclude` (gitignore-style globs, relative to the directory holding pyproject.toml, added to the
default excludes), `select` and `ignore` (lists of codes or code prefixes).  The config's fingerprint is part
of every cache key.  A pyproject.toml that cannot be read or has the wrong shape is a `ConfigError` (exit 2)
naming the file, never a traceback.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from dataclasses import dataclass, field


class ConfigError(Exception):
    """Invalid configuration (exit status 2)."""


@dataclass(frozen=True)
class Config:
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    root: str = field(default=".", compare=False)
    #: the pyproject.toml the config came from (None: defaults); its folder is the project root
    pyproject: str | None = field(default=None, compare=False)

    def fingerprint(self) -> str:
        data = json.dumps([self.exclude, self.select, self.ignore, os.path.abspath(self.root)])
        return hashlib.sha256(data.encode()).hexdigest()[:16]

    def enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        return not any(code.startswith(s) for s in self.ignore)


def _codes(value: object, key: str, path: str = "pyproject.toml") -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: [tool.ownership-check] `{key}` must be a list of strings")
    return tuple(v.strip() for v in value if v.strip())


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


def load_config(start: str = ".") -> Config:
    """The config of the nearest pyproject.toml at or above `start` (defaults when there is none)."""
    path = find_pyproject(start)
    if path is None:
        return Config(root=os.path.abspath(start))
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
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
    unknown = set(section) - {"exclude", "select", "ignore"}
    if unknown:
        raise ConfigError(f"{path}: [tool.ownership-check] unknown option(s): {', '.join(sorted(unknown))}")
    return Config(
        exclude=_codes(section.get("exclude", []), "exclude", path),
        select=_codes(section.get("select", []), "select", path),
        ignore=_codes(section.get("ignore", []), "ignore", path),
        root=os.path.dirname(path),
        pyproject=path,
    )
