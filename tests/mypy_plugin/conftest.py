"""Make the plugin tests' helper (`mypy_harness`) and the corpus expectations (`cases`) importable under
pytest's importlib mode."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for folder in (_HERE, _HERE.parent / "checker_golden"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
