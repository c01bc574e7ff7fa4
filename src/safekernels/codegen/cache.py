"""On-disk cache of compiled kernels, correct by construction.

Key: SHA-256 over the kernel's source, the sources of the `@simt.device` helpers, and every compile-time value
the kernel can read: the module-level globals its code names (and nested code's), the values captured in its
closure cells (`make(3.0)` and `make(5.0)` are different kernels), and constant attributes of the namespaces
it names (`cfg.N`) — all found from the code objects, so no front-end run is needed to compute it.  Plus the
specialization (parameter kinds/dtypes, contract block, unchecked indexing, assumed `requires`, approximate
math, asserts on/off), the target arch, the versions of this package, llvmlite, nvJitLink and libdevice, and a
fingerprint of the compiler's own sources (`toolchain.compiler_fingerprint`).

An entry is one file: a magic line, a JSON header (format, key, section lengths, the consumer's metadata
record, and a SHA-256 over the canonical header *and* the payload), then the LLVM IR, PTX and cubin.  A read
checks the magic, the key, the lengths and the checksum, and then the consumer validates the metadata
(`load(key, validate=...)`: a missing field, a wrong type, an edited block or plan).  Anything that fails is
deleted and reported as a miss, so a corrupt or edited entry is rebuilt, never trusted.  Writes go to a
temporary file in the same folder and are renamed into place (atomic on POSIX).  `SAFEKERNELS_CACHE_DIR`
moves the cache; `SAFEKERNELS_NO_CACHE=1` disables it.  Reads take regular files only (a FIFO or a link to
`/dev/zero` is a miss, never a hang), at most 256 MiB, with a header of finite numbers nested at most 32 deep.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import os
import tempfile
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from safekernels.codegen.frontend.spec import KernelSpec
from safekernels.disk_data import parse_json, read_regular

MAGIC = b"SKCODEGEN2\n"
FORMAT_VERSION = 2
#: Largest entry read (IR + PTX + cubin of one kernel are a few MiB); a larger file is a miss, never read whole.
MAX_ENTRY_BYTES = 256 * 1024 * 1024
MAX_HEADER_DEPTH = 32

log = logging.getLogger("safekernels.codegen")


def cache_dir() -> Path | None:
    if os.environ.get("SAFEKERNELS_NO_CACHE", "") not in ("", "0"):
        return None
    root = os.environ.get("SAFEKERNELS_CACHE_DIR")
    if root:
        return Path(root)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "safekernels" / "codegen"


def _source_of(fn: Any) -> str:
    """The function's source, prefixed by where it stands: the binary embeds that place (the file and line an
    `assert` or a bounds trap reports, the PTX line info), so the same text at another place is another entry."""
    code = getattr(fn, "__code__", None)
    where = f"{code.co_filename}:{code.co_firstlineno}\n" if code is not None else ""
    try:
        return where + inspect.getsource(inspect.unwrap(fn))
    except (OSError, TypeError):
        return where + (repr(code.co_code) if code is not None else repr(fn))


_CONST_TYPES = (bool, int, float, str, bytes, type(None))


def _constant_repr(value: Any, depth: int = 0) -> str | None:
    """A stable text for a compile-time constant (numbers, strings, numpy scalars, tuples of them), or None."""
    if isinstance(value, _CONST_TYPES) and not isinstance(value, type):
        return f"{type(value).__name__}:{value!r}"
    if type(value).__module__ == "numpy" and hasattr(value, "dtype") and getattr(value, "shape", None) == ():
        return f"{value.dtype}:{value!r}"
    if isinstance(value, tuple | frozenset) and depth < 4:
        parts = [_constant_repr(v, depth + 1) for v in value]
        if all(p is not None for p in parts):
            return f"{type(value).__name__}({','.join(p for p in parts if p is not None)})"
    return None


def _code_names(code: types.CodeType) -> set[str]:
    names: set[str] = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _value_part(label: str, value: Any, names: set[str], seen: set[int], parts: list[str]) -> None:
    """Append what `value` (a global or closure value the kernel names) contributes to the key."""
    text = _constant_repr(value)
    if text is not None:
        parts.append(f"{label}={text}")
        return
    if hasattr(value, "py_function") and not hasattr(value, "contract"):
        _reachable(value.py_function, seen, parts)
    elif getattr(value, "__simt_device__", False):
        _reachable(value, seen, parts)
    elif type(value).__name__ == "TileFunction" and callable(getattr(value, "fn", None)):
        _reachable(value.fn, seen, parts)  # an inlined `@tile.function` helper
    elif isinstance(value, types.ModuleType | type) or hasattr(value, "__dict__"):
        # a namespace the kernel reads constants from (`cfg.N`): its constant attributes the code names
        for attr in sorted(names):
            try:
                member = inspect.getattr_static(value, attr)
            except AttributeError:
                continue
            member_text = _constant_repr(member)
            if member_text is not None:
                parts.append(f"{label}.{attr}={member_text}")
    elif isinstance(value, types.FunctionType):
        _reachable(value, seen, parts)


def _reachable(fn: Any, seen: set[int], parts: list[str]) -> None:
    """Append the source of `fn`, its closure values and every helper / constant its code names, recursively."""
    target = inspect.unwrap(fn)
    if id(target) in seen:
        return
    seen.add(id(target))
    parts.append(_source_of(target))
    code = getattr(target, "__code__", None)
    if code is None:
        return
    names = _code_names(code)
    cells = getattr(target, "__closure__", None) or ()
    for var, cell in zip(code.co_freevars, cells, strict=False):
        try:
            value = cell.cell_contents
        except ValueError:
            parts.append(f"closure {var}=<empty>")
            continue
        _value_part(f"closure {var}", value, names, seen, parts)
    globals_: dict[str, Any] = getattr(target, "__globals__", {})
    for name in sorted(names):
        if name in globals_:
            _value_part(f"global {name}", globals_[name], names, seen, parts)


def _asserts_enabled() -> bool:
    from safekernels.simt.device_print import asserts_enabled

    return asserts_enabled()


def source_key_parts(fn: Any) -> list[str]:
    """The source/closure/global part of a key, for consumers with their own specialization (tile)."""
    parts: list[str] = [f"asserts={_asserts_enabled()}"]
    _reachable(fn, set(), parts)
    return parts


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
        "asserts": _asserts_enabled(),
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


def _checksum(header: dict[str, Any], payload: bytes) -> str:
    h = hashlib.sha256(json.dumps(header, sort_keys=True, separators=(",", ":")).encode())
    h.update(b"\0")
    h.update(payload)
    return h.hexdigest()


def load(key: str, validate: Callable[[dict[str, Any]], object] | None = None) -> CacheEntry | None:
    """The entry for `key`, or None (a miss).  `validate(meta)` raises (KeyError/TypeError/ValueError) or
    returns False for a metadata record the consumer cannot use; such an entry is deleted like a corrupt one."""
    root = cache_dir()
    if root is None:
        return None
    path = root / f"{key}.skc"
    if not os.path.lexists(path):
        log.debug("cache miss %s", key[:16])
        return None
    try:
        data = read_regular(path, MAX_ENTRY_BYTES)  # a FIFO or /dev/zero link is rejected, never read
        if not data.startswith(MAGIC):
            raise ValueError("bad magic")
        header_end = data.index(b"\n", len(MAGIC))
        header = parse_json(data[len(MAGIC) : header_end], max_depth=MAX_HEADER_DEPTH)
        if not isinstance(header, dict):
            raise ValueError("header is not an object")
        payload = data[header_end + 1 :]
        recorded = header.pop("sha256")
        if recorded != _checksum(header, payload):
            raise ValueError("checksum mismatch")
        if header.get("format") != FORMAT_VERSION or header.get("key") != key:
            raise ValueError("entry of another key or format")
        lengths = header["lengths"]
        if not (isinstance(lengths, list) and len(lengths) == 3 and all(type(n) is int for n in lengths)):
            raise ValueError("lengths are not three integers")
        n_ir, n_ptx, n_cubin = lengths
        if min(n_ir, n_ptx, n_cubin) < 0 or n_ir + n_ptx + n_cubin != len(payload):
            raise ValueError("length mismatch")
        meta = header["meta"]
        if not isinstance(meta, dict):
            raise ValueError("meta is not an object")
        if validate is not None and validate(meta) is False:
            raise ValueError("metadata record rejected")
        entry = CacheEntry(
            payload[:n_ir].decode(),
            payload[n_ir : n_ir + n_ptx].decode(),
            bytes(payload[n_ir + n_ptx :]),
            dict(meta),
        )
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as exc:
        log.info("cache entry %s rejected (%s); rebuilding", key[:16], exc)
        try:
            path.unlink()
        except OSError:
            pass
        return None
    log.debug("cache hit %s", key[:16])
    return entry


def store(key: str, entry: CacheEntry) -> None:
    root = cache_dir()
    if root is None:
        return
    try:
        root.mkdir(parents=True, exist_ok=True)
        ir_b, ptx_b = entry.llvm_ir.encode(), entry.ptx.encode()
        payload = ir_b + ptx_b + entry.cubin
        header: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "key": key,
            "lengths": [len(ir_b), len(ptx_b), len(entry.cubin)],
            "meta": entry.meta,
        }
        header["sha256"] = _checksum(header, payload)
        fd, tmp = tempfile.mkstemp(dir=root, prefix=f".{key[:16]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + payload)
            os.replace(tmp, root / f"{key}.skc")
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        return  # a read-only or full disk only costs a recompile next time
