"""Run-time scalars of tile kernels on the CPU executor, typed and rounded by the tile front end's IR.

A tile kernel body runs on the CPU as Python, where `n * 0.1` of an `i32` parameter is an f64 and `tile.bid(0) + 1`
an unbounded int; the GPU computes what the front end typed: `n * 0.1` in f32, the index in i64.  So that both
executors compute every scalar the same way, there is one typing, the front end's: for each specialization the
front end records which scalar ops each source expression produced (`TileKernelIR.scalar_sites`, keyed by
`codegen.tile.frontend.scalar_site` and the path of `@tile.function` calls it was inlined through), and the
CPU executor runs the kernel (and its helpers) rewritten so that every such expression goes through this module:

    n * 0.1             ->  __sk_bin__(site, "Mult", n, 0.1)
    -x, ~x              ->  __sk_unary__(site, "USub", x)
    int(x), f32(x), min(a, b), abs(a)  ->  __sk_call__(site, int, x), ...
    helper(a, b)        ->  __sk_helper__(site, helper, a, b)   (a `@tile.function`: its own sites, one path deeper)

An expression the IR has scalar ops for is evaluated by those ops, as the GPU lowering does
(`codegen.tile.lower.op_scalar` and `scalar_ops`): operands converted to the op's type (a literal converted once
from its Python value), integers wrapping in their width (the index in i64) with Python's `//` and `%`, a zero
divisor trapping, shifts past the width giving 0 or the sign fill, floats rounded in their type (f16/bf16 computed in
f32 and rounded once), comparisons in the operands' promoted type.  An expression with no scalar ops (tiles,
constants the front end folded) runs as written.
"""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import math
import operator
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from safekernels.codegen.frontend.source import FunctionSource, load_source
from safekernels.codegen.tile.frontend import lambda_source, scalar_site
from safekernels.codegen.tile.ir import ForOp, Op, ScalarType, TileKernelIR
from safekernels.dtypes import DType, bf16_to_f32, dtype_of, f8_to_f32, f32_to_bf16, f32_to_f8
from safekernels.dtypes import ScalarType as DScalar
from safekernels.tile.language import TileFunction

Site = tuple[str, int, int, int, int, str]
Path = tuple[Site, ...]

_I64 = dtype_of("i64")
_F32 = dtype_of("f32")
_THROUGH_F32 = ("bf16", "f8e4m3", "f8e5m2")  # computed in f32, held as f32 values rounded to the type


# -- the plan: each site's ops, from the IR ----------------------------------------------------------------------
@dataclass(frozen=True)
class Slot:
    """An input of a site's ops: a literal (its Python value) or the run-time operand of that position."""

    type: ScalarType
    literal: int | float | bool | None


@dataclass(frozen=True)
class Step:
    """One scalar op of a site: `kind` (scalar | scalar_cast | to_index), its symbol, its arguments (indices
    into the site's values: its slots, then the steps' results) and the types that decide how it computes."""

    kind: str
    sym: str
    args: tuple[int, ...]
    result: ScalarType
    operand: ScalarType | None  # comparisons: the type both sides are compared in


@dataclass(frozen=True)
class Recipe:
    slots: tuple[Slot, ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class ScalarPlan:
    """What one specialization computes at each scalar site (from its IR)."""

    recipes: dict[tuple[Path, Site], Recipe]
    helpers: frozenset[tuple[Path, Site]]
    carried: dict[tuple[Path, Site], dict[str, ScalarType]] = field(default_factory=dict)


def plan_of(kir: TileKernelIR) -> ScalarPlan:
    """The CPU executor's scalar plan of a kernel specialization, read from its typed IR."""
    producers: dict[int, Op] = {}

    def walk(ops: list[Op]) -> None:
        for op in ops:
            if op.result is not None:
                producers[op.result.id] = op
            if isinstance(op, ForOp):
                walk(op.body)

    walk(kir.body)
    recipes = {}
    for key, ops in kir.scalar_sites.items():
        recipe = _recipe(ops, producers)
        if recipe is not None:
            recipes[key] = recipe
    return ScalarPlan(recipes, frozenset(kir.helper_calls), dict(kir.loop_carried))


def _literal(value_id: int, producers: dict[int, Op]) -> int | float | bool | None:
    """The constant a value is, as the lowering carries it (`Scalar.const`): a `const` op, or an index or float
    conversion of one."""
    op = producers.get(value_id)
    if op is None:
        return None
    if op.kind == "const":
        value: int | float | bool = op.attrs["value"]
        return value
    if op.kind in ("to_index", "scalar_cast"):
        inner = _literal(op.args[0].id, producers)
        if inner is None:
            return None
        if op.kind == "to_index":
            return int(inner)
        return float(inner) if op.attrs["dtype"].is_float else None
    return None


def _recipe(ops: list[Op], producers: dict[int, Op]) -> Recipe | None:
    computed = [op for op in ops if op.kind != "const"]
    if not computed:
        return None
    index: dict[int, int] = {}
    slots: list[Slot] = []
    for op in computed:  # the inputs, in order of first use: a site's run-time operands in source order
        for arg in op.args:
            if arg.id not in index and not any(o.result is arg for o in computed):
                assert isinstance(arg.type, ScalarType)
                index[arg.id] = len(slots)
                slots.append(Slot(arg.type, _literal(arg.id, producers)))
    steps: list[Step] = []
    for op in computed:
        assert op.result is not None and isinstance(op.result.type, ScalarType)
        args = tuple(index[a.id] for a in op.args)
        index[op.result.id] = len(slots) + len(steps)
        sym = op.attrs.get("op", "")
        steps.append(Step(op.kind, sym, args, op.result.type, op.attrs.get("operand")))
    return Recipe(tuple(slots), tuple(steps))


# -- conversions and arithmetic, as the GPU lowering computes them --------------------------------------------
def _np_type(dt: DType) -> Any:
    if dt.name in _THROUGH_F32:
        return np.float32
    return dt.storage.type


def _round_to(value: np.float32, dt: DType) -> np.float32:
    """An f32 value rounded to bf16 / fp8 (nearest even; fp8 saturating), held as f32."""
    if dt.name == "bf16":
        return np.float32(bf16_to_f32(f32_to_bf16(np.asarray(value, dtype=np.float32))))
    return np.float32(f8_to_f32(f32_to_f8(np.asarray(value, dtype=np.float32), dt.name), dt.name))


def _wrap(v: int, dt: DType) -> int:
    v &= (1 << dt.bits) - 1
    if dt.kind == "i" and v >> (dt.bits - 1):
        v -= 1 << dt.bits
    return v


def _is_floating(x: Any) -> bool:
    return isinstance(x, float | np.floating)


def convert(x: Any, dt: DType | None) -> Any:
    """Any CPU value (a Python or numpy number) as dtype `dt` (None: the i64 index, given as a Python int), with
    the GPU's conversions (`scalar_ops.convert`): ints wrap, floats to ints truncate and saturate (NaN gives 0),
    ints to floats round once, to bool is `!= 0`."""
    if dt is None:
        return _wrap(int(convert(x, _I64)), _I64)
    if isinstance(x, bool | np.bool_):
        x = int(x)
    if dt.name == "bool":
        return np.bool_(x != 0)
    with np.errstate(all="ignore"):
        if dt.kind in ("i", "u"):
            if _is_floating(x):
                if math.isnan(x):
                    return _np_type(dt)(0)
                info = np.iinfo(dt.storage)
                v = info.min if x < info.min else info.max if x > info.max else int(x)
                return _np_type(dt)(v)
            return _np_type(dt)(_wrap(int(x), dt))
        if dt.name in _THROUGH_F32:
            return _round_to(convert(x, _F32), dt)
        if _is_floating(x):
            return _np_type(dt)(x)
        v = int(x)  # an int: rounded once from its exact value (as `sitofp` / `uitofp`)
        source = np.uint64 if v > np.iinfo(np.int64).max else np.int64
        return np.asarray(source(v)).astype(_np_type(dt))[()]


def _literal_as(value: int | float | bool, dt: DType | None) -> Any:
    """A literal converted to `dt` as the lowering writes it (`scalar_ops.const_of`)."""
    if dt is None:
        return int(value)
    if dt.kind == "f" and dt.name not in _THROUGH_F32 and not isinstance(value, bool):
        return _np_type(dt)(float(value))  # the Python float, rounded once to the type
    if dt.kind in ("i", "u") and not isinstance(value, bool):
        return _np_type(dt)(_wrap(int(value), dt))
    return convert(value, dt)


def _value_as(x: Any, slot: Slot | None, dt: DType | None) -> Any:
    """Operand `x` (of its slot's IR type) converted to `dt`, as `Lowering.scalar_in` converts."""
    if slot is not None and slot.literal is not None:
        return _literal_as(slot.literal, dt)
    if slot is not None:
        x = convert(x, slot.type.dtype)  # what the GPU holds: the IR type's value
    return convert(x, dt)


def _int_op(sym: str, x: int, y: int, dt: DType) -> int:
    """Integer `x sym y` in `dt`, as `scalar_ops.integer_binary` (x and y already in `dt`'s range)."""
    if sym in ("+", "-", "*", "&", "|", "^"):
        fn = {"+": operator.add, "-": operator.sub, "*": operator.mul, "&": operator.and_, "|": operator.or_,
              "^": operator.xor}[sym]  # fmt: skip
        return _wrap(fn(x, y), dt)
    if sym in ("<<", ">>"):
        amount = y & ((1 << dt.bits) - 1)  # taken as unsigned
        if amount >= dt.bits:
            return -1 if sym == ">>" and x < 0 else 0
        return _wrap(x << amount, dt) if sym == "<<" else x >> amount
    if sym in ("//", "%"):
        if y == 0:
            raise ZeroDivisionError(f"integer {sym} by zero")  # the GPU traps (the executor says so)
        if y == -1 and dt.kind == "i":
            return _wrap(-x, dt) if sym == "//" else 0
        return x // y if sym == "//" else x % y
    raise TypeError(f"scalar operator `{sym}` on integers")  # the front end refuses it first


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}  # fmt: skip
_FLOAT_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
}  # fmt: skip


def _as_result(v: int, dt: DType | None) -> Any:
    return v if dt is None else _np_type(dt)(v)


def _float_op(fn: Callable[[Any, Any], Any], x: Any, y: Any, dt: DType) -> Any:
    """`fn(x, y)` rounded in `dt` (f16, bf16 and fp8 in f32, then rounded once, as `scalar_ops.binary`)."""
    with np.errstate(all="ignore"):
        if dt.name == "f16":
            return np.float16(fn(np.float32(x), np.float32(y)))
        r = fn(x, y)
        return _round_to(np.float32(r), dt) if dt.name in _THROUGH_F32 else r


def _step(step: Step, values: list[Any], slots: tuple[Slot, ...]) -> Any:
    def arg(i: int, dt: DType | None) -> Any:
        return _value_as(values[step.args[i]], slots[step.args[i]] if step.args[i] < len(slots) else None, dt)

    dt = step.result.dtype
    if step.kind == "to_index":
        return arg(0, None)
    if step.kind == "scalar_cast":
        return arg(0, dt)
    sym = step.sym
    kind = dt if dt is not None else _I64
    if sym in ("min", "max"):  # Python's order: the later one only when strictly smaller (larger)
        x, y = arg(0, dt), arg(1, dt)
        return y if (y < x if sym == "min" else y > x) else x
    if sym == "abs":
        x = arg(0, dt)
        if kind.kind == "f":  # the sign bit cleared (`abs(-0.0)` is 0.0, a NaN stays NaN)
            return abs(x)
        return x if kind.kind == "u" or x >= 0 else _as_result(_wrap(-int(x), kind), dt)
    if sym in _COMPARE:
        operand = step.operand.dtype if step.operand is not None else None
        x, y = arg(0, operand), arg(1, operand)
        return np.bool_(_COMPARE[sym](x, y))
    if dt is None or kind.kind in ("i", "u"):
        return _as_result(_int_op(sym, int(arg(0, dt)), int(arg(1, dt)), kind), dt)
    return _float_op(_FLOAT_OPS[sym], arg(0, dt), arg(1, dt), kind)


def evaluate(recipe: Recipe, operands: tuple[Any, ...]) -> Any:
    """The value of a site's ops on the run-time `operands` (the site's inputs in source order)."""
    values: list[Any] = list(operands[: len(recipe.slots)])
    values += [None] * (len(recipe.slots) - len(values))
    for step in recipe.steps:
        values.append(_step(step, values, recipe.slots))
    return values[-1]


# -- run time: the current plan and inlining path --------------------------------------------------------------
class _State(threading.local):
    plan: ScalarPlan | None = None
    path: Path = ()


_state = _State()


@contextmanager
def scalar_plan(plan: ScalarPlan) -> Iterator[None]:
    """Run tile kernel bodies (rewritten by `typed_function`) under `plan`."""
    saved = _state.plan, _state.path
    _state.plan, _state.path = plan, ()
    try:
        yield
    finally:
        _state.plan, _state.path = saved


def _recipe_at(site: Site) -> Recipe | None:
    plan = _state.plan
    return None if plan is None else plan.recipes.get((_state.path, site))


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Div": operator.truediv,
    "FloorDiv": operator.floordiv, "Mod": operator.mod, "Pow": operator.pow, "LShift": operator.lshift,
    "RShift": operator.rshift, "BitAnd": operator.and_, "BitOr": operator.or_, "BitXor": operator.xor,
    "MatMult": operator.matmul, "Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt, "GtE": operator.ge,
    "Eq": operator.eq, "NotEq": operator.ne,
}  # fmt: skip


def _bin(site: Site, name: str, a: Any, b: Any) -> Any:
    recipe = _recipe_at(site)
    if recipe is None:
        return _BINARY[name](a, b)
    return evaluate(recipe, (a, b))


def _unary(site: Site, name: str, a: Any) -> Any:
    recipe = _recipe_at(site)
    if recipe is None:
        return -a if name == "USub" else ~a
    return evaluate(recipe, (0, a) if name == "USub" else (a, -1))  # the front end's `0 - a`, `a ^ -1`


def _call(site: Site, fn: Callable[..., Any], /, *args: Any) -> Any:
    recipe = _recipe_at(site)
    if recipe is None:
        return fn(*args)
    return evaluate(recipe, args)


def _helper(site: Site, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    plan = _state.plan
    path = _state.path
    if not isinstance(fn, TileFunction) or plan is None or (path, site) not in plan.helpers:
        return fn(*args, **kwargs)
    compiled = typed_function(fn.fn)
    _state.path = (*path, site)
    try:
        return compiled(*args, **kwargs)
    finally:
        _state.path = path


def _carry(site: Site, name: str, value: Any) -> Any:
    """A value a loop carries, as the type the front end carries it in (a number bound before the loop is a typed
    scalar on the GPU: `x = 0.1` carried is the f32 0.1 also where the loop runs zero times)."""
    plan = _state.plan
    types = None if plan is None else plan.carried.get((_state.path, site))
    return value if not types else _carry_leaf(types, name, value)


def _carry_leaf(types: dict[str, ScalarType], name: str, value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_carry_leaf(types, f"{name}[{i}]", v) for i, v in enumerate(value))
    t = types.get(name)
    if t is None or not isinstance(value, bool | int | float | np.generic):
        return value
    return convert(value, t.dtype)


# -- the rewrite -----------------------------------------------------------------------------------------------
_CALLS = (int, float, min, max, abs)


class _ScalarRewriter(ast.NodeTransformer):
    """Routes each expression that may be a run-time scalar op through the plan (module docstring)."""

    def __init__(self, src: FunctionSource, resolve: Callable[[ast.expr], Any]) -> None:
        self.src = src
        self.resolve = resolve

    def site(self, node: ast.AST) -> ast.Constant:
        return ast.Constant(scalar_site(self.src, node))  # type: ignore[arg-type]  # a tuple of constants

    def call(
        self, name: str, node: ast.AST, args: list[ast.expr], keywords: list[ast.keyword] | None = None
    ) -> ast.expr:
        return ast.copy_location(ast.Call(ast.Name(name, ast.Load()), [self.site(node), *args], keywords or []), node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        return self.call("__sk_bin__", node, [ast.Constant(type(node.op).__name__), node.left, node.right])

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if len(node.ops) != 1 or type(node.ops[0]).__name__ not in _BINARY:
            return node
        op = ast.Constant(type(node.ops[0]).__name__)
        return self.call("__sk_bin__", node, [op, node.left, node.comparators[0]])

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if not isinstance(node.op, ast.USub | ast.Invert):
            return node
        return self.call("__sk_unary__", node, [ast.Constant(type(node.op).__name__), node.operand])

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            return node
        current = ast.Name(node.target.id, ast.Load())
        value = self.call("__sk_bin__", node, [ast.Constant(type(node.op).__name__), current, node.value])
        return ast.copy_location(ast.Assign([ast.Name(node.target.id, ast.Store())], value), node)

    def visit_For(self, node: ast.For) -> list[ast.stmt]:
        """Each name the loop may carry converted to its carried type before the loop and after each iteration
        (a name not bound yet is skipped: `UnboundLocalError` is a `NameError`)."""
        self.generic_visit(node)
        target = node.target.id if isinstance(node.target, ast.Name) else None
        names = sorted(
            {
                n.id
                for stmt in node.body
                for n in ast.walk(stmt)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id != target
            }
        )
        if not names:
            return [node]
        convert = [self._carry(node, name) for name in names]
        node.body = [*node.body, *copy.deepcopy(convert)]
        return [*convert, node]

    def _carry(self, loop: ast.For, name: str) -> ast.stmt:
        value = ast.Call(
            ast.Name("__sk_carry__", ast.Load()), [self.site(loop), ast.Constant(name), ast.Name(name, ast.Load())], []
        )
        assign = ast.Assign([ast.Name(name, ast.Store())], value)
        handler = ast.ExceptHandler(ast.Name("NameError", ast.Load()), None, [ast.Pass()])
        return ast.copy_location(ast.Try([assign], [handler], [], []), loop)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        target = self.resolve(node.func)
        if isinstance(target, TileFunction):
            return self.call("__sk_helper__", node, [node.func, *node.args], node.keywords)
        scalar_call = any(target is c for c in _CALLS) or (isinstance(target, type) and issubclass(target, DScalar))
        if scalar_call and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            return self.call("__sk_call__", node, [node.func, *node.args])
        return node


_MISSING = object()
_TYPED: weakref.WeakKeyDictionary[Callable[..., Any], Callable[..., Any]] = weakref.WeakKeyDictionary()
_HELPERS = {
    "__sk_bin__": _bin,
    "__sk_unary__": _unary,
    "__sk_call__": _call,
    "__sk_helper__": _helper,
    "__sk_carry__": _carry,
}


def typed_function(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` (a tile kernel body or `@tile.function` helper, as written) compiled with its scalar expressions
    routed through the current plan, its device `print` and `assert` as on the GPU; cached per function."""
    cached = _TYPED.get(fn)
    if cached is None:
        cached = _TYPED[fn] = _compile(inspect.unwrap(fn))
    return cached


def _compile(fn: Any) -> Callable[..., Any]:
    from safekernels.cpu.simt_program import _assert_failed, _AssertRewriter
    from safekernels.simt.device_print import asserts_enabled, kernel_print

    src = lambda_source(fn) if fn.__name__ == "<lambda>" else load_source(fn)
    closure: dict[str, Any] = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True):
        try:
            closure[name] = cell.cell_contents
        except ValueError:  # an empty cell: assigned after the function was defined
            pass
    globals_: dict[str, Any] = fn.__globals__

    def resolve(node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            for scope in (closure, globals_):
                if node.id in scope:
                    return scope[node.id]
            return getattr(builtins, node.id, _MISSING)
        if isinstance(node, ast.Attribute):
            base = resolve(node.value)
            return _MISSING if base is _MISSING else getattr(base, node.attr, _MISSING)
        return _MISSING

    fdef = copy.deepcopy(src.tree)
    fdef.decorator_list = []
    fdef.name = "__sk_kernel_body__"
    fdef.returns = None
    for a in (*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs, fdef.args.vararg, fdef.args.kwarg):
        if a is not None:
            a.annotation = None  # read by the launch, not by the body (and may name what only a type checker sees)
    fdef = _ScalarRewriter(src, resolve).visit(fdef)  # sites from the positions within the source
    ast.fix_missing_locations(fdef)
    ast.increment_lineno(fdef, src.first_line - 1)  # the file's lines from here on (tracebacks, asserts)
    fdef = _AssertRewriter(src.path, asserts_enabled()).visit(fdef)
    free = {**closure, **_HELPERS, "__sk_assert_failed__": _assert_failed}
    if globals_.get("print", builtins.print) is builtins.print:
        free["print"] = kernel_print
    names = sorted(free)
    # a factory taking the closure's values, the helpers and the device print as parameters, so the body reads
    # the module's own globals (live, as the function as written does)
    factory = ast.FunctionDef(
        name="__sk_factory__",
        args=ast.arguments(
            posonlyargs=[], args=[ast.arg(n) for n in names], kwonlyargs=[], kw_defaults=[], defaults=[]
        ),
        body=[fdef, ast.Return(ast.Name(fdef.name, ast.Load()))],
        decorator_list=[],
        returns=None,
    )
    ast.copy_location(factory, fdef)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    local: dict[str, Any] = {}
    exec(compile(module, src.path, "exec"), globals_, local)
    compiled: Callable[..., Any] = local["__sk_factory__"](*(free[n] for n in names))
    compiled.__name__ = fn.__name__
    return compiled
