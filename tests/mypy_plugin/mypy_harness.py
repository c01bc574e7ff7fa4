"""Run mypy with the safekernels plugin in-process (`mypy.api.run`) and read its diagnostics back.

Shared by the plugin's tests.  The repository root goes first on `sys.path` so `plugins = ["mypy_plugin"]`
imports this checkout's plugin, and `mypy_path` points at `src/` so mypy analyzes this checkout's safekernels
(an editable install is invisible to mypy's module finder).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|note|warning): (?P<message>.*?)"
    r"(?:  \[(?P<code>[\w-]+)\])?$"
)
OWNERSHIP_CODE = re.compile(r"^(E\d{4}|W0003)$")  # W0001 and W0002 are the CLI's alone


@dataclass(frozen=True)
class Reported:
    path: str
    line: int
    column: int
    severity: str
    message: str
    code: str | None


def ensure_plugin_importable() -> None:
    """Make `import mypy_plugin` find this checkout's package (not a stale namespace package)."""
    root = str(REPO)
    if sys.path[0] != root:
        sys.path.insert(0, root)
    module = sys.modules.get("mypy_plugin")
    if module is not None and getattr(module, "__file__", None) is None:
        for name in [n for n in sys.modules if n == "mypy_plugin" or n.startswith("mypy_plugin.")]:
            del sys.modules[name]


def write_config(directory: Path, cache_dir: Path, extra: str = "") -> Path:
    config = directory / "mypy-plugin-test.ini"
    config.write_text(
        "[mypy]\n"
        "plugins = mypy_plugin\n"
        "check_untyped_defs = True\n"
        "allow_redefinition_new = True\n"
        "local_partial_types = True\n"
        "show_column_numbers = True\n"
        "show_error_codes = True\n"
        "show_error_context = True\n"
        "no_error_summary = True\n"
        f"mypy_path = {SRC}\n"
        f"cache_dir = {cache_dir}\n" + extra,
        encoding="utf-8",
    )
    return config


def run_mypy(args: list[str], allow_internal_errors: bool = False) -> tuple[list[Reported], str]:
    """Run mypy in-process; return the parsed diagnostics and the raw output (for assertion messages)."""
    ensure_plugin_importable()
    stdout, stderr, status = api.run(args)
    assert status in (0, 1), f"mypy exited {status} (a crash prints to the real stderr):\n{stdout}\n{stderr}"
    assert allow_internal_errors or "ownership checker internal error" not in stdout, stdout
    reported = []
    for raw in stdout.splitlines():
        match = LINE.match(raw)
        if match is not None:
            reported.append(
                Reported(
                    match["path"], int(match["line"]), int(match["col"]), match["severity"], match["message"],
                    match["code"],
                )
            )
    return reported, stdout + stderr


def ownership_errors(reported: list[Reported]) -> list[Reported]:
    return [r for r in reported if r.severity == "error" and r.code is not None and OWNERSHIP_CODE.match(r.code)]
