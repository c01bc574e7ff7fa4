"""What `safekernels build` writes into `-o DIR`, and how it keeps that folder consistent.

    OutputFolderLock(DIR)      an exclusive `flock` on the folder itself, held for the whole build: two builds
                               into one folder run one after the other, never interleaved
    safe_stem(name)            a kernel name usable as a file name (an identifier), never `../x` or `a/b`
    write_atomic(path, data)   temporary file in DIR, then `os.replace`: a reader sees the old file or the
                               new one, never half of one (a full disk, a file-size limit or Ctrl-C included)
    merge_manifest(...)        DIR/manifest.json keeps the kernels of every file built into DIR: a rebuild of
                               one file replaces that file's entries; a kernel name another file already
                               owns there is refused before anything is written

The manifest is read back through the same validating reader as `sk.load_prebuilt`, so a folder holding a
manifest this package did not write (or one edited by hand) is refused instead of being overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from safekernels.prebuilt import MANIFEST, PrebuiltError, read_manifest

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: builds into one folder are not serialized
    fcntl = None  # type: ignore[assignment]


class BuildOutputError(Exception):
    """The output folder cannot take this build (a write failed, a name conflict, a foreign manifest)."""


class OutputFolderLock:
    """An exclusive lock on the output folder for the duration of a build (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.fd: int | None = None

    def __enter__(self) -> OutputFolderLock:
        if fcntl is None:
            return self
        try:
            self.fd = os.open(self.folder, os.O_RDONLY)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except OSError as exc:
            self._close()
            raise BuildOutputError(f"-o {self.folder}: cannot lock the folder ({exc.strerror or exc})") from None
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._close()

    def _close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None


def safe_stem(name: str) -> str:
    """`name` if it can name output files inside the folder (an identifier of at most 200 characters)."""
    if not isinstance(name, str) or not name.isidentifier() or len(name) > 200:
        raise BuildOutputError(
            f"kernel name {str(name)[:80]!r} cannot name an output file (a kernel's __name__ must be an "
            "identifier of at most 200 characters)"
        )
    return name


def describe_os_error(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason += " (the disk is full)"
    elif exc.errno == errno.EFBIG:
        reason += " (the file-size limit, `ulimit -f`, was reached)"
    return reason


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file renamed into place; `BuildOutputError` if that fails."""
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".sk-build.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise BuildOutputError(f"cannot write {path}: {describe_os_error(exc)}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _entry_source(entry: dict[str, Any], manifest: dict[str, Any]) -> str:
    return str(entry.get("source") or manifest.get("source") or "")


def existing_manifest(folder: Path) -> dict[str, Any] | None:
    """The folder's manifest (validated), None if there is none; `BuildOutputError` for one we cannot trust."""
    path = folder / MANIFEST
    if not os.path.lexists(path):
        return None
    try:
        return read_manifest(path)
    except PrebuiltError as exc:
        raise BuildOutputError(f"{exc}; remove it or build into another folder") from None


def claimed_files(manifest: dict[str, Any] | None, source: str) -> dict[str, str]:
    """File name -> the source that built it, for the entries of other sources than `source`."""
    if manifest is None:
        return {}
    out: dict[str, str] = {}
    for entry in manifest["kernels"]:
        owner = _entry_source(entry, manifest)
        if owner != source:
            for name in entry["files"].values():
                out[name] = owner
    return out


def merge_manifest(manifest: dict[str, Any] | None, source: str, header: dict[str, Any],
                   entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The manifest to write: the other sources' entries kept, this source's replaced by `entries`."""
    kept = []
    if manifest is not None:
        for entry in manifest["kernels"]:
            owner = _entry_source(entry, manifest)
            if owner != source:
                kept.append({**entry, "source": owner})
    return {**header, "kernels": [*kept, *({**entry, "source": source} for entry in entries)]}
