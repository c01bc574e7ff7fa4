"""Name resolution for kernel bodies: what a global name or attribute chain refers to.

Names are looked up the way Python would at call time (the function's closure, then its globals, then
builtins), and the object found is classified.  The language surface (`thread.index_1d`, `warp.shfl_down`,
`simt.shared_array`, ...) is recognized by the object's home module being `safekernels.simt*`, so any import
alias works (`from safekernels.simt import thread as t`).  Nothing in the kernel is executed.
"""

from __future__ import annotations

import builtins
import math
import types
from dataclasses import dataclass
from typing import Any, Final

from safekernels.dtypes import DType, ScalarType

SURFACE: Final[frozenset[str]] = frozenset(
    {
        "index_1d",
        "index_2d",
        "lane_id",
        "sync_threads",
        "shared_array",
        "unsafe",
        "shfl_down",
        "shfl_up",
        "shfl_xor",
        "shfl_idx",
        "reduce_sum",
        "reduce_max",
        "reduce_min",
        *(f"{reg}_{axis}" for reg in ("thread_idx", "block_idx", "block_dim", "grid_dim") for axis in "xyz"),
    }
)
_SURFACE_ROOTS: Final = frozenset({"thread", "warp", "simt"})
BUILTINS: Final = frozenset({"min", "max", "abs", "len", "range", "int", "float", "bool"})


@dataclass(frozen=True)
class Resolved:
    kind: str  # surface | math | cast | builtin | helper | const | namespace | kernel | other
    name: str = ""
    value: Any = None


def _classify(obj: Any, name: str) -> Resolved:
    if isinstance(obj, bool | int | float) and not isinstance(obj, type):
        return Resolved("const", name, obj)
    if obj is math:
        return Resolved("namespace", "math", obj)
    if isinstance(obj, type) and issubclass(obj, ScalarType):
        dt: DType = obj.__dtype__
        return Resolved("cast", dt.name, dt)
    if obj is getattr(builtins, name, None) and name in BUILTINS:
        return Resolved("builtin", name, obj)
    module = getattr(obj, "__module__", None) or ""
    if getattr(obj, "__name__", None) and module == "math" and callable(obj):
        return Resolved("math", obj.__name__, obj)
    if hasattr(obj, "contract") and hasattr(obj, "py_function"):
        return Resolved("kernel", name, obj)
    if hasattr(obj, "py_function") or getattr(obj, "__simt_device__", False):
        return Resolved("helper", name, getattr(obj, "py_function", obj))
    if isinstance(obj, types.ModuleType) or isinstance(obj, type):
        return Resolved("namespace", name, obj)
    short = (getattr(obj, "__qualname__", None) or getattr(obj, "__name__", "") or "").rsplit(".", 1)[-1]
    if module.startswith("safekernels") and short in SURFACE:
        return Resolved("surface", short, obj)
    return Resolved("other", name, obj)


class Resolver:
    """Resolves names against one function's closure and globals."""

    def __init__(self, fn: Any) -> None:
        self.globals: dict[str, Any] = getattr(fn, "__globals__", {})
        closure = getattr(fn, "__closure__", None) or ()
        free = getattr(getattr(fn, "__code__", None), "co_freevars", ())
        self.closure: dict[str, Any] = {}
        for var, cell in zip(free, closure, strict=False):
            try:
                self.closure[var] = cell.cell_contents
            except ValueError:
                continue

    def lookup(self, name: str) -> Resolved | None:
        for scope in (self.closure, self.globals):
            if name in scope:
                return _classify(scope[name], name)
        if name in BUILTINS:
            return Resolved("builtin", name, getattr(builtins, name))
        if hasattr(builtins, name):
            return Resolved("other", name, getattr(builtins, name))  # print, list, ...: refused when called
        if name in _SURFACE_ROOTS:
            return Resolved("namespace", name, None)  # language namespace by its usual name (not imported)
        return None

    def attribute(self, base: Resolved, attr: str) -> Resolved | None:
        if base.kind != "namespace":
            return None
        if base.value is None:  # unimported `thread` / `warp` / `simt`: only the surface is known by name
            return Resolved("surface", attr) if attr in SURFACE else None
        if base.value is math:
            obj = getattr(math, attr, None)
            if obj is None:
                return None
            if isinstance(obj, float):
                return Resolved("const", attr, obj)
            return Resolved("math", attr, obj)
        if not hasattr(base.value, attr):
            return None
        return _classify(getattr(base.value, attr), attr)
