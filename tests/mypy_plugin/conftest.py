"""Make the plugin tests' helper (`mypy_harness`), the corpus expectations (`cases`) and this checkout's
`mypy_plugin` importable under pytest's importlib mode."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for folder in (_HERE, _HERE.parent / "checker_golden", _HERE.parent.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
# The repository root (inserted last, so first on sys.path) makes `mypy_plugin` this checkout's regular package,
# also where an editable install registered it as a namespace package before it had an `__init__.py`.
_stale = sys.modules.get("mypy_plugin")
if _stale is not None and getattr(_stale, "__file__", None) is None:
    for _name in [n for n in sys.modules if n == "mypy_plugin" or n.startswith("mypy_plugin.")]:
        del sys.modules[_name]
