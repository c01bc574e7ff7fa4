"""Write a small project to a temp dir and run mypy with the plugin over it (for the behaviour tests)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import textwrap
from pathlib import Path

from mypy_harness import Reported, run_mypy, write_config

_WARM: list[Path] = []


def _warm_cache() -> Path:
    """A mypy cache holding safekernels and numpy, made once per session and copied into each test."""
    if not _WARM:
        root = Path(tempfile.mkdtemp(prefix="sk-mypy-warm-"))
        atexit.register(shutil.rmtree, root, True)
        (root / "warm.py").write_text(
            "import numpy\nimport safekernels\nfrom safekernels import simt, tile\n", encoding="utf-8"
        )
        config = write_config(root, root / "cache")
        run_mypy(["--config-file", str(config), str(root / "warm.py")])
        _WARM.append(root / "cache")
    return _WARM[0]


def check(
    tmp_path: Path, files: dict[str, str], extra_config: str = "", allow_internal_errors: bool = False
) -> tuple[list[Reported], str]:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    cache = tmp_path / ".mypy_cache"
    if not cache.exists():
        shutil.copytree(_warm_cache(), cache)
    config = write_config(tmp_path, cache, extra_config)
    args = ["--config-file", str(config), *(str(tmp_path / name) for name in files)]
    return run_mypy(args, allow_internal_errors)


def lines(reported: list[Reported], code: str | None = None) -> list[tuple[int, int, str]]:
    return [(r.line, r.column, r.message) for r in reported if code is None or r.code == code]
