"""Write a small project to a temp dir and run mypy with the plugin over it (for the behaviour tests)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from mypy_harness import Reported, run_mypy, write_config


def check(tmp_path: Path, files: dict[str, str], extra_config: str = "") -> tuple[list[Reported], str]:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    config = write_config(tmp_path, tmp_path / ".mypy_cache", extra_config)
    args = ["--config-file", str(config), *(str(tmp_path / name) for name in files)]
    return run_mypy(args)


def lines(reported: list[Reported], code: str | None = None) -> list[tuple[int, int, str]]:
    return [(r.line, r.column, r.message) for r in reported if code is None or r.code == code]
