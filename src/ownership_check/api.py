"""The checker's Python API: what the CLI, `safekernels check`, tests and tools call.

check_source(source, path)         one in-memory file, as its own project check_paths(paths, jobs=,
use_cache=, config=)   files and directories, checked together as one project
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ownership_check.config import Config, load_config
from ownership_check.diagnostics import Diagnostic
from ownership_check.discovery import discover
from ownership_check.runner import RunResult, check_one_source, run

__all__ = ["Config", "RunResult", "check_paths", "check_source"]


def check_source(source: str, path: str = "<string>") -> list[Diagnostic]:
    """Diagnostics for one file's source text (suppression comments honoured, no cache, no config)."""
    return check_one_source(source, path)


def check_paths(
    paths: Sequence[str], *, jobs: int = 1, use_cache: bool = True, config: Config | None = None
) -> RunResult:
    """Check files and directories as one project (a kernel defined in one file may be launched in another).

    Without `config`, `[tool.ownership-check]` of the nearest pyproject.toml above the first path is used.
    """
    if config is None:
        config = load_config(paths[0] if paths else os.getcwd())
    files = list(discover(paths, config.exclude, config.root))
    return run(files, config, jobs=max(1, jobs), use_cache=use_cache)
