"""Make this folder's modules and the mypy plugin tests' harness (`mypy_harness`, `plugin_cases`) importable."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for _path in (str(_HERE), str(_HERE.parent / "mypy_plugin")):
    if _path not in sys.path:
        sys.path.insert(0, _path)
