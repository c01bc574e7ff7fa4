"""A fingerprint of everything that decides what the plugin reports, for mypy's cache validation.

mypy replays cached errors for unchanged modules.  It re-checks a module when `report_config_data` changes, so the
plugin reports a hash of its own sources, the analysis core, the suppression parser and the ownership table: an
upgrade (or an edit while developing) never serves diagnostics computed by older rules.

The files are found without importing them (`importlib.util.find_spec`), so that loading the plugin does not
import the analysis (see `hooks`).
"""

from __future__ import annotations

import hashlib
from importlib.util import find_spec
from pathlib import Path

PACKAGES = ("mypy_plugin", "ownership_check.core")
MODULES = ("ownership_check.suppressions", "safekernels.ownership_model")


def _sources() -> list[Path]:
    files: list[Path] = []
    for package in PACKAGES:
        spec = find_spec(package)
        for root in (spec.submodule_search_locations or []) if spec is not None else []:
            files.extend(sorted(Path(root).glob("*.py")))
    for module in MODULES:
        spec = find_spec(module)
        if spec is not None and spec.origin:
            files.append(Path(spec.origin))
    return files


def fingerprint() -> str:
    digest = hashlib.sha256()
    for path in _sources():
        digest.update(path.name.encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()[:16]
