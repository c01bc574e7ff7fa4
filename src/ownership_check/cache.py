"""The content-hash cache in `.ownership_check_cache/`: re-runs over unchanged files are near free.

One JSON file per (checker version, configuration) holds, per file, its content hash, its prescan summary and
the diagnostics computed against a given project-index fingerprint.  A file's diagnostics are reused only when
its own hash and the whole project index (every kernel and import binding of every relevant file) are
unchanged.  The checker version is derived from the checker's own sources, so editing the checker invalidates
everything.  Writes go to a temporary file in the same directory and are published with `os.replace`, so a
crashed or concurrent run never leaves a half-written cache; an unreadable cache is ignored, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

CACHE_DIR = ".ownership_check_cache"
SCHEMA = 1


@cache
def checker_version() -> str:
    """Hash of the checker's and the ownership table's source files (name, size, mtime)."""
    import ownership_check
    import safekernels.ownership_model as model

    h = hashlib.sha256(f"schema{SCHEMA}".encode())
    roots = [Path(ownership_check.__file__).parent]
    files = sorted(p for root in roots for p in root.rglob("*.py"))
    files.append(Path(model.__file__))
    for p in files:
        st = p.stat()
        h.update(f"{p.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:16]


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class Cache:
    def __init__(self, directory: str, config_fingerprint: str) -> None:
        self.directory = directory
        self.path = os.path.join(directory, f"{checker_version()}-{config_fingerprint}.json")
        self.entries: dict[str, dict[str, Any]] = {}
        self.dirty = False
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
            if (
                isinstance(data, dict)
                and data.get("schema") == SCHEMA
                and isinstance(data.get("files"), dict)
            ):
                self.entries = data["files"]
        except (OSError, ValueError):
            self.entries = {}

    def get(self, key: str, digest: str) -> dict[str, Any] | None:
        entry = self.entries.get(key)
        if entry is not None and entry.get("sha") == digest:
            return entry
        return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        self.entries[key] = entry
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            os.makedirs(self.directory, exist_ok=True)
            gitignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(gitignore):
                with open(gitignore, "w", encoding="utf-8") as f:
                    f.write("*\n")
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.directory)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"schema": SCHEMA, "files": self.entries}, f)
            os.replace(tmp, self.path)
        except OSError:
            return
