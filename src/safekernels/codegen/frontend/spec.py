"""What codegen needs to know about a kernel, independent of how the language layer represents it.

`spec_from_kernel` reads a `safekernels.simt` kernel object duck-typed (`py_function`, `name`, `params`,
`contract`, `unchecked_indexing`; the contract's `relations` give `requires`), so codegen does not import the
language layer; for a bare function the
parameter kinds are read from the annotations' syntax (`Slice[f32]`, `DisjointSlice[i32]`, `AtomicSlice[u32]`,
`f32`), which is also how `@simt.device` helpers are typed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from safekernels.dtypes import DType, dtype_of

_SLICE_KINDS = {"Slice": "slice", "DisjointSlice": "disjoint", "AtomicSlice": "atomic"}


@dataclass(frozen=True)
class ParamSpec:
    name: str
    kind: str  # slice | disjoint | atomic | scalar
    dtype: DType


@dataclass(frozen=True)
class RequiresSpec:
    """One `requires` relation: operands are `("len", slice) | ("param", scalar) | ("lit", int) |
    ("bin", "+"|"-"|"*", left, right)`, `op` one of `< <= > >= == !=` (u64 semantics, see `simt.requires`)."""

    text: str
    left: tuple[object, ...]
    op: str
    right: tuple[object, ...]


@dataclass(frozen=True)
class KernelSpec:
    name: str
    py_function: Callable[..., Any]
    params: tuple[ParamSpec, ...] | None  # None: read from the annotations
    block: tuple[int, int, int] | None = None  # exact contract block -> .reqntid
    unchecked_indexing: bool = False
    min_compute_capability: tuple[int, int] | None = None
    requires: tuple[RequiresSpec, ...] = ()
    # compile for launches that checked `requires` first: the relations become `llvm.assume` at kernel entry
    assume_requires: bool = False


def _block3(block: Any) -> tuple[int, int, int] | None:
    if block is None:
        return None
    if isinstance(block, int):
        return (block, 1, 1)
    dims = [int(b) for b in block] + [1, 1, 1]
    return (dims[0], dims[1], dims[2])


def spec_from_kernel(kernel: Any, *, assume_requires: bool = False) -> KernelSpec:
    """A `KernelSpec` for a simt kernel object, or for a plain function (annotations give the params).
    `assume_requires` asks for the variant that assumes the contract's `requires` relations (only for launch
    paths that evaluate them before the kernel runs)."""
    fn = getattr(kernel, "py_function", kernel)
    name = getattr(kernel, "name", None) or fn.__name__
    params: tuple[ParamSpec, ...] | None = None
    raw_params = getattr(kernel, "params", None)
    if raw_params is not None:
        params = tuple(ParamSpec(p.name, p.kind, dtype_of(p.dtype)) for p in raw_params)
    contract = getattr(kernel, "contract", None)
    block = _block3(getattr(contract, "block", None)) if contract is not None else None
    cc = getattr(contract, "min_compute_capability", None) if contract is not None else None
    relations = getattr(contract, "relations", ()) if contract is not None else ()
    requires = tuple(RequiresSpec(str(r.text), tuple(r.left), str(r.op), tuple(r.right)) for r in relations)
    return KernelSpec(
        name=str(name),
        py_function=fn,
        params=params,
        block=block,
        unchecked_indexing=bool(getattr(kernel, "unchecked_indexing", False)),
        min_compute_capability=(int(cc[0]), int(cc[1])) if cc else None,
        requires=requires,
        assume_requires=assume_requires and bool(requires),
    )


def annotation_param(annotation: ast.expr | None) -> tuple[str, DType] | None:
    """`(kind, dtype)` from an annotation's syntax, or None when it is absent or not understood."""
    if annotation is None:
        return None
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(annotation, ast.Subscript):
        head = _last_name(annotation.value)
        if head in _SLICE_KINDS:
            inner = _last_name(annotation.slice)
            try:
                return _SLICE_KINDS[head], dtype_of(inner or "")
            except (TypeError, KeyError):
                return None
        return None
    name = _last_name(annotation)
    if name is None:
        return None
    if name == "bool":
        return "scalar", dtype_of("bool")
    if name == "int":
        return "scalar", dtype_of("i64")
    if name == "float":
        return "scalar", dtype_of("f64")
    try:
        return "scalar", dtype_of(name)
    except (TypeError, KeyError):
        return None


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None
