"""The content-hash cache in `.ownership_check_cache/`: re-runs over unchanged files are near free.

Correct by construction: a cached answer is used only when every input that could change it is unchanged.

    cache file name     checker version (hash of the checker's and the ownership table's source text, the
                        Python version, libcst's version) + configuration fingerprint (excludes, select,
                        ignore, config root)
    per file            content hash, module name (so the package layout: adding an `__init__.py` renames
                        the module), prescan summary, syntax/complexity verdicts
    per file's result   the project-index fingerprint (every kernel and import binding of every relevant file
                        of the project) and the path it was displayed as

The file is one header line, `ownership-check-cache <schema> <blake2b of the rest>`, then JSON.  A file whose
checksum, schema or JSON does not verify (truncated, edited, nested 100,000 deep) is ignored as a whole, and a
record that does not have the expected shape is a miss for that file (the runner validates each record as it
converts it); both are rebuilt, never trusted.  Writes go to a temporary file in the same directory and are
published with `os.replace`, so a crashed or concurrent run never leaves a half-written cache.

The cache trusts its own directory: it protects against corruption and staleness, not against someone who
can write `.ownership_check_cache/` (restore caches only from trusted runs).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from safekernels.disk_data import DiskDataError, read_regular

CACHE_DIR = ".ownership_check_cache"
SCHEMA = 2
_MAGIC = b"ownership-check-cache"
_MAX_CACHE_BYTES = 256 * 1024 * 1024


@cache
def checker_version() -> str:
    """Hash of everything that decides the checker's answers, apart from the checked files and the config."""
    import ownership_check
    import safekernels.ownership_model as model

    h = hashlib.sha256(f"schema{SCHEMA};python{sys.version_info[:3]};".encode())
    try:
        from importlib.metadata import version

        h.update(f"libcst{version('libcst')};".encode())
    except Exception:  # metadata missing (vendored libcst): the source hash below still covers our side
        h.update(b"libcst?;")
    root = Path(ownership_check.__file__).parent
    files = sorted(root.rglob("*.py"))
    files.append(Path(model.__file__))
    for p in files:
        name = p.relative_to(root.parent).as_posix() if p.is_relative_to(root.parent) else p.name
        h.update(f"{name}:".encode())
        try:
            h.update(hashlib.sha256(p.read_bytes()).digest())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()[:16]


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _checksum(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=16).hexdigest().encode()


def _load(path: str) -> dict[str, dict[str, Any]]:
    """The per-file records of a verified cache file; {} for anything missing, corrupt or foreign."""
    try:
        raw = read_regular(path, _MAX_CACHE_BYTES)  # a FIFO or a /dev/zero link is refused, never read
    except DiskDataError:
        return {}
    header, sep, body = raw.partition(b"\n")
    if not sep or len(raw) > _MAX_CACHE_BYTES:
        return {}
    if header != b" ".join((_MAGIC, str(SCHEMA).encode(), _checksum(body))):
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError, MemoryError):
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        return {}
    return {k: v for k, v in data["files"].items() if isinstance(k, str) and isinstance(v, dict)}


class Cache:
    def __init__(self, directory: str, config_fingerprint: str) -> None:
        self.directory = directory
        self.path = os.path.join(directory, f"{checker_version()}-{config_fingerprint}.json")
        self.entries: dict[str, dict[str, Any]] = _load(self.path)
        self.dirty = False

    def get(self, key: str, digest: str, module: str) -> dict[str, Any] | None:
        """The record of `key` if it was made from exactly these bytes at this place in the package layout."""
        entry = self.entries.get(key)
        if entry is not None and entry.get("sha") == digest and entry.get("module") == module:
            return entry
        return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        self.entries[key] = entry
        self.dirty = True

    def drop(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
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
            body = json.dumps({"files": self.entries}, separators=(",", ":")).encode()
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.directory)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(b" ".join((_MAGIC, str(SCHEMA).encode(), _checksum(body))) + b"\n" + body)
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            return
