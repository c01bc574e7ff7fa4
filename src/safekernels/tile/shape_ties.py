"""The shape agreements a tile kernel's loads imply, read once from its source, checked at every launch.

`tile.load_like(x, z)` reads `x`'s tile at `z`'s tile-block position.  Loads past a tensor's edge pad with
zeros (ragged shapes are legal), so a launch whose `x` is one element shorter than `z` would run and quietly
read a zero where the caller meant data: the tile twin of the out-of-bounds read a SIMT kernel traps on.  The
load itself says the two tensors describe the same index space, so the launch refuses any disagreement:

    @tile.kernel
    def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))        ties: x ~ z, y ~ z

    add(tile.zeros((1000,), f32).partition((128,)), tile.ones((999,), f32), ...)
    -> ShapeError: add: `tile.load_like(x, z)` (file.py:3) reads `x` at the tile positions of `z`, so `x`
       must have the shape of `z`, (1000,); got (999,)

The ties come from the kernel's syntax tree (calls that resolve to `tile.load_like` with two parameters as
arguments, directly or through `@tile.function` helpers called with parameters), not from the compiler: the
check sits in the shared launch path (`signature.check_launch_shapes`, used by the CPU executor, the GPU launch
and the framework bridges) and must not need the compiler, which a warm disk cache never imports.  A parameter
the body rebinds is not tied (the name no longer means the argument).  `@tile.kernel(independent_shapes=(...))`
names parameters whose shapes are meant to differ: their ties are dropped and their loads pad as before.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ShapeTie:
    """Parameter `reader` is loaded at the tile positions of parameter `like` (indices into the params)."""

    reader: int
    like: int
    path: str
    line: int


def implied_shape_ties(fn: Callable[..., Any], param_names: Sequence[str]) -> tuple[ShapeTie, ...]:
    """Every `load_like(param, param)` tie of `fn`'s body (through helpers); none when the source is unknown."""
    index = {name: i for i, name in enumerate(param_names)}
    ties: dict[tuple[int, int], ShapeTie] = {}
    _scan(fn, {name: index[name] for name in param_names}, ties, set())
    return tuple(ties.values())


def _scan(fn: Callable[..., Any], bound: dict[str, int], ties: dict[tuple[int, int], ShapeTie], seen: set[int]) -> None:
    """Add the ties of `fn`, whose parameter names in `bound` stand for kernel parameters."""
    code = getattr(fn, "__code__", None)
    if code is None or id(code) in seen:
        return
    seen.add(id(code))
    tree = _function_tree(fn)
    if tree is None:
        return
    names = dict(bound)
    for node in ast.walk(tree):  # a parameter the body rebinds no longer names the argument
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.pop(node.id, None)
    if not names:
        return
    from safekernels.tile.language import TileFunction, load_like

    namespace = _namespace(fn)
    path = code.co_filename
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.keywords:
            continue
        target = _resolve(node.func, namespace)
        params = [names.get(a.id) if isinstance(a, ast.Name) else None for a in node.args]
        if target is load_like and len(params) == 2:
            reader, like = params
            if reader is not None and like is not None and reader != like:
                ties.setdefault((reader, like), ShapeTie(reader, like, path, node.lineno))
        elif isinstance(target, TileFunction):
            helper = target.fn
            helper_params = list(inspect.signature(helper).parameters)
            passed = {p: i for p, i in zip(helper_params, params, strict=False) if i is not None}
            if passed:
                _scan(helper, passed, ties, seen)


def _function_tree(fn: Callable[..., Any]) -> ast.FunctionDef | None:
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        module = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return None
    ast.increment_lineno(module, fn.__code__.co_firstlineno - 1)
    node = module.body[0] if module.body else None
    if isinstance(node, ast.FunctionDef):
        node.decorator_list = []  # `@tile.kernel(independent_shapes=...)` names are not loads
        node.args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
        return node
    return None


def _namespace(fn: Callable[..., Any]) -> dict[str, Any]:
    namespace = dict(getattr(fn, "__globals__", {}))
    code = fn.__code__
    for name, cell in zip(code.co_freevars, getattr(fn, "__closure__", None) or (), strict=True):
        try:
            namespace[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    return namespace


def _resolve(node: ast.expr, namespace: dict[str, Any]) -> Any:
    """The object a callee expression names (`load_like`, `tile.load_like`, `sk.tile.load_like`), or None."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, namespace)
        return getattr(owner, node.attr, None) if owner is not None else None
    return None
