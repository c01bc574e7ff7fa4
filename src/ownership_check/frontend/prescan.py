"""Cheap relevance test and per-file summary, using only a substring search and the stdlib `ast`.

A file can involve safekernels only if it mentions `safekernels` or imports a project module that does (a
kernel re-exported through `mypkg/__init__.py`).  The substring test rules out almost every file of a typical
tree at memory speed; `ast` (an order of magnitude faster than libcst) then extracts what the project index
needs: import bindings, kernels with their parameter modes, and `@simt.device` helpers.  Summaries are plain
JSON-able data so the cache can store them.
"""

from __future__ import annotations

import ast
import functools
import os
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ownership_check.frontend.ast_walk import child_nodes, walk
from safekernels import ownership_model
from safekernels.ownership_model import DEVICE_DECORATOR, KERNEL_DECORATORS, KERNEL_WRAPPERS, PARAM_MODES

MARKER = "safekernels"


@dataclass
class KernelSummary:
    name: str
    track: str  # "simt" | "tile"
    params: list[tuple[str, str]]  # (parameter name, ParamMode value)
    line: int
    autotuned: bool = False  # wrapped by `@simt.autotune(...)` / `@tile.autotune(...)`

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "track": self.track, "params": self.params, "line": self.line,
            "autotuned": self.autotuned,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KernelSummary:
        return cls(
            data["name"], data["track"], [(p, m) for p, m in data["params"]], data["line"],
            bool(data.get("autotuned", False)),
        )


@dataclass
class FileSummary:
    module: str
    imports: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    imported_modules: list[str] = field(default_factory=list)
    kernels: dict[str, KernelSummary] = field(default_factory=dict)
    devices: list[str] = field(default_factory=list)
    mentions_marker: bool = False
    star_imports: list[str] = field(default_factory=list)  # modules of `from M import *`, in order
    # kernels defined inside function bodies (kernel factories, closures), by "<def line>:<name>"
    local_kernels: dict[str, KernelSummary] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "imports": self.imports,
            "imported_modules": self.imported_modules,
            "kernels": {k: v.to_json() for k, v in self.kernels.items()},
            "devices": self.devices,
            "mentions_marker": self.mentions_marker,
            "star_imports": self.star_imports,
            "local_kernels": {k: v.to_json() for k, v in self.local_kernels.items()},
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
            list(data.get("star_imports", [])),
            {k: KernelSummary.from_json(v) for k, v in data.get("local_kernels", {}).items()},
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


def annotation_mode(
    node: ast.expr | None, imports: dict[str, str] | None = None, aliases: dict[str, ast.expr] | None = None
) -> str:
    """`ParamMode` value of a parameter annotation: `Slice[f32]`, `Annotated[Tensor[f32], ...]`,
    `"Slice[f32]"`; names are read through the file's `imports` (`DisjointSlice as Out` makes `Out[f32]` one) and
    its module-level type `aliases` (`Vec = Slice[f32]`, `Vec: TypeAlias = ...`, `type Vec = ...`)."""
    for _ in range(16):  # alias chains (`A = B`, `B = Slice[f32]`), bounded against `A = A`
        if node is None:
            return "value"
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return "value"
            continue
        if isinstance(node, ast.Name) and aliases and node.id in aliases:
            node = aliases[node.id]
            continue
        if isinstance(node, ast.Subscript):
            last = _annotation_name(node.value, imports, aliases)
            if last in ("Annotated", "Optional"):
                node = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
                continue
            return PARAM_MODES[last].value if last in PARAM_MODES else "value"
        last = _annotation_name(node, imports, aliases)
        return PARAM_MODES[last].value if last in PARAM_MODES else "value"
    return "value"


def _annotation_name(
    node: ast.expr, imports: dict[str, str] | None, aliases: dict[str, ast.expr] | None = None
) -> str:
    """The last segment of an annotation's name, after import aliases (`Out` -> `DisjointSlice`) and type
    aliases of a generic (`Vec = Slice` makes `Vec[f32]` a `Slice`)."""
    for _ in range(16):
        if isinstance(node, ast.Name) and aliases and node.id in aliases:
            node = aliases[node.id]
            continue
        break
    head = dotted(node)
    if head is None:
        return ""
    if imports:
        first, _, rest = head.partition(".")
        bound = imports.get(first)
        if bound is not None:
            head = f"{bound}.{rest}" if rest else bound
    return head.rsplit(".", 1)[-1]


def type_aliases(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level type aliases: `Vec = Slice[f32]`, `Vec: TypeAlias = Slice[f32]`, `type Vec = Slice[f32]`
    (only names bound once at the top level, to a subscript, a name, an attribute or a string)."""
    found: dict[str, ast.expr] = {}
    seen: set[str] = set()
    for node in tree.body:
        name: str | None = None
        value: ast.expr | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            name, value = node.target.id, node.value
        elif type(node).__name__ == "TypeAlias":  # `type Vec = ...` (Python 3.12)
            alias_name = getattr(node, "name", None)
            name = alias_name.id if isinstance(alias_name, ast.Name) else None
            value = getattr(node, "value", None)
        if name is None or value is None:
            continue
        if name in seen:
            found.pop(name, None)
            continue
        seen.add(name)
        if isinstance(value, ast.Subscript | ast.Name | ast.Attribute) or (
            isinstance(value, ast.Constant) and isinstance(value.value, str)
        ):
            found[name] = value
    return found


def collect_imports(tree: ast.AST, module: str, is_package: bool) -> tuple[dict[str, str], list[str]]:
    imports, modules, _ = collect_bindings(tree, module, is_package)
    return imports, modules


def collect_bindings(tree: ast.AST, module: str, is_package: bool) -> tuple[dict[str, str], list[str], list[str]]:
    """Import bindings (local name -> qualified name), imported modules, and the modules of `from M import *`."""
    return _bindings(walk(tree), module, is_package)


def _bindings(
    nodes: Iterable[ast.AST], module: str, is_package: bool
) -> tuple[dict[str, str], list[str], list[str]]:
    """`collect_bindings` over the import statements among `nodes` (in `ast.walk` order)."""
    imports: dict[str, str] = {}
    modules: list[str] = []
    stars: list[str] = []
    for node in nodes:
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
                    if base and base not in stars:
                        stars.append(base)
                    continue
                imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
                modules.append(f"{base}.{alias.name}")
    return imports, modules, stars


def is_safekernels_name(qualified: str) -> bool:
    return qualified == MARKER or qualified.startswith(MARKER + ".")


@functools.cache
def safekernels_exports(module: str) -> frozenset[str]:
    """The names `from <module> import *` binds for a safekernels module: its `__all__`, read from its source
    with `ast` (nothing is imported; an unknown module exports nothing)."""
    root = Path(ownership_model.__file__).resolve().parent
    parts = module.split(".")[1:]
    for candidate in (root.joinpath(*parts, "__init__.py"), root.joinpath(*parts).with_suffix(".py")):
        if parts and candidate == root.with_suffix(".py"):
            continue
        try:
            tree = ast.parse(candidate.read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if (
                isinstance(node, ast.Assign | ast.AnnAssign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in _assign_targets(node))
                and isinstance(node.value, ast.List | ast.Tuple)
            ):
                return frozenset(
                    e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
        return frozenset()
    return frozenset()


#: Return annotations that say a safekernels function hands back plain host data, never a device value.
PLAIN_RESULTS: frozenset[str] = frozenset(
    {"bytes", "bytearray", "str", "int", "float", "bool", "None", "dict", "list", "tuple", "set", "frozenset", "Path"}
)


@functools.cache
def safekernels_returns_plain(qualified: str) -> bool:
    """Whether `qualified` (`safekernels.disk_data.read_regular`) is a module-level function of safekernels whose
    source annotates a plain host result (`-> bytes`, `-> dict[str, Any]`): a call of it is no device value.
    Read from the source with `ast`; anything not found that way (re-exports, methods, no annotation) is False,
    so the call stays a possible device value, as before."""
    module, _, name = qualified.rpartition(".")
    root = Path(ownership_model.__file__).resolve().parent
    parts = module.split(".")[1:]
    for candidate in (root.joinpath(*parts, "__init__.py"), root.joinpath(*parts).with_suffix(".py")):
        if not parts and candidate != root / "__init__.py":
            continue
        try:
            tree = ast.parse(candidate.read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                result = node.returns
                if isinstance(result, ast.Subscript):
                    result = result.value
                if isinstance(result, ast.Constant) and isinstance(result.value, str):  # a string annotation
                    return result.value.split("[", 1)[0].strip() in PLAIN_RESULTS
                return (isinstance(result, ast.Name) and result.id in PLAIN_RESULTS) or (
                    isinstance(result, ast.Constant) and result.value is None
                )
        return False
    return False


def _assign_targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(node.targets) if isinstance(node, ast.Assign) else [node.target]


def resolve_star(name: str, stars: Sequence[str]) -> str | None:
    """`name` through a `from safekernels... import *` that binds its first segment (the last such import wins)."""
    head = name.partition(".")[0]
    for star in reversed(stars):
        if is_safekernels_name(star) and head in safekernels_exports(star):
            return f"{star}.{name}"
    return None


def kernel_track(
    decorators: list[ast.expr],
    imports: dict[str, str],
    module: str,
    toplevel: set[str],
    stars: Sequence[str] = (),
) -> tuple[str, bool] | None:
    """The track a function's decorators make it (`simt`, `tile`, `device`) and whether an autotune decorator
    wraps the kernel."""
    track: str | None = None
    autotuned = False
    for dec in decorators:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = dotted(target)
        if name is None:
            continue
        qualified = resolve_local(name, imports, module, toplevel)
        if qualified == name and stars:
            qualified = resolve_star(name, stars) or qualified
        if qualified in KERNEL_WRAPPERS:
            autotuned = True
        elif track is None and qualified in KERNEL_DECORATORS:
            track = KERNEL_DECORATORS[qualified]
        elif track is None and qualified == DEVICE_DECORATOR:
            track = "device"
    return None if track is None else (track, autotuned and track != "device")


def _kernel_summary(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    track: str,
    autotuned: bool,
    imports: dict[str, str],
    aliases: dict[str, ast.expr],
) -> KernelSummary:
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    params = [(a.arg, annotation_mode(a.annotation, imports, aliases)) for a in args]
    return KernelSummary(node.name, track, params, node.lineno, autotuned)


def _leaf_depths() -> dict[type[ast.AST], int]:
    """Node classes that never have children apart from a context (a name's `Load`), with the levels they add
    below their own: about a third of a tree's nodes are contexts, operators, names and constants."""
    leaves: dict[type[ast.AST], int] = {ast.Constant: 0, ast.Name: 1}
    for base in (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop):
        for cls in base.__subclasses__():
            leaves[cls] = 0
    return leaves


_LEAF_DEPTH = _leaf_depths()


def summarize(tree: ast.Module, path: str, mentions_marker: bool, module: str | None = None) -> FileSummary:
    return summarize_and_measure(tree, path, mentions_marker, module)[0]


def summarize_and_measure(
    tree: ast.Module, path: str, mentions_marker: bool, module: str | None = None
) -> tuple[FileSummary, int]:
    """The file's summary, and its deepest nesting as `complexity.measure_tree` counts it (a node's depth below the
    module; an `and`/`or` chain adds one level per extra operand), from the same single walk."""
    module = module or module_name(path)
    is_package = os.path.basename(path) == "__init__.py"
    # One breadth-first pass (the order `ast.walk` visits) finds the import statements and the functions defined
    # inside other functions, and measures the nesting.
    import_nodes: list[ast.AST] = []
    nested: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    deepest = 0
    todo: deque[tuple[ast.AST, bool, int]] = deque([(tree, False, 0)])
    while todo:
        cur, inside, depth = todo.popleft()
        kind = type(cur)
        if depth > deepest:
            deepest = depth
        if kind is ast.Import or kind is ast.ImportFrom:
            import_nodes.append(cur)
            deepest = max(deepest, depth + 1)  # its aliases
            continue
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            if inside:
                nested.append(cur)  # type: ignore[arg-type]
            inside = True
        elif kind is ast.BoolOp:
            chain = len(cur.values) - 1  # type: ignore[attr-defined]
            deepest = max(deepest, depth + chain)
            depth += chain
        below = depth + 1
        for child in child_nodes(cur):
            extra = _LEAF_DEPTH.get(type(child))
            if extra is None:
                todo.append((child, inside, below))
            elif below + extra > deepest:  # a leaf only counts for the depth: measured here, never queued
                deepest = below + extra
    imports, modules, stars = _bindings(import_nodes, module, is_package)
    toplevel = {
        n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    aliases = type_aliases(tree)
    summary = FileSummary(module, imports, modules, mentions_marker=mentions_marker, star_imports=stars)
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        found = kernel_track(node.decorator_list, imports, module, toplevel, stars)
        if found is None:
            continue
        track, autotuned = found
        if track == "device":
            summary.devices.append(node.name)
        else:
            summary.kernels[node.name] = _kernel_summary(node, track, autotuned, imports, aliases)
    # Module-level aliases of this module's kernels (`fast_add = vecadd`, bound once): launching one launches the
    # kernel (its summary keeps the kernel's own name, which is what a `PreparedLaunch` is branded with).
    for name, value in aliases.items():
        if isinstance(value, ast.Name) and value.id in summary.kernels and name not in toplevel | imports.keys():
            summary.kernels[name] = summary.kernels[value.id]
    # Kernels defined inside function bodies (factories, closures): found by where they are defined.
    for inner in nested:
        found = kernel_track(inner.decorator_list, imports, module, toplevel, stars)
        if found is not None and found[0] != "device":
            key = f"{inner.lineno}:{inner.name}"
            summary.local_kernels[key] = _kernel_summary(inner, found[0], found[1], imports, aliases)
    return summary, deepest


def mentions_marker(data: bytes) -> bool:
    return MARKER.encode() in data
