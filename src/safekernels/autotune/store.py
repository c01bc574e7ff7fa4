"""The autotuner's disk table: one small JSON file per (kernel, configs, key values, device), written atomically.

It lives beside the compiled-kernel cache (`SAFEKERNELS_CACHE_DIR`, default `~/.cache/safekernels/codegen`),
under `autotune/`, and honours `SAFEKERNELS_NO_CACHE=1` the same way.  A file that cannot be read or does not
name one of the current configurations is a miss (and is replaced by the next tuning), never trusted: only a
regular file of at most 1 MiB of JSON nested at most 16 deep, with finite numbers, is read at all.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from safekernels.disk_data import DiskDataError, parse_json, read_regular

#: A record is a few hundred bytes (the winner, the configurations, the timings); more is not one of ours.
MAX_RECORD_BYTES = 1 << 20
MAX_RECORD_DEPTH = 16


def _root() -> Path | None:
    if os.environ.get("SAFEKERNELS_NO_CACHE", "") not in ("", "0"):
        return None
    root = os.environ.get("SAFEKERNELS_CACHE_DIR")
    if root:
        return Path(root) / "autotune"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "safekernels" / "codegen" / "autotune"


class TuningStore:
    """Read and write tuning results by key hash."""

    def path(self, key: str) -> Path | None:
        root = _root()
        return None if root is None else root / f"{key}.json"

    def load(self, key: str, n_configs: int) -> int | None:
        """The stored winner's index, or None (no entry, unreadable, or out of range)."""
        path = self.path(key)
        if path is None:
            return None
        try:
            # timings may be NaN/inf (JSON's `NaN`): informational only; `best` must be an index in range
            entry = parse_json(read_regular(path, MAX_RECORD_BYTES), max_depth=MAX_RECORD_DEPTH, finite=False)
        except DiskDataError:
            return None  # a FIFO, /dev/zero, a huge or deeply nested file, NaN or 1e400: a miss, never a hang
        index = entry.get("best") if isinstance(entry, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n_configs:
            return None
        return index

    def save(self, key: str, entry: dict[str, Any]) -> None:
        path = self.path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w") as handle:
                json.dump(entry, handle, indent=1, sort_keys=True)
            os.replace(tmp, path)
        except OSError:
            pass  # an unwritable cache only costs a re-tune in the next process
