"""Turn a kernel's (or device helper's) Python source into what the CPU executor runs.

Most kernels run as they are written: one call per thread.  A kernel that uses a collective (`sync_threads`, a
warp shuffle or reduction), directly or through `@simt.device` helpers, cannot: every thread of the block (or
warp) must reach the collective before any continues.  For those the source is rewritten into a generator:

    thread.sync_threads()          ->  (yield __sk_collective__(thread.sync_threads))
    v = warp.shfl_down(x, 16)      ->  v = (yield __sk_collective__(warp.shfl_down, x, 16))
    total = block_sum(x)           ->  total = (yield from __sk_lockstep_call__(block_sum, x))

and the executor runs a block's generators round-robin, resolving each collective when all participants have
yielded it (see `simt_executor`).  Calls are classified by resolving their name (`thread.sync_threads`,
`sync_threads`, `simt.thread.sync_threads`, a helper bound at module level or in a closure) to the actual
object.

Both forms are compiled against a copy of the function's globals (plus its closure's values) in which `math`
functions keep f32 arguments in f32, as the GPU's `math.*` do.

Both forms route `+ - * / **` through `__sk_add__` ... (`_ARITH_HELPERS`), each comparison (each pair of a
chain) through `__sk_lt__` ... and `min` / `max` through typed twins: numpy promotes a typed int with an f32 to
f64 (and compares an i32 with an f32 in f64) where the kernel language (docs/numerics.md,
`codegen.frontend.typing_rules.unify`, what the GPU compiles) converts the int to the float's type, and
Python's `min`/`max` return an argument unconverted; so operands are converted to the front end's common type
first (`unified`).  In the same namespace `f16(x)` rounds through f16 and gives an f32, as f16 is a storage
type whose arithmetic is f32.

Both forms also route `//` and `%` (and `//=`, `%=`) through `__sk_floordiv__` / `__sk_mod__`: numpy integer
scalars divide by zero to 0 with a warning, and Python ints raise `ZeroDivisionError`, where the GPU code traps
(`codegen.lowering.function` branches to `llvm.trap` on a zero divisor).  Both executors must fail the same
way, so an integer division by zero is a `KernelTrapError` naming the kernel and thread here too; a float
divisor of zero gives IEEE results (inf / nan) on both.
"""

from __future__ import annotations

import ast
import builtins
import copy
import dis
import inspect
import math
import operator
import textwrap
import types
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from safekernels.dtypes import f16
from safekernels.errors import KernelAssertionError
from safekernels.simt import thread, warp
from safekernels.simt.device_print import assertion_message, asserts_enabled, kernel_print

#: The collectives and the request kind each yields.
COLLECTIVES: dict[Callable[..., Any], str] = {
    thread.sync_threads: "barrier",
    warp.shfl_down: "shfl_down",
    warp.shfl_up: "shfl_up",
    warp.shfl_xor: "shfl_xor",
    warp.shfl_idx: "shfl_idx",
    warp.reduce_sum: "reduce_sum",
    warp.reduce_max: "reduce_max",
    warp.reduce_min: "reduce_min",
}

_MISSING = object()


#: `math` names whose numpy twin has another name.
_NUMPY_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
                "atanh": "arctanh", "atan2": "arctan2", "pow": "power"}  # fmt: skip


def _ieee(name: str, args: tuple[Any, ...]) -> float:
    """What the GPU's libdevice returns where Python's `math` raises (domain error: NaN, overflow: inf)."""
    twin = getattr(np, _NUMPY_NAMES.get(name, name), None)
    if twin is None:
        return math.nan
    with np.errstate(all="ignore"):
        return float(twin(*(np.float64(a) for a in args)))


#: `math` functions that return an int: an i64 in kernels (`builder.MATH_FUNCS`), converted as `i64(x)` converts
#: (saturating, NaN giving 0) where Python raises on inf/NaN or returns an int past 64 bits.
_TO_I64 = {"floor": np.floor, "ceil": np.ceil, "trunc": np.trunc}


def _keep_narrow_floats(fn: Callable[..., Any]) -> Callable[..., Any]:
    name = getattr(fn, "__name__", "")
    rounding = _TO_I64.get(name)
    if rounding is not None:
        from safekernels.dtypes import i64

        def to_i64(x: Any) -> Any:
            return i64(rounding(np.float64(x)))

        to_i64.__name__ = name
        return to_i64

    def wrapper(*args: Any) -> Any:
        try:
            result = fn(*args)
        except (ValueError, OverflowError):
            result = _ieee(name, args)
        if isinstance(result, float):  # the front end's type: the arguments' common float type, else f64
            if any(isinstance(a, np.float64) for a in args):
                return np.float64(result)
            for a in args:
                if isinstance(a, np.float32 | np.float16):
                    return type(a)(result)
            return np.float64(result)  # ints and literals: a typed f64 (Python's float would be weak)
        return result

    wrapper.__name__ = getattr(fn, "__name__", "math_function")
    return wrapper


def _math_shim() -> types.SimpleNamespace:
    namespace = types.SimpleNamespace()
    for name in dir(math):
        if name.startswith("_"):
            continue
        value = getattr(math, name)
        setattr(namespace, name, _keep_narrow_floats(value) if callable(value) else value)
    return namespace


_MATH = _math_shim()


def _is_device_function(obj: Any) -> bool:
    from safekernels.simt.kernel import SimtDeviceFunction

    return isinstance(obj, SimtDeviceFunction)


class CompiledSource:
    """A function's parsed source and the namespace it runs in."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.available = True
        try:
            source = textwrap.dedent(inspect.getsource(fn))
            module = ast.parse(source)
        except (OSError, TypeError, SyntaxError):
            self.available = False
            return
        fdef = module.body[0]
        if not isinstance(fdef, ast.FunctionDef):
            self.available = False
            return
        from safekernels.codegen.frontend.source import load_source

        located = load_source(fn)  # the file path and indentation the front end's positions use
        self.path, self.indent = located.path, located.indent
        fdef.decorator_list = []
        ast.increment_lineno(module, fn.__code__.co_firstlineno - 1)
        self.fdef = _AssertRewriter(fn.__code__.co_filename, asserts_enabled()).visit(fdef)
        ast.fix_missing_locations(self.fdef)
        self.namespace = self._namespace()

    def _namespace(self) -> dict[str, Any]:
        fn = self.fn
        ns = dict(fn.__globals__)
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True):
            try:
                ns[name] = cell.cell_contents
            except ValueError:  # an empty cell: a name assigned after the function was defined
                pass
        if ns.get("print", builtins.print) is builtins.print:
            ns["print"] = kernel_print
        for name, pick in (("min", builtins.min), ("max", builtins.max)):
            if ns.get(name, pick) is pick:
                ns[name] = _typed_extreme(pick)
        ns["__sk_assert_failed__"] = _assert_failed
        for key, value in list(ns.items()):
            if value is math:
                ns[key] = _MATH
            elif value is f16:
                ns[key] = _F16InKernel
            elif callable(value):
                name = getattr(value, "__name__", "")
                if getattr(math, name, None) is value:
                    ns[key] = getattr(_MATH, name)
        return ns

    def resolve(self, node: ast.expr) -> Any:
        """The object a call's function expression names, or `_MISSING`."""
        if isinstance(node, ast.Name):
            if node.id in self.namespace:
                return self.namespace[node.id]
            return getattr(builtins, node.id, _MISSING)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is _MISSING:
                return _MISSING
            return getattr(base, node.attr, _MISSING)
        return _MISSING

    def needs_lockstep(self, in_progress: set[int]) -> bool:
        for node in ast.walk(self.fdef):
            if not isinstance(node, ast.Call):
                continue
            target = self.resolve(node.func)
            if _is_hashable(target) and target in COLLECTIVES:
                return True
            if _is_device_function(target) and helper_needs_lockstep(target, in_progress):
                return True
        return False

    def compile(self, *, lockstep: bool) -> Callable[..., Any]:
        fdef = _CompareRewriter().visit(_ArithmeticRewriter().visit(_DivisionRewriter().visit(_copy(self.fdef))))
        fdef = _SiteRewriter(self.path, self.indent).visit(fdef)
        if lockstep:
            fdef = _LockstepRewriter(self).visit(fdef)
        ast.fix_missing_locations(fdef)
        module = ast.Module(body=[fdef], type_ignores=[])
        code = compile(module, self.fn.__code__.co_filename, "exec")
        ns = self.namespace
        ns["__sk_collective__"] = _collective_request
        ns["__sk_lockstep_call__"] = _lockstep_call
        ns["__sk_floordiv__"] = floordiv
        ns["__sk_site__"] = _site
        ns["__sk_mod__"] = mod
        ns.update(_ARITH_FUNCTIONS)
        local: dict[str, Any] = {}
        exec(code, ns, local)
        compiled: Callable[..., Any] = local[fdef.name]
        return compiled


class _AssertRewriter(ast.NodeTransformer):
    """`assert c, "m"` -> `if not c: __sk_assert_failed__("m", path, line)` (or nothing when disabled)."""

    def __init__(self, path: str, enabled: bool) -> None:
        self.path = path
        self.enabled = enabled

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        if not self.enabled:
            return ast.copy_location(ast.Pass(), node)
        message = node.msg if node.msg is not None else ast.Constant("")
        call = ast.Call(
            ast.Name("__sk_assert_failed__", ast.Load()),
            [message, ast.Constant(self.path), ast.Constant(node.lineno)],
            [],
        )
        test = ast.UnaryOp(ast.Not(), node.test)
        return ast.copy_location(ast.If(test, [ast.Expr(call)], []), node)


def _assert_failed(message: Any, path: str, line: int) -> None:
    from safekernels.simt._context import state
    from safekernels.tile.context import current_block

    ctx = state.current
    block = current_block() if ctx is None else None
    if ctx is not None:
        kernel, where = ctx.kernel_name, f"{ctx.describe()}, CPU executor"
    elif block is not None:
        kernel, where = block.kernel, f"tile block {block.block}, CPU executor"
    else:
        kernel, where = "<host>", "CPU executor"
    text = str(message)
    raise KernelAssertionError(
        assertion_message(kernel, path, line, text, where), kernel=kernel, path=path, line=line, message=text
    )


_DEVICE_IO: weakref.WeakKeyDictionary[Any, Callable[..., Any]] = weakref.WeakKeyDictionary()


def device_io_function(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` compiled with the device `print` and `assert` (for tile kernel bodies); `fn` itself when it uses
    neither or its source is unavailable."""
    cached = _DEVICE_IO.get(fn)
    if cached is not None:
        return cached
    result = fn
    code = getattr(fn, "__code__", None)
    names = code.co_names if code is not None else ()
    asserts = code is not None and any(i.opname == "LOAD_ASSERTION_ERROR" for i in dis.get_instructions(code))
    if "print" in names or asserts:
        source = CompiledSource(fn)
        if source.available:
            result = source.compile(lockstep=False)
    _DEVICE_IO[fn] = result
    return result


def _copy(node: ast.FunctionDef) -> ast.FunctionDef:
    return copy.deepcopy(node)


def _is_hashable(obj: Any) -> bool:
    try:
        hash(obj)
    except TypeError:
        return False
    return True


class _LockstepRewriter(ast.NodeTransformer):
    def __init__(self, source: CompiledSource) -> None:
        self.source = source

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        target = self.source.resolve(node.func)
        if _is_hashable(target) and target in COLLECTIVES:
            call = ast.Call(ast.Name("__sk_collective__", ast.Load()), [node.func, *node.args], node.keywords)
            return ast.copy_location(ast.Yield(call), node)
        if _is_device_function(target) and helper_needs_lockstep(target, set()):
            call = ast.Call(ast.Name("__sk_lockstep_call__", ast.Load()), [node.func, *node.args], node.keywords)
            return ast.copy_location(ast.YieldFrom(call), node)
        return node


_DIVISION_HELPERS: dict[type[ast.operator], str] = {ast.FloorDiv: "__sk_floordiv__", ast.Mod: "__sk_mod__"}


class _DivisionRewriter(ast.NodeTransformer):
    """`a // b` -> `__sk_floordiv__(a, b)`, `a % b` -> `__sk_mod__(a, b)`, and the augmented forms."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        helper = _DIVISION_HELPERS.get(type(node.op))
        if helper is None:
            return node
        call = ast.Call(ast.Name(helper, ast.Load()), [node.left, node.right], [])
        return ast.copy_location(call, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        self.generic_visit(node)
        helper = _DIVISION_HELPERS.get(type(node.op))
        if helper is None:
            return node
        current = copy.deepcopy(node.target)
        current.ctx = ast.Load()
        call = ast.Call(ast.Name(helper, ast.Load()), [current, node.value], [])
        return ast.copy_location(ast.Assign([node.target], call), node)


_ARITH_HELPERS: dict[type[ast.operator], str] = {
    ast.Add: "__sk_add__",
    ast.Sub: "__sk_sub__",
    ast.Mult: "__sk_mul__",
    ast.Div: "__sk_truediv__",
    ast.Pow: "__sk_pow__",
}


class _ArithmeticRewriter(ast.NodeTransformer):
    """`a + b` -> `__sk_add__(a, b)` (likewise `- * / **` and their augmented forms)."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        helper = _ARITH_HELPERS.get(type(node.op))
        if helper is None or (isinstance(node.left, ast.Constant) and isinstance(node.right, ast.Constant)):
            return node
        return ast.copy_location(ast.Call(ast.Name(helper, ast.Load()), [node.left, node.right], []), node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        self.generic_visit(node)
        helper = _ARITH_HELPERS.get(type(node.op))
        if helper is None:
            return node
        current = copy.deepcopy(node.target)
        current.ctx = ast.Load()
        call = ast.Call(ast.Name(helper, ast.Load()), [current, node.value], [])
        return ast.copy_location(ast.Assign([node.target], call), node)


def unified(a: Any, b: Any) -> tuple[Any, Any]:
    """`a` and `b` converted to their common type where numpy's differs from the front end's
    (`codegen.frontend.typing_rules.unify`): a typed int with a typed float is that float (`i32 // f32`,
    `i32 < f32` and `i32 * f32` compute in f32; numpy goes to f64).  Otherwise numpy's promotion of numpy
    scalars and weak Python numbers is the rule's."""
    if isinstance(a, np.floating) and isinstance(b, np.integer | np.bool_):
        return a, type(a)(b)
    if isinstance(b, np.floating) and isinstance(a, np.integer | np.bool_):
        return type(b)(a), b
    return a, b


def _typed_arith(op: Callable[[Any, Any], Any], name: str) -> Callable[[Any, Any], Any]:
    """`op` on the operands' common type (`unified`)."""

    def arith(a: Any, b: Any) -> Any:
        return op(*unified(a, b))

    arith.__name__ = name
    return arith


def _typed_extreme(pick: Callable[..., Any]) -> Callable[..., Any]:
    """`min` / `max` as the GPU computes them: every argument converted to their common type (the front end's
    `typing_rules.unify`), then Python's order (a later argument wins only when strictly smaller / larger).
    Python's builtins return an argument as it was (an `i32` from `min(i32, f32)`, where the kernel has f32)."""

    def extreme(*args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) < 2 or all(type(a) is type(args[0]) for a in args):
            return pick(*args, **kwargs)
        from safekernels.codegen.frontend.typing_rules import unify
        from safekernels.codegen.ir.types import WEAK_FLOAT, WEAK_INT, ScalarTy, Ty
        from safekernels.dtypes import dtype_of

        def ty(v: Any) -> Ty | None:
            if isinstance(v, np.generic):
                return ScalarTy(dtype_of(v.dtype))
            if isinstance(v, bool):
                return None
            return WEAK_INT if isinstance(v, int) else WEAK_FLOAT if isinstance(v, float) else None

        types = [ty(a) for a in args]
        common: Ty | str | None = types[0]
        for t in types[1:]:
            common = None if common is None or t is None or isinstance(common, str) else unify(common, t)
        if not isinstance(common, ScalarTy):
            return pick(*args)
        convert = common.dtype.storage.type
        return pick(*(convert(a) for a in args))

    extreme.__name__ = pick.__name__
    return extreme


_COMPARE_HELPERS: dict[type[ast.cmpop], str] = {
    ast.Lt: "__sk_lt__", ast.LtE: "__sk_le__", ast.Gt: "__sk_gt__", ast.GtE: "__sk_ge__", ast.Eq: "__sk_eq__",
    ast.NotEq: "__sk_ne__",
}  # fmt: skip


class _CompareRewriter(ast.NodeTransformer):
    """`a < b` -> `__sk_lt__(a, b)` (likewise `<= > >= == !=`): compared in the pair's common type.

    A chain compares each adjacent pair in that pair's common type, as the front end types it (`builder.compare`:
    an `and` of pairwise comparisons), each middle operand evaluated once and the rest skipped once a pair fails,
    as Python does: `a < x < b` -> `(__sk_lt__(a, (__sk_chain0__ := x)) and __sk_lt__(__sk_chain0__, b))`."""

    def __init__(self) -> None:
        self.chains = 0

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if not any(type(op) in _COMPARE_HELPERS for op in node.ops):
            return node
        parts: list[ast.expr] = []
        left = node.left
        for i, (op, right) in enumerate(zip(node.ops, node.comparators, strict=True)):
            if i < len(node.ops) - 1 and not isinstance(right, ast.Constant):
                name = f"__sk_chain{self.chains}__"
                self.chains += 1
                operand: ast.expr = ast.NamedExpr(ast.Name(name, ast.Store()), right)
                following: ast.expr = ast.Name(name, ast.Load())
            else:
                operand = following = right
            helper = _COMPARE_HELPERS.get(type(op))
            if helper is None:
                pair: ast.expr = ast.Compare(left, [op], [operand])
            else:
                pair = ast.Call(ast.Name(helper, ast.Load()), [left, operand], [])
            parts.append(ast.copy_location(pair, node))
            left = following
        return ast.copy_location(parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts), node)


#: `ir.Module.site_types` of every kernel the front end built: (path, line, column) of a value the front end
#: converts where Python keeps its own type (a conditional expression whose arms differ, an assignment to a local
#: whose type is the join of its assignments, a typed accumulator under `+=`) -> that dtype's name (None where two
#: helper instantiations disagree).
_SITE_TYPES: dict[tuple[str, int, int], str | None] = {}


def note_site_types(found: dict[tuple[str, int, int], str | None]) -> None:
    """Remember the conversions the front end typed (`_SITE_TYPES`)."""
    for key, name in found.items():
        seen = _SITE_TYPES.setdefault(key, name)
        if seen != name:
            _SITE_TYPES[key] = None


class _SiteRewriter(ast.NodeTransformer):
    """Route each value the front end may convert through `__sk_site__(key, value)`, keyed by its position:

        a if c else b      ->  __sk_site__(key of the expression, a if c else b)
        x = v, x: T = v    ->  x = __sk_site__(key of the target `x`, v)      (each name of `x, y = v, w` too)
        x <<= v            ->  x = __sk_site__(key of `x`, x << v)           (`+= ... %=` are Assigns by now)
        (x := v)           ->  (x := __sk_site__(key of the walrus, v))
        return v           ->  return __sk_site__(key of v, v)                (a helper's joined return type)
        def h(x: i64): ... ->  def h(x: i64): x = __sk_site__(key of `x`, x); ...  (an argument to the annotation)

    so `i32(k) if c else v` is an f32 for an f32 `v`, and a local assigned an i8 in one place and an i64 in another
    is an i64 everywhere, as on the GPU (Python would keep each value's own type)."""

    def __init__(self, path: str, indent: int) -> None:
        self.path = path
        self.indent = indent

    def wrap(self, at: ast.AST, value: ast.expr) -> ast.expr:
        key = ast.Constant((self.path, at.lineno, at.col_offset + self.indent + 1))  # type: ignore[arg-type,attr-defined]
        return ast.copy_location(ast.Call(ast.Name("__sk_site__", ast.Load()), [key, value], []), value)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.stmt:
        """A helper's annotated scalar parameters first: `x: i64` given an i8 argument is an i64."""
        self.generic_visit(node)
        entry: list[ast.stmt] = [
            ast.copy_location(
                ast.Assign([ast.Name(a.arg, ast.Store())], self.wrap(a, ast.Name(a.arg, ast.Load()))), node
            )
            for a in node.args.args
        ]
        node.body = [*entry, *node.body]
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        return self.wrap(node, node)

    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        self.generic_visit(node)
        if len(node.targets) != 1:
            return node
        target = node.targets[0]
        if isinstance(target, ast.Name) and hasattr(target, "lineno"):
            node.value = self.wrap(target, node.value)
        elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
            if len(target.elts) == len(node.value.elts):
                node.value.elts = [
                    self.wrap(t, v) if isinstance(t, ast.Name) else v
                    for t, v in zip(target.elts, node.value.elts, strict=True)
                ]
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.stmt:
        self.generic_visit(node)
        if isinstance(node.target, ast.Name) and node.value is not None:
            node.value = self.wrap(node.target, node.value)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            return node
        current = ast.Name(node.target.id, ast.Load())
        value = ast.copy_location(ast.BinOp(current, node.op, node.value), node)
        return ast.copy_location(ast.Assign([node.target], self.wrap(node.target, value)), node)

    def visit_Return(self, node: ast.Return) -> ast.stmt:
        self.generic_visit(node)
        if node.value is not None:
            node.value = self.wrap(node.value, node.value)
        return node

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.expr:
        self.generic_visit(node)
        if hasattr(node, "lineno") and not node.target.id.startswith("__sk_"):
            node.value = self.wrap(node, node.value)
        return node


def _site(key: tuple[str, int, int], value: Any) -> Any:
    name = _SITE_TYPES.get(key)
    if name is None:
        return value
    from safekernels import dtypes

    if name == "f16":  # storage types: carried as f32 values rounded to the type
        return _F16InKernel(value)
    if name == "bf16":
        return np.float32(dtypes.bf16_to_f32(dtypes.f32_to_bf16(np.float32(value))))
    cast = getattr(dtypes, name, None)  # i8(...) ... u64(...) wrap as the GPU's conversions do
    return cast(value) if cast is not None else dtypes.dtype_of(name).storage.type(value)


_ARITH_FUNCTIONS: dict[str, Callable[[Any, Any], Any]] = {
    "__sk_lt__": _typed_arith(operator.lt, "lt"),
    "__sk_le__": _typed_arith(operator.le, "le"),
    "__sk_gt__": _typed_arith(operator.gt, "gt"),
    "__sk_ge__": _typed_arith(operator.ge, "ge"),
    "__sk_eq__": _typed_arith(operator.eq, "eq"),
    "__sk_ne__": _typed_arith(operator.ne, "ne"),
    "__sk_add__": _typed_arith(operator.add, "add"),
    "__sk_sub__": _typed_arith(operator.sub, "sub"),
    "__sk_mul__": _typed_arith(operator.mul, "mul"),
    "__sk_truediv__": _typed_arith(operator.truediv, "truediv"),
    "__sk_pow__": _typed_arith(operator.pow, "pow"),
}


class _F16InKernel(f16):
    """`f16(x)` inside a kernel: rounded to f16 (nearest even), carried as f32; still the f16 dtype where one is
    named (`simt.shared_array(f16, n)`, annotations)."""

    def __new__(cls, value: Any = 0.0) -> Any:
        return np.float32(np.float16(value))


#: Rust's panic messages for the two cases.
_DIVISION_PANICS = {
    "//": "attempt to divide by zero",
    "%": "attempt to calculate the remainder with a divisor of zero",
}


def _is_integer(value: Any) -> bool:
    return isinstance(value, int | np.integer)


def _division_by_zero(a: Any, b: Any, op: str) -> Any:
    """`a op b` for a zero divisor: a trap for integers, IEEE inf/nan (as on the GPU) for floats."""
    if _is_integer(a) and _is_integer(b):
        from safekernels.errors import KernelTrapError
        from safekernels.simt._context import state

        what = _DIVISION_PANICS[op]
        ctx = state.current
        where = f"{ctx.kernel_name}: " if ctx is not None else ""
        detail = f" (`{a} {op} {b}`, {ctx.describe()})" if ctx is not None else f" (`{a} {op} {b}`)"
        return KernelTrapError(f"{where}{what}{detail}")
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.floor_divide(a, b) if op == "//" else np.remainder(a, b)


def floordiv(a: Any, b: Any) -> Any:
    """Kernel `a // b` on the CPU (Python floor semantics; an integer zero divisor traps)."""
    a, b = unified(a, b)
    if isinstance(a, np.floating) or isinstance(b, np.floating):
        with np.errstate(all="ignore"):  # `floor(a / b)` of the rounded quotient, as the GPU (numpy's `//` and
            return np.floor(a / b)  # Python's floor the exact one: 201 // f32(0.3) is 669 there, 670 here)
    if b:
        return a // b
    result = _division_by_zero(a, b, "//")
    if isinstance(result, BaseException):
        raise result
    return result


def mod(a: Any, b: Any) -> Any:
    """Kernel `a % b` on the CPU (Python floor semantics; an integer zero divisor traps)."""
    a, b = unified(a, b)
    if b:
        return a % b
    result = _division_by_zero(a, b, "%")
    if isinstance(result, BaseException):
        raise result
    return result


def _collective_request(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, tuple[Any, ...]]:
    if kwargs:
        args = tuple(inspect.signature(fn).bind(*args, **kwargs).arguments.values())
    return COLLECTIVES[fn], args


def _lockstep_call(helper: Any, *args: Any, **kwargs: Any) -> Any:
    from safekernels.simt._context import state

    generator_fn = lockstep_function(helper)
    ctx = state.current
    assert ctx is not None
    saved = ctx.unsafe_depth  # unsafe is lexical: helpers do not inherit the caller's unsafe block
    ctx.unsafe_depth = 0
    try:
        return (yield from generator_fn(*args, **kwargs))
    finally:
        ctx.unsafe_depth = saved


def _kernel_int(x: Any = 0) -> Any:
    """`int(x)` in a SIMT kernel or helper: an i64, as the front end types it (a float truncates toward zero and
    saturates, NaN giving 0, where Python's `int` raises on NaN and inf and returns an unbounded int)."""
    from safekernels.dtypes import i64

    return i64(x)


def _kernel_float(x: Any = 0.0) -> Any:
    """`float(x)` in a SIMT kernel or helper: an f64, as the front end types it (Python's float is weak: it would
    compute `float(a[i]) * a[i]` in f32)."""
    return np.float64(x)


def _source(owner: Any) -> CompiledSource:
    cache: dict[str, Any] = owner._cpu_cache
    source = cache.get("source")
    if source is None:
        source = cache["source"] = CompiledSource(owner.py_function)
        if source.available:
            for name, typed in (("int", _kernel_int), ("float", _kernel_float)):
                if source.namespace.get(name, getattr(builtins, name)) is getattr(builtins, name):
                    source.namespace[name] = typed
    return source


def helper_needs_lockstep(owner: Any, in_progress: set[int]) -> bool:
    """Whether a kernel or helper reaches a collective (memoized; recursion counts as 'not through here')."""
    cache: dict[str, Any] = owner._cpu_cache
    if "lockstep" in cache:
        return bool(cache["lockstep"])
    if id(owner) in in_progress:
        return False
    source = _source(owner)
    if not source.available:
        cache["lockstep"] = False
        return False
    in_progress.add(id(owner))
    try:
        result = source.needs_lockstep(in_progress)
    finally:
        in_progress.discard(id(owner))
    cache["lockstep"] = result
    return result


def plain_function(owner: Any) -> Callable[..., Any]:
    """The function as written (compiled in the f32-preserving namespace when its source is available)."""
    cache: dict[str, Any] = owner._cpu_cache
    fn = cache.get("plain")
    if fn is None:
        source = _source(owner)
        fn = cache["plain"] = source.compile(lockstep=False) if source.available else owner.py_function
    return fn


def lockstep_function(owner: Any) -> Callable[..., Any]:
    """The generator form (only for owners that `helper_needs_lockstep`)."""
    cache: dict[str, Any] = owner._cpu_cache
    fn = cache.get("generator")
    if fn is None:
        fn = cache["generator"] = _source(owner).compile(lockstep=True)
    return fn
