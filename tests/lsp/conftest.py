"""tests/lsp needs the [lsp] extra (pygls), pytest-lsp and libcst; a machine without them collects nothing here."""

from __future__ import annotations

import importlib.util

collect_ignore_glob = (
    ["*.py"] if any(importlib.util.find_spec(m) is None for m in ("pygls", "pytest_lsp", "libcst")) else []
)
