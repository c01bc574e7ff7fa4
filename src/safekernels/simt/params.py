"""Kernel parameters read from a kernel's signature: name, kind (`slice`/`disjoint`/`atomic`/`scalar`), dtype.

Annotations may be objects (`Slice[f32]`) or strings (`from __future__ import annotations`); strings are
parsed with `ast`, never evaluated, so a kernel module's import order does not matter.  How a launch takes
each argument (shared borrow, mutable borrow, copy) comes from the one ownership table,
`ownership_model.PARAM_MODES`."""

from __future__ import annotations

import ast
import builtins
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from safekernels.dtypes import DType, ScalarType, dtype_class, dtype_of
from safekernels.ownership_model import ParamMode, param_mode

#: The SIMT parameter classes by name, and the `kind` codegen sees for each.
SLICE_KINDS: dict[str, str] = {"Slice": "slice", "DisjointSlice": "disjoint", "AtomicSlice": "atomic"}

_BUILTIN_SCALARS: dict[str, Any] = {"int": builtins.int, "float": builtins.float, "bool": builtins.bool}


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter as codegen and the launcher see it."""

    name: str
    kind: str  # "slice" | "disjoint" | "atomic" | "scalar"
    dtype: DType

    @property
    def class_name(self) -> str:
        return {v: k for k, v in SLICE_KINDS.items()}.get(self.kind, self.dtype.name)

    @property
    def mode(self) -> ParamMode:
        return param_mode(self.class_name) if self.kind != "scalar" else ParamMode.VALUE

    @property
    def is_buffer(self) -> bool:
        return self.kind != "scalar"

    @property
    def is_mutable(self) -> bool:
        return self.mode is ParamMode.MUT

    def type_text(self) -> str:
        return f"{self.class_name}[{self.dtype.name}]" if self.is_buffer else self.dtype.name


def _simple_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _scalar_dtype_by_name(name: str) -> DType | None:
    if name in _BUILTIN_SCALARS:
        return dtype_of(_BUILTIN_SCALARS[name])
    if name == "bool_":
        name = "bool"
    try:
        return dtype_of(dtype_class(name))
    except KeyError:
        return None


def _from_string(text: str) -> tuple[str, DType] | None:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Subscript):
        base = _simple_name(node.value)
        arg = _simple_name(node.slice)
        if base in SLICE_KINDS and arg is not None:
            dt = _scalar_dtype_by_name(arg)
            return (SLICE_KINDS[base], dt) if dt is not None else None
        return None
    name = _simple_name(node)
    if name is not None:
        dt = _scalar_dtype_by_name(name)
        return ("scalar", dt) if dt is not None else None
    return None


def _from_object(annotation: Any) -> tuple[str, DType] | None:
    origin = typing.get_origin(annotation)
    if origin is not None:
        base = getattr(origin, "__name__", None)
        args = typing.get_args(annotation)
        if base in SLICE_KINDS and len(args) == 1:
            try:
                return SLICE_KINDS[base], dtype_of(args[0])
            except TypeError:
                return None
        return None
    if isinstance(annotation, type) and (
        issubclass(annotation, ScalarType) or annotation in (builtins.int, builtins.float, builtins.bool)
    ):
        return "scalar", dtype_of(annotation)
    return None


def parse_params(fn: Callable[..., Any], kernel_name: str) -> list[KernelParam]:
    """The parameters of kernel `fn`, or a TypeError naming the first unsupported one."""
    signature = inspect.signature(fn)
    params: list[KernelParam] = []
    for p in signature.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise TypeError(
                f"{kernel_name}: parameter `{p.name}`: kernels take plain positional parameters only"
            )
        annotation = p.annotation
        if annotation is p.empty:
            raise TypeError(
                f"{kernel_name}: parameter `{p.name}` needs a type annotation (Slice[T], DisjointSlice[T], "
                "AtomicSlice[T] or a scalar dtype such as f32, i32, u32)"
            )
        parsed = _from_string(annotation) if isinstance(annotation, str) else _from_object(annotation)
        if parsed is None:
            raise TypeError(
                f"{kernel_name}: parameter `{p.name}` has unsupported type {annotation!r}; kernel "
                "parameters are Slice[T], DisjointSlice[T], AtomicSlice[T] or scalar dtypes "
                "(f32, f64, i32, i64, u32, u64, bool)"
            )
        params.append(KernelParam(p.name, parsed[0], parsed[1]))
    ret = signature.return_annotation
    if ret not in (signature.empty, None, "None"):
        raise TypeError(f"{kernel_name}: kernels return None (annotate `-> None`), not {ret!r}")
    return params
