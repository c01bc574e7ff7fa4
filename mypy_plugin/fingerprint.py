"""A fingerprint of everything that decides what the plugin reports, for mypy's cache validation.

mypy replays cached errors for unchanged modules.  It re-checks a module when `report_config_data` changes, so the
plugin reports a hash of its own sources, the analysis core, the suppression parser and the ownership table: an
upgrade (or an edit while developing) never serves diagnostics computed by older rules.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import mypy_plugin
import ownership_check.core
import ownership_check.suppressions
import safekernels.ownership_model


def _sources() -> list[Path]:
    files: list[Path] = []
    for package in (mypy_plugin, ownership_check.core):
        for root in package.__path__:
            files.extend(sorted(Path(root).glob("*.py")))
    for module in (ownership_check.suppressions, safekernels.ownership_model):
        if module.__file__:
            files.append(Path(module.__file__))
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
