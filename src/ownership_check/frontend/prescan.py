"""Cheap relevance test and per-file summary, using only a substring search and the stdlib `ast`.

A file can involve safekernels only if it mentions `safekernels` or imports a project module that does (a
kernel re-exported through `mypkg/__init__.py`).  The substring test rules out almost every file of a typical
tree at memory speed; `ast` (an order of magnitude faster than libcst) then extracts what the project index
needs: import bindings, kernels with their parameter modes, and `@simt.device` helpers.  Summaries are plain
JSON-able data so the cache can store them.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from typing import Any

from safekernels.ownership_model import DEVICE_DECORATOR, KERNEL_DECORATORS, PARAM_MODES

MARKER = "safekernels"


@dataclass
class KernelSummary:
    name: str
    track: str  # "simt" | "tile"
    params: list[tuple[str, str]]  # (parameter name, ParamMode value)
    line: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "track": self.track, "params": self.params, "line": self.line}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KernelSummary:
        return cls(data["name"], data["track"], [(p, m) for p, m in data["params"]], data["line"])


@dataclass
class FileSummary:
    module: str
    imports: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    imported_modules: list[str] = field(default_factory=list)
    kernels: dict[str, KernelSummary] = field(default_factory=dict)
    devices: list[str] = field(default_factory=list)
    mentions_marker: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "imports": self.imports,
            "imported_modules": self.imported_modules,
            "kernels": {k: v.to_json() for k, v in self.kernels.items()},
            "devices": self.devices,
            "mentions_marker": self.mentions_marker,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileSummary:
        return cls(
            data["module"],
            dict(data["imports"]),
            list(data["imported_modules"]),
            {k: KernelSummary.from_json(v) for k, v in data["kernels"].items()},
            list(data["devices"]),
            bool(data["mentions_marker"]),
        )


def module_name(path: str, is_package_dir: dict[str, bool] | None = None) -> str:
    """Dotted module name of a file, walking up through packages (directories with `__init__.py`).

    `is_package_dir` memoizes the directory tests within one run (never across runs: adding an `__init__.py`
    changes the answer, and with it the cache's validity).
    """
    memo = {} if is_package_dir is None else is_package_dir
    path = os.path.abspath(path)
    directory, filename = os.path.split(path)
    stem = os.path.splitext(filename)[0]
    parts = [] if stem == "__init__" else [stem]
    while True:
        known = memo.get(directory)
        if known is None:
            known = memo[directory] = os.path.isfile(os.path.join(directory, "__init__.py"))
        if not known:
            break
        directory, pkg = os.path.split(directory)
        parts.insert(0, pkg)
        if not pkg:
            break
    return ".".join(parts) or stem


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([target] if target else [])])


def dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def resolve_local(name: str, imports: dict[str, str], module: str, toplevel: set[str]) -> str:
    """Qualified name of a dotted expression through the file's import bindings."""
    head, _, rest = name.partition(".")
    if head in imports:
        base = imports[head]
    elif head in toplevel:
        base = f"{module}.{head}"
    else:
        return name
    return f"{base}.{rest}" if rest else base


def annotation_mode(node: ast.expr | None, imports: dict[str, str] | None = None) -> str:
    """`ParamMode` value of a parameter annotation: `Slice[f32]`, `Annotated[Tensor[f32], ...]`,
    `"Slice[f32]"`; names are read through the file's `imports` (`DisjointSlice as Out` makes `Out[f32]` one)."""
    if node is None:
        return "value"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return "value"
    if isinstance(node, ast.Subscript):
        last = _annotation_name(node.value, imports)
        if last == "Annotated":
            inner = (
                node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
            )
            return annotation_mode(inner, imports)
        if last == "Optional":
            return annotation_mode(node.slice, imports)
        return PARAM_MODES[last].value if last in PARAM_MODES else "value"
    last = _annotation_name(node, imports)
    return PARAM_MODES[last].value if last in PARAM_MODES else "value"


def _annotation_name(node: ast.expr, imports: dict[str, str] | None) -> str:
    """The last segment of an annotation's name, after import aliases (`Out` -> `DisjointSlice`)."""
    head = dotted(node)
    if head is None:
        return ""
    if imports:
        first, _, rest = head.partition(".")
        bound = imports.get(first)
        if bound is not None:
            head = f"{bound}.{rest}" if rest else bound
    return head.rsplit(".", 1)[-1]


def collect_imports(tree: ast.AST, module: str, is_package: bool) -> tuple[dict[str, str], list[str]]:
    imports: dict[str, str] = {}
    modules: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules.append(alias.name)
                if alias.asname:
                    imports[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    imports.setdefault(head, head)
        elif isinstance(node, ast.ImportFrom):
            base = (
                _resolve_relative(module, is_package, node.level, node.module)
                if node.level
                else node.module or ""
            )
            modules.append(base)
            for alias in node.names:
                if alias.name == "*":
                    continue
                imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
                modules.append(f"{base}.{alias.name}")
    return imports, modules


def kernel_track(
    decorators: list[ast.expr], imports: dict[str, str], module: str, toplevel: set[str]
) -> str | None:
    for dec in decorators:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = dotted(target)
        if name is None:
            continue
        qualified = resolve_local(name, imports, module, toplevel)
        if qualified in KERNEL_DECORATORS:
            return KERNEL_DECORATORS[qualified]
        if qualified == DEVICE_DECORATOR:
            return "device"
    return None


def summarize(tree: ast.Module, path: str, mentions_marker: bool, module: str | None = None) -> FileSummary:
    module = module or module_name(path)
    is_package = os.path.basename(path) == "__init__.py"
    imports, modules = collect_imports(tree, module, is_package)
    toplevel = {
        n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    summary = FileSummary(module, imports, modules, mentions_marker=mentions_marker)
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        track = kernel_track(node.decorator_list, imports, module, toplevel)
        if track == "device":
            summary.devices.append(node.name)
        elif track is not None:
            args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            params = [(a.arg, annotation_mode(a.annotation, imports)) for a in args]
            summary.kernels[node.name] = KernelSummary(node.name, track, params, node.lineno)
    return summary


def mentions_marker(data: bytes) -> bool:
    return MARKER.encode() in data
