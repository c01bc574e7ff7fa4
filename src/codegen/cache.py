"""On-disk cache of compiled kernels.

Key: SHA-256 over the kernel's source, the sources of the `@simt.device` helpers and the values of the
module-level constants it can reach (found from the code objects' global names, so no front-end run is needed
to compute it), the specialization (parameter kinds/dtypes, contract block, unchecked indexing, assumed `requires`,
approximate math), the target arch, and the versions of this package, llvmlite, nvJitLink and libdevice.

An entry is one file: a magic line, a JSON header with section lengths and a SHA-256 of the payload, then the
LLVM IR, PTX and cubin.  Writes go to a temporary file in the same folder and are renamed into place
(atomic on
POSIX).  A read that fails any check deletes the entry and reports a miss, so a corrupt entry is rebuilt,
never trusted.  `SAFEKERNELS_CACHE_DIR` moves the cache; `SAFEKERNELS_NO_CACHE=1` disables it.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.frontend.spec import KernelSpec

MAGIC = b"SKCODEGEN1\n"
FORMAT_VERSION = 1


def cache_dir() -> Path | None:
    if os.environ.get("SAFEKERNELS_NO_CACHE", "") not in ("", "0"):
        return None
    root = os.environ.get("SAFEKERNELS_CACHE_DIR")
    if root:
        return Path(root)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "safekernels" / "codegen"


def _source_of(fn: Any) -> str:
    try:
        return inspect.getsource(inspect.unwrap(fn))
    except (OSError, TypeError):
        code = getattr(fn, "__code__", None)
        return repr(code.co_code) if code is not None else repr(fn)


def _reachable(fn: Any, seen: set[int], parts: list[str]) -> None:
    """Append the source of `fn` and of every helper / constant its code names, recursively."""
    target = inspect.unwrap(fn)
    if id(target) in seen:
        return
    seen.add(id(target))
    parts.append(_source_of(target))
    code = getattr(target, "__code__", None)
    if code is None:
        return
    names: set[str] = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names.update(const.co_names)
    globals_: dict[str, Any] = getattr(target, "__globals__", {})
    for name in sorted(names):
        if name not in globals_:
            continue
        value = globals_[name]
        if isinstance(value, bool | int | float) and not isinstance(value, type):
            parts.append(f"{name}={value!r}")
        elif hasattr(value, "py_function") and not hasattr(value, "contract"):
            _reachable(value.py_function, seen, parts)
        elif getattr(value, "__simt_device__", False):
            _reachable(value, seen, parts)


def cache_key(spec: KernelSpec, arch: str, approx_math: bool, versions: dict[str, str]) -> str:
    parts: list[str] = []
    _reachable(spec.py_function, set(), parts)
    specialization = {
        "name": spec.name,
        "params": [(p.name, p.kind, p.dtype.name) for p in spec.params] if spec.params is not None else None,
        "block": spec.block,
        "unchecked": spec.unchecked_indexing,
        "assume": [r.text for r in spec.requires] if spec.assume_requires else None,
        "approx": approx_math,
        "arch": arch,
        "format": FORMAT_VERSION,
        **versions,
    }
    h = hashlib.sha256()
    h.update(json.dumps(specialization, sort_keys=True).encode())
    for part in parts:
        h.update(b"\0")
        h.update(part.encode())
    return h.hexdigest()


@dataclass(frozen=True)
class CacheEntry:
    llvm_ir: str
    ptx: str
    cubin: bytes
    meta: dict[str, Any]


def load(key: str) -> CacheEntry | None:
    root = cache_dir()
    if root is None:
        return None
    path = root / f"{key}.skc"
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        if not data.startswith(MAGIC):
            raise ValueError("bad magic")
        header_end = data.index(b"\n", len(MAGIC))
        header = json.loads(data[len(MAGIC) : header_end])
        payload = data[header_end + 1 :]
        if hashlib.sha256(payload).hexdigest() != header["sha256"]:
            raise ValueError("checksum mismatch")
        n_ir, n_ptx, n_cubin = header["lengths"]
        if n_ir + n_ptx + n_cubin != len(payload):
            raise ValueError("length mismatch")
        return CacheEntry(
            payload[:n_ir].decode(),
            payload[n_ir : n_ir + n_ptx].decode(),
            bytes(payload[n_ir + n_ptx :]),
            dict(header["meta"]),
        )
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        try:
            path.unlink()
        except OSError:
            pass
        return None


def store(key: str, entry: CacheEntry) -> None:
    root = cache_dir()
    if root is None:
        return
    try:
        root.mkdir(parents=True, exist_ok=True)
        ir_b, ptx_b = entry.llvm_ir.encode(), entry.ptx.encode()
        payload = ir_b + ptx_b + entry.cubin
        header = {
            "sha256": hashlib.sha256(payload).hexdigest(),
            "lengths": [len(ir_b), len(ptx_b), len(entry.cubin)],
            "meta": entry.meta,
        }
        fd, tmp = tempfile.mkstemp(dir=root, prefix=f".{key[:16]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC + json.dumps(header).encode() + b"\n" + payload)
            os.replace(tmp, root / f"{key}.skc")
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        return  # a read-only or full disk only costs a recompile next time
