"""A broken environment without libcst (a dependency) gets one clear line and exit 2, not a traceback per file.

Seen on a GPU machine whose Python had the project on its path but not its dependencies: `safekernels demo`
printed an internal-error traceback for every example file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HIDE_LIBCST = """
import importlib.abc, sys
class _NoLibcst(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "libcst" or name.startswith("libcst."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, _NoLibcst())
from ownership_check.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_missing_libcst_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("import safekernels\nx = 1\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", HIDE_LIBCST, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    assert "libcst is not installed" in result.stderr
    assert "Traceback" not in result.stderr
