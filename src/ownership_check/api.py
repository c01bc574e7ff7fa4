"""The checker's Python API: what the CLI, `safekernels check`, tests and tools call.

    check_source(source, path)                      one in-memory file, as its own project
    check_paths(paths, jobs=, use_cache=, config=)  files and directories, checked together as one project
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ownership_check.config import Config, load_config
from ownership_check.diagnostics import Diagnostic
from ownership_check.discovery import discover, project_context, project_root
from ownership_check.runner import RunResult, check_one_source, run

__all__ = ["Config", "RunResult", "check_paths", "check_source"]


def check_source(source: str, path: str = "<string>") -> list[Diagnostic]:
    """Diagnostics for one file's source text (suppression comments honoured, no cache, no config)."""
    return check_one_source(source, path)


def check_paths(
    paths: Sequence[str],
    *,
    jobs: int = 1,
    use_cache: bool = True,
    config: Config | None = None,
    cache_dir: str | None = None,
) -> RunResult:
    """Check files and directories as one project (a kernel defined in one file may be launched in another).

    Without `config`, `[tool.ownership-check]` of the nearest pyproject.toml above the first path is used.
    The rest of the project the paths belong to (see `discovery.project_context`) is read for its kernels
    and imports, but only the given paths are reported on.  Unreadable paths land in `RunResult.errors`.
    `jobs`: worker processes; 0 (`runner.AUTO_JOBS`, the CLI's default) starts one per available CPU when there
    are enough files to analyse (`RunResult.workers` says how many ran).
    """
    if config is None:
        config = load_config(paths[0] if paths else os.getcwd())
    errors: list[str] = []
    files = list(discover(paths, config.exclude, config.root, errors))
    context = project_context(paths, config.exclude, project_root(paths, config.pyproject))
    result = run(files, config, jobs=max(0, jobs), use_cache=use_cache, cache_dir=cache_dir, context=context)
    result.errors[:0] = errors
    if config.per_file_ignores:
        result.diagnostics = [d for d in result.diagnostics if config.enabled_in(d.path, d.code)]
    return result
