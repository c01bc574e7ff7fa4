"""Tile front end: a `@tile.kernel`'s Python AST -> typed tile IR (`codegen.tile.ir`).

Types come from the launch specialization: each Partition parameter's tile shape and every dtype are fixed,
tensor shapes are runtime values of known rank.  Tile shapes written in the kernel (`x.load(i, (64, 64))`,
`tile.zeros((BM, BN), f32)`) must be compile-time constants (literals, module constants, `Dims` names bound
by the partition).  Each op is typed with the op table's own rule (`safekernels.tile.ops.OPS[...].infer`), so
the CPU executor and the compiler agree on what is legal; a violation becomes an SK diagnostic at the
offending expression instead of an exception at run time.

`@tile.function` helpers are inlined at each call site: the helper's body is walked with its own source (so a
diagnostic points into the helper), its own globals and an environment of the call's arguments, and its final
`return <value>` is the call's value.
"""

from __future__ import annotations

import ast
import inspect
import math
import types
from dataclasses import dataclass
from typing import Any, NoReturn

from safekernels.codegen.frontend import tile_device_io
from safekernels.codegen.frontend.scopes import local_names
from safekernels.codegen.frontend.source import FunctionSource, load_source
from safekernels.codegen.tile.call_shape import call_shape_error
from safekernels.codegen.tile.diagnostics import tile_error
from safekernels.codegen.tile.ir import INDEX, Carried, ForOp, Op, ParamInfo, ScalarType, TileKernelIR, Value
from safekernels.codegen.tile.target_rules import REFERENCE_ARCH, first_refusal, on_fma_units
from safekernels.dtypes import DType, dtype_of
from safekernels.dtypes import ScalarType as DScalar
from safekernels.errors import ShapeError
from safekernels.tile import language as tile_language
from safekernels.tile.language import TileFunction
from safekernels.tile.ops import (
    ATOMIC_OPS,
    OPERATOR_OPS,
    OPS,
    Shape,
    TileType,
    check_atomic_dtype,
    infer_indexed,
    infer_stored_values,
    where_scalar_dtype,
)
from safekernels.tile.tile_value import Tile
from safekernels.tile.views import AtomicView, PartitionView, TensorView

F32 = dtype_of("f32")
_MATH = ("exp", "exp2", "log", "sqrt", "rsqrt", "tanh", "sin", "cos")
_BINARY_FUNCS = ("maximum", "minimum")
_REDUCE = ("sum", "max", "min")
_ARGREDUCE = ("argmax", "argmin")
_INDEXED = ("gather", "scatter", *ATOMIC_OPS)
_SCALAR_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
#: the keyword arguments each `tile.*` call takes (any other is SK006 on both executors)
_CALL_KEYWORDS: dict[str, tuple[str, ...]] = {
    **{name: ("axis", "keepdims") for name in (*_REDUCE, *_ARGREDUCE)},
    "cumsum": ("axis",),
    "scan": ("axis", "op"),
    "matmul": ("input_precision",),
    "gather": ("index", "mask", "other"),
    **{name: ("index", "values", "mask") for name in _INDEXED if name != "gather"},
}
#: op kinds that compute a scalar from source expressions (recorded per expression: `TileKernelIR.scalar_sites`)
_SCALAR_KINDS = ("const", "scalar", "scalar_cast", "to_index")
#: The most elements one tile value may have (1 MiB of f32): a tile block holds its tiles in registers, so a
#: larger tile spills and its compile time grows past tens of seconds (2**20 elements took 43 s).  Both executors
#: refuse it here, in the shared front end.
MAX_TILE_ELEMENTS = 1 << 18


def scalar_site(src: FunctionSource, node: ast.AST) -> tuple[str, int, int, int, int, str]:
    """Where expression `node` of `src` is written (file, line, column, end line, end column, node kind): the key
    under which the IR records its scalar ops and the CPU executor looks them up (`cpu.tile_scalars`)."""
    line, col, _ = src.position(node)
    end: Any = getattr(node, "end_lineno", None) or getattr(node, "lineno", 1)
    end_line = int(end)
    end_col = int(getattr(node, "end_col_offset", None) or 0) + src.indent
    return (src.path, line, col, end_line + src.first_line - 1, end_col, type(node).__name__)


@dataclass(frozen=True)
class TensorRef:
    param: int


@dataclass(frozen=True)
class PartRef:
    """A partition view: the kernel's own output tile (`own`) or `x.partition(shape)` of any parameter."""

    param: int
    tile_shape: Shape
    own: bool


@dataclass(frozen=True)
class AtomicRef:
    """An `AtomicTensor[T]` parameter: updated only by `tile.atomic_*`."""

    param: int


@dataclass(frozen=True)
class ShapeRef:
    param: int


#: The class the CPU executor runs for each kind of parameter reference: a method call must fit its signature
_RUNTIME_CLASS: dict[type, type] = {TensorRef: TensorView, PartRef: PartitionView, AtomicRef: AtomicView}


class TileFrontend:
    def __init__(
        self, fn: Any, params: list[ParamInfo], grid_rank: int, arch: str = REFERENCE_ARCH, num_warps: int | None = None
    ) -> None:
        self.fn = inspect.unwrap(fn)
        self.src: FunctionSource = load_source(self.fn)
        self.params = params
        self.grid_rank = grid_rank
        self.arch = arch  # the target whose rules the kernel must keep (codegen.tile.target_rules)
        self.num_warps = num_warps
        self.sites: dict[int, tuple[FunctionSource, ast.AST]] = {}  # id(op) -> where it was written
        self.param_nodes: list[ast.arg] = []
        self.counter = 0
        self.ops: list[Op] = []
        self.uses_matmul = False
        self.globals: dict[str, Any] = dict(getattr(self.fn, "__globals__", {}))
        try:
            closure = inspect.getclosurevars(self.fn)
            self.globals.update(closure.nonlocals)
        except (TypeError, ValueError):
            pass
        self.env: dict[str, Any] = {}
        self.local_names = local_names(self.src)  # bound somewhere in the body: never read from the globals
        self.loop_only: dict[str, int] = {}  # names first bound inside a loop (not defined after it) -> its line
        self.inlining: list[Any] = []  # the @tile.function helpers being inlined (recursion is an error)
        self.path: tuple[Any, ...] = ()  # the `scalar_site`s of the helper calls being inlined, outermost first
        self.scalar_sites: dict[tuple[tuple[Any, ...], Any], list[Op]] = {}
        self.helper_calls: set[tuple[tuple[Any, ...], Any]] = set()
        self.loop_carried: dict[tuple[tuple[Any, ...], Any], dict[str, ScalarType]] = {}

    # -- helpers --------------------------------------------------------------------------------------------
    def err(self, code: str, msg: str, node: ast.AST | None, help: str | None = None) -> NoReturn:
        raise tile_error(code, msg, self.src, node, help)

    def new(self, ty: TileType | ScalarType) -> Value:
        self.counter += 1
        return Value(self.counter, ty)

    def emit(
        self,
        kind: str,
        args: list[Value],
        ty: TileType | ScalarType | None,
        node: ast.AST | None,
        **attrs: Any,
    ) -> Value:
        if isinstance(ty, TileType) and math.prod(ty.shape) > MAX_TILE_ELEMENTS:
            self.err(
                "SK023",
                f"a tile of {math.prod(ty.shape)} elements {ty.shape} is more than one tile block holds (at most "
                f"{MAX_TILE_ELEMENTS} = 2**18): a block keeps its tiles in registers, so a larger one spills and "
                "takes minutes to compile; partition the output into smaller tiles (more tile blocks)",
                node,
            )
        result = self.new(ty) if ty is not None else None
        line = getattr(node, "lineno", 0) + self.src.first_line - 1 if node is not None else 0
        op = Op(kind, args, result, attrs, line)
        self.ops.append(op)
        if node is not None:
            self.sites[id(op)] = (self.src, node)
            if kind in _SCALAR_KINDS:
                self.scalar_sites.setdefault((self.path, scalar_site(self.src, node)), []).append(op)
        return result  # type: ignore[return-value]

    def const(self, value: Any, node: ast.AST | None) -> Value:
        if isinstance(value, bool):
            return self.emit("const", [], ScalarType(dtype_of("bool")), node, value=value)
        if isinstance(value, int):
            return self.emit("const", [], INDEX, node, value=value)
        return self.emit("const", [], ScalarType(F32), node, value=float(value))

    # -- entry ----------------------------------------------------------------------------------------------
    def build(self) -> TileKernelIR:
        tree = self.src.tree
        args = tree.args.args
        if len(args) != len(self.params):
            self.err(
                "SK006", f"kernel has {len(args)} parameters, the launch specialized {len(self.params)}", tree
            )
        for i, (arg, p) in enumerate(zip(args, self.params, strict=True)):
            if p.kind == "partition":
                assert p.tile_shape is not None
                self.env[arg.arg] = PartRef(i, p.tile_shape, True)
            elif p.kind == "tensor":
                self.env[arg.arg] = TensorRef(i)
            elif p.kind == "atomic":
                self.env[arg.arg] = AtomicRef(i)
            else:
                self.env[arg.arg] = self.emit("param", [], ScalarType(p.dtype), arg, index=i)
        self.param_nodes = list(args)
        self.block(tree.body)
        kir = TileKernelIR(self.fn.__name__, self.params, self.grid_rank, self.ops, self.uses_matmul, self.src.path)
        kir.scalar_sites, kir.helper_calls, kir.loop_carried = self.scalar_sites, self.helper_calls, self.loop_carried
        self.check_target_rules(kir)
        return kir

    def check_target_rules(self, kir: TileKernelIR) -> None:
        """A kernel that breaks a rule of the target (fp8 below sm_89, an fp8 matmul outside the warpgroup
        main-loop form) is refused here, so the CPU executor refuses it alike (`codegen.tile.target_rules`)."""
        on_fma_units(kir, self.num_warps)
        refusal = first_refusal(kir, self.arch, self.num_warps)
        if refusal is None:
            return
        if refusal.op is not None and id(refusal.op) in self.sites:
            src, node = self.sites[id(refusal.op)]
            raise tile_error("SK004", refusal.message, src, node)
        where = self.param_nodes[refusal.param] if 0 <= refusal.param < len(self.param_nodes) else None
        self.err("SK004", refusal.message, where)

    def block(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                return  # docstring
            if isinstance(s.value, ast.Call) and tile_device_io.is_print_call(self, s.value):
                tile_device_io.lower_print_stmt(self, s.value)  # device print (codegen.frontend.tile_device_io)
                return
            self.expr(s.value)
        elif isinstance(s, ast.Assert):
            tile_device_io.lower_assert_stmt(self, s)
        elif isinstance(s, ast.Assign):
            if len(s.targets) != 1:
                self.err("SK001", "chained assignment is not supported in tile kernels", s)
            self.assign(s.targets[0], self.expr(s.value))
        elif isinstance(s, ast.AnnAssign) and s.value is not None:
            self.assign(s.target, self.expr(s.value))
        elif isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                self.err("SK001", "augmented assignment needs a plain name", s.target)
            op = type(s.op).__name__
            value = self.binop(op, self.lookup(s.target.id, s.target), self.expr(s.value), s)
            self.env[s.target.id] = value
        elif isinstance(s, ast.For):
            self.for_loop(s)
        elif isinstance(s, ast.Pass):
            return
        elif isinstance(s, ast.Return) and s.value is None:
            return
        else:
            self.err(
                "SK001",
                f"`{type(s).__name__}` statements are not supported in tile kernels",
                s,
                "tile kernels are straight-line code plus `for ... in range(...)` loops",
            )

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, ast.Tuple) and isinstance(value, tuple) and len(value) == len(target.elts):
            for t, v in zip(target.elts, value, strict=True):
                self.assign(t, v)
        else:
            self.err("SK001", "unsupported assignment target", target)

    def for_loop(self, s: ast.For) -> None:
        if s.orelse:
            self.err("SK001", "`for ... else` is not supported in tile kernels", s)
        if not isinstance(s.target, ast.Name):
            self.err("SK001", "the loop variable must be a plain name", s.target)
        it = s.iter
        if not (
            isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name)
            and it.func.id == "range"
            and 1 <= len(it.args) <= 3
            and not it.keywords
        ):
            self.err("SK001", "tile kernels loop only over `range(...)`", it)
        raw = [self.expr(a) for a in it.args]
        if len(raw) == 3 and isinstance(raw[2], int) and raw[2] == 0:
            self.err("SK023", "`range` step must not be zero", it.args[2], "Python's range() raises ValueError")
        bounds = [self.index_value(v, a) for v, a in zip(raw, it.args, strict=True)]
        if len(bounds) == 1:
            bounds = [self.const(0, it), bounds[0]]
        if len(bounds) == 2:
            bounds.append(self.const(1, it))
        assigned = sorted(
            {
                n.id
                for node in s.body
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
            - {s.target.id}
        )
        carried: list[Carried] = []
        # name -> (its value before the loop with each carried leaf replaced by None, its carried leaves).
        # A tuple (`pair = (t, u)`, `a, b = 0.0, 1.0` is two names) is carried leaf by leaf; anything that
        # cannot be a run-time value (a tensor parameter, a string) must come back unchanged (checked below).
        shapes: dict[str, tuple[Any, list[Carried]]] = {}
        target = s.target.id
        for name in assigned + ([target] if target in self.env else []):
            init = self.env.get(name)
            if init is None:
                self.loop_only.setdefault(name, getattr(s, "lineno", 0) + self.src.first_line - 1)
                continue
            leaves: list[Carried] = []
            template = self._carry_leaves(name, init, leaves, s)
            self.env[name] = self._rebuild(template, iter(c.init for c in leaves))
            carried.extend(leaves)
            shapes[name] = (template, leaves)
        self.loop_carried[(self.path, scalar_site(self.src, s))] = {
            c.name: c.init.type for c in carried if isinstance(c.init.type, ScalarType)
        }
        loop = ForOp("for", bounds, None, {}, getattr(s, "lineno", 0) + self.src.first_line - 1)
        loop.var = self.new(INDEX)
        loop.carried = carried
        outer_ops, outer_env = self.ops, dict(self.env)
        self.ops = loop.body
        for name, (template, leaves) in shapes.items():
            self.env[name] = self._rebuild(template, iter(c.phi for c in leaves))
        # The loop variable, also when a name of that name was bound before the loop: Python rebinds it each
        # iteration and it keeps the last iteration's value after the loop (the value before it on zero trips).
        self.env[target] = loop.var
        if target in shapes and not (
            len(shapes[target][1]) == 1 and shapes[target][0] is None and shapes[target][1][0].init.type == INDEX
        ):
            self.err(
                "SK023",
                f"the loop variable `{target}` is an int, but `{target}` before the loop is "
                f"{self._kind(outer_env[target])}: Python keeps the loop's last value after the loop",
                s.target,
                "use another name for the loop variable",
            )
        self.block(s.body)
        for name, (template, leaves) in shapes.items():
            update = self.env[name]
            got = self._carry_update(name, template, update, s)
            for c, u in zip(leaves, got, strict=True):
                if isinstance(u, bool | int | float) and not isinstance(u, DScalar):
                    u = self.const(u, s)  # `v = 0` in the loop: the number becomes the carried value
                if not isinstance(u, Value) or u.type != c.init.type:
                    shown = u.type if isinstance(u, Value) else type(u).__name__
                    self.err(
                        "SK023",
                        f"loop-carried `{c.name}` changes type in the loop: {c.init.type} before, "
                        f"{shown} after one iteration",
                        s,
                    )
                c.update = u
                c.out = self.new(c.init.type)
        self.ops = outer_ops
        self.ops.append(loop)
        self.env = outer_env
        for name, (template, leaves) in shapes.items():
            self.env[name] = self._rebuild(template, iter(c.out for c in leaves))

    def _kind(self, v: Any) -> str:
        if isinstance(v, Value):
            return f"a {v.type}"
        return "a tuple" if isinstance(v, tuple) else f"a {type(v).__name__}"

    def _carry_leaves(self, name: str, init: Any, leaves: list[Carried], s: ast.For) -> Any:
        """`init` with each run-time leaf (a number becomes one) replaced by None and appended to `leaves`."""
        if isinstance(init, tuple):
            return tuple(self._carry_leaves(f"{name}[{i}]", v, leaves, s) for i, v in enumerate(init))
        if isinstance(init, bool | int | float) and not isinstance(init, DScalar):
            # A number bound before the loop and reassigned in it (`steps = 0`, then `steps = steps + 1`)
            # is a run-time value carried by the loop, as in Python; folded as a constant, the loop's
            # updates would be dropped and the value after the loop would silently be the initial one.
            init = self.const(init, s)
        if isinstance(init, Value):
            leaves.append(Carried(name, init, self.new(init.type)))
            return None
        return init

    def _rebuild(self, template: Any, values: Any) -> Any:
        if isinstance(template, tuple):
            return tuple(self._rebuild(t, values) for t in template)
        return next(values) if template is None else template

    def _carry_update(self, name: str, template: Any, update: Any, s: ast.For) -> list[Any]:
        """The values of `update` at the carried leaves of `template`; its other parts must be unchanged."""
        if isinstance(template, tuple):
            if not isinstance(update, tuple) or len(update) != len(template):
                self.err(
                    "SK023",
                    f"loop-carried `{name}` changes type in the loop: a {len(template)}-tuple before, "
                    f"{self._kind(update)} after one iteration",
                    s,
                )
            out: list[Any] = []
            for i, (t, u) in enumerate(zip(template, update, strict=True)):
                out.extend(self._carry_update(f"{name}[{i}]", t, u, s))
            return out
        if template is None:
            return [update]
        if update is not template:
            self.err(
                "SK023",
                f"`{name}` is rebound in the loop to another {self._kind(update)[2:]}: only numbers, "
                "scalars and tiles (or tuples of them) can change from one iteration to the next",
                s,
                "bind it once before the loop, or pass the choice as a tile or scalar",
            )
        return []

    # -- expressions ----------------------------------------------------------------------------------------
    def lookup(self, name: str, node: ast.AST) -> Any:
        if name in self.env:
            return self.env[name]
        if name in self.local_names and name not in self.loop_only:
            self.err(
                "SK002",
                f"`{name}` is read before it is assigned: a name assigned anywhere in a kernel is local to all of "
                "it, as in Python (which raises UnboundLocalError here)",
                node,
                f"give the local another name than the global `{name}`" if name in self.globals else None,
            )
        if name in self.globals:
            return self.globals[name]
        if hasattr(__builtins__, name) if not isinstance(__builtins__, dict) else name in __builtins__:
            return getattr(__import__("builtins"), name)
        if name in self.loop_only:
            self.err(
                "SK002",
                f"unknown name `{name}`: it is bound only inside the loop at line {self.loop_only[name]}",
                node,
                f"bind `{name}` before the loop (the loop then carries it), as the loop may run zero times",
            )
        self.err("SK002", f"unknown name `{name}`", node)

    def expr(self, e: ast.expr) -> Any:
        if isinstance(e, ast.Constant):
            if isinstance(e.value, bool | int | float | str):  # strings: op names (`tile.scan(t, op="max")`)
                return e.value
            self.err("SK001", f"unsupported constant {e.value!r}", e)
        if isinstance(e, ast.Name):
            return self.lookup(e.id, e)
        if isinstance(e, ast.Tuple):
            return tuple(self.expr(x) for x in e.elts)
        if isinstance(e, ast.Attribute):
            base = self.expr(e.value)
            if isinstance(base, types.ModuleType):
                if not hasattr(base, e.attr):
                    self.err("SK004", f"`{base.__name__}.{e.attr}` does not exist", e)
                return getattr(base, e.attr)
            if isinstance(base, TensorRef | PartRef | AtomicRef) and e.attr == "shape":
                return ShapeRef(base.param)
            if isinstance(base, PartRef) and e.attr == "tile_shape":
                return base.tile_shape  # fixed per specialization: a tuple of compile-time ints
            if isinstance(base, TensorRef | AtomicRef) and e.attr == "tile_shape":
                kind = "Tensor" if isinstance(base, TensorRef) else "AtomicTensor"
                self.err(
                    "SK004",
                    f"`{self.params[base.param].name}` is a {kind}: only a Partition has `.tile_shape`",
                    e,
                    "a Partition parameter, or `x.partition(shape)`, has one",
                )
            self.err("SK004", f"unsupported attribute `.{e.attr}`", e)
        if isinstance(e, ast.Subscript):
            base = self.expr(e.value)
            idx = self.static_int(e.slice)
            if isinstance(base, ShapeRef):
                p = self.params[base.param]
                if not -p.rank <= idx < p.rank:
                    self.err(
                        "SK023", f"`{p.name}.shape[{idx}]` is out of range for a rank-{p.rank} tensor", e
                    )
                return self.emit("tensor_dim", [], INDEX, e, param=base.param, axis=idx % p.rank)
            if isinstance(base, tuple):
                if not -len(base) <= idx < len(base):
                    self.err("SK023", f"index {idx} is out of range for a tuple of {len(base)}", e)
                return base[idx]
            self.err("SK004", "only `x.shape[i]` can be subscripted in tile kernels", e)
        if isinstance(e, ast.BinOp):
            return self.binop(type(e.op).__name__, self.expr(e.left), self.expr(e.right), e)
        if isinstance(e, ast.UnaryOp):
            operand = self.expr(e.operand)
            if isinstance(operand, Value) and _is_bool(operand.type) and isinstance(e.op, ast.USub | ast.Invert):
                sign = "-" if isinstance(e.op, ast.USub) else "~"
                self.err(
                    "SK023",
                    f"unary `{sign}` of a bool scalar is not supported in tile kernels",
                    e,
                    f"Python gives an int (`{sign}True == {-1 if sign == '-' else -2}`), numpy "
                    + ("refuses it" if sign == "-" else "the logical not")
                    + f"; write `{sign}int(b)`" + (" or `b == False` for a logical not" if sign == "~" else ""),
                )
            if isinstance(e.op, ast.USub):
                if isinstance(operand, int | float):
                    return -operand
                if isinstance(operand, Value) and operand.is_tile:
                    return self.tile_op("neg", [operand], e)
                return self.binop("Sub", 0, operand, e)
            if isinstance(e.op, ast.UAdd):
                return operand
            if isinstance(e.op, ast.Invert):
                if isinstance(operand, Value) and operand.is_tile:
                    return self.tile_op("invert", [operand], e)
                if isinstance(operand, int) and not isinstance(operand, bool):
                    return ~operand
                return self.binop("BitXor", operand, -1, e)
            self.err("SK001", f"unsupported unary operator {type(e.op).__name__}", e)
        if isinstance(e, ast.Compare):
            if len(e.ops) != 1:
                self.err("SK001", "chained comparisons are not supported on tiles", e)
            return self.binop(type(e.ops[0]).__name__, self.expr(e.left), self.expr(e.comparators[0]), e)
        if isinstance(e, ast.Call):
            return self.call(e)
        self.err("SK001", f"`{type(e).__name__}` expressions are not supported in tile kernels", e)

    def static_int(self, e: ast.expr) -> int:
        v = self.expr(e)
        if isinstance(v, bool) or not isinstance(v, int):
            self.err("SK008", "a compile-time integer is required here", e)
        return v

    def static_shape(self, e: ast.expr, what: str) -> Shape:
        v = self.expr(e)
        items = v if isinstance(v, tuple) else (v,)
        if not items or not all(isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in items):
            self.err("SK008", f"{what}: the tile shape must be a tuple of positive compile-time ints", e)
        return tuple(items)

    def index_value(self, v: Any, node: ast.AST) -> Value:
        if isinstance(v, bool):
            self.err("SK023", "a bool is not an index", node)
        if isinstance(v, int):
            return self.const(v, node)
        if isinstance(v, Value) and v.type == INDEX:
            return v
        if (
            isinstance(v, Value)
            and isinstance(v.type, ScalarType)
            and v.type.dtype is not None
            and v.type.dtype.kind in ("i", "u")
            and v.type.dtype.name != "bool"
        ):  # an integer scalar (an `i32` parameter, ...) widens to the i64 index, as on the CPU
            return self.emit("to_index", [v], INDEX, node)
        self.err("SK023", f"expected an integer index, got {getattr(v, 'type', type(v).__name__)}", node)

    def scalar_value(self, v: Any, node: ast.AST) -> Value:
        if isinstance(v, Value):
            return v
        if isinstance(v, bool | int | float):
            return self.const(v, node)
        if isinstance(v, DScalar):
            return self.const(v, node)
        self.err("SK023", f"expected a tile or a number, got {type(v).__name__}", node)

    def binop(self, opname: str, a: Any, b: Any, node: ast.AST) -> Any:
        a_tile = isinstance(a, Value) and a.is_tile
        b_tile = isinstance(b, Value) and b.is_tile
        if a_tile or b_tile:
            op = OPERATOR_OPS.get(opname)
            if op is None:
                self.err("SK001", f"operator `{opname}` is not supported on tiles", node)
            return self.tile_op(op, [self.scalar_value(a, node), self.scalar_value(b, node)], node)
        if isinstance(a, int | float) and isinstance(b, int | float):  # constant folding
            return _fold(opname, a, b, node, self)
        sym = {
            "Add": "+",
            "Sub": "-",
            "Mult": "*",
            "FloorDiv": "//",
            "Mod": "%",
            "Div": "/",
            "Lt": "<",
            "LtE": "<=",
            "Gt": ">",
            "GtE": ">=",
            "Eq": "==",
            "NotEq": "!=",
            "BitAnd": "&",
            "BitOr": "|",
            "BitXor": "^",
            "LShift": "<<",
            "RShift": ">>",
        }.get(opname)
        if sym is None:
            self.err("SK001", f"operator `{opname}` is not supported on scalars in tile kernels", node)
        va, vb = self.scalar_value(a, node), self.scalar_value(b, node)
        assert isinstance(va.type, ScalarType) and isinstance(vb.type, ScalarType)
        if sym in ("<", "<=", ">", ">=", "==", "!="):
            # compared in the type arithmetic on the two would have (an f64 with an f64 in f64, an int with a
            # float literal in f32), on both executors
            operand = self.scalar_result_type("+", va, vb, node)
            return self.emit("scalar", [va, vb], ScalarType(dtype_of("bool")), node, op=sym, operand=operand)
        if _is_bool(va.type) and _is_bool(vb.type) and sym in ("&", "|", "^"):
            # logical on two bools (Python and numpy agree): computed on 0/1 indices, then `!= 0`
            bits = self.emit("scalar", [va, vb], INDEX, node, op=sym)
            zero = self.const(0, node)
            return self.emit("scalar", [bits, zero], ScalarType(dtype_of("bool")), node, op="!=", operand=INDEX)
        if _is_bool(va.type) and _is_bool(vb.type) and sym != "/":
            self.err(
                "SK023",
                f"operator `{sym}` on two bool scalars is not supported in tile kernels",
                node,
                "Python gives an int (`True + True == 2`), numpy a bool (`True`); "
                "convert one side first: `int(a) + b`",
            )
        return self.emit("scalar", [va, vb], self.scalar_result_type(sym, va, vb, node), node, op=sym)

    def scalar_result_type(self, sym: str, va: Value, vb: Value, node: ast.AST) -> ScalarType:
        """The type of scalar arithmetic `va sym vb` (docs/numerics.md): a bool counts as an int (bool with an
        index is an index, with a typed int that int, with a float that float, as in Python and numpy), two
        ints promote as numpy does with the index weak, anything with a float is that float (f32 for a
        literal), and `/` is always a float."""
        assert isinstance(va.type, ScalarType) and isinstance(vb.type, ScalarType)
        if sym != "/" and _is_int_or_bool(va.type) and _is_int_or_bool(vb.type):
            return _int_result(_bool_as_index(va.type), _bool_as_index(vb.type))
        if sym in ("//", "%", "&", "|", "^", "<<", ">>"):
            self.err("SK023", f"operator `{sym}` needs integer scalars in tile kernels", node)
        floats = [t for t in (va.type, vb.type) if t.dtype is not None and t.dtype.is_float]
        # two typed floats promote as numpy does (`f32 * f64` is f64, as the CPU executor computes it; taking the
        # first one truncated the f64 operand to f32 on the GPU)
        return max(floats, key=lambda t: t.dtype.itemsize if t.dtype is not None else 0, default=ScalarType(F32))

    def tile_op(self, name: str, operands: list[Value], node: ast.AST, **attrs: Any) -> Value:
        spec = OPS[name]
        value_ops = operands[1:] if name == "where" else operands
        like = next((o.type.dtype for o in value_ops if isinstance(o.type, TileType)), None)
        if like is None and name == "where" and isinstance(operands[0].type, TileType):
            like = where_scalar_dtype([o.type.dtype for o in value_ops if isinstance(o.type, ScalarType)])
        if like is None:
            self.err("SK023", f"tile.{name} needs at least one tile operand", node)
        cond = operands[0].type
        if name == "where" and isinstance(cond, ScalarType) and (cond.dtype is None or cond.dtype.name != "bool"):
            what = "an int" if cond.dtype is None else f"an {cond.dtype} scalar"  # (it once said "got f32")
            must = "tile.where: the condition must be a bool tile or a bool scalar (a comparison)"
            self.err("SK023", f"{must}, got {what}", node)
        types_: list[TileType] = []
        for o in operands:
            if isinstance(o.type, TileType):
                types_.append(o.type)
            else:
                if (
                    o.type != INDEX
                    and o.type.dtype is not None
                    and o.type.dtype.name == "bool"
                    and name == "where"
                ):
                    types_.append(TileType((), o.type.dtype))
                    continue
                if (
                    not like.is_float
                    and isinstance(o.type, ScalarType)
                    and o.type.dtype is not None
                    and o.type.dtype.is_float
                    and o.type.dtype.name != "bool"
                ):
                    self.err(
                        "SK023", f"cannot combine a float scalar with a {like} tile; use .astype(f32)", node
                    )
                types_.append(TileType((), like))
        try:
            result = spec.infer(*types_, **attrs)
        except ShapeError as exc:
            code = "SK021" if name == "matmul" else "SK020" if "broadcast" in str(exc) else "SK023"
            self.err(code, str(exc), node)
        except TypeError as exc:
            self.err("SK023", str(exc), node)
        if name == "matmul":
            self.uses_matmul = True
        return self.emit(name, operands, result, node, **attrs)

    # -- calls ----------------------------------------------------------------------------------------------
    def call(self, e: ast.Call) -> Any:
        func = e.func
        if isinstance(func, ast.Attribute):
            base = self.expr(func.value)
            if isinstance(base, types.ModuleType) and isinstance(getattr(base, func.attr, None), TileFunction):
                return self.inline(getattr(base, func.attr), e)
            if not isinstance(base, types.ModuleType):
                return self.method(base, func.attr, e)
            fn_obj = getattr(base, func.attr, None)
            name = func.attr
            if getattr(base, "__name__", "") not in ("safekernels.tile", "safekernels.tile.language"):
                self.err(
                    "SK004", f"`{getattr(base, '__name__', '?')}.{name}` cannot be called in a tile kernel", e
                )
            _ = fn_obj
            return self.tile_call(name, e)
        if isinstance(func, ast.Name):
            target = self.lookup(func.id, func)
            if isinstance(target, TileFunction):
                return self.inline(target, e)
            if target is float and len(e.args) == 1 and isinstance(e.args[0], ast.Constant):
                return float(e.args[0].value)  # type: ignore[arg-type]
            if target is float and len(e.args) == 1:  # a scalar as a weakly typed float (f32 on the GPU)
                v = self.expr(e.args[0])
                if isinstance(v, int | float) and not isinstance(v, bool):
                    return float(v)
                if isinstance(v, Value) and isinstance(v.type, ScalarType):
                    return v if v.type.dtype is not None and v.type.dtype.is_float else self.emit(
                        "scalar_cast", [v], ScalarType(F32), e, dtype=F32
                    )
                self.err("SK023", "float(...) takes a scalar in tile kernels", e)
            if target is int and len(e.args) == 1:
                v = self.expr(e.args[0])
                if isinstance(v, bool):
                    return int(v)
                if isinstance(v, Value) and _is_bool(v.type):  # 0 or 1, as Python's int(True)
                    return self.emit("to_index", [v], INDEX, e)
                return self.index_value(v, e)
            if target in (min, max, abs):
                return self.scalar_extreme(target.__name__, e)
            if isinstance(target, type) and issubclass(target, DScalar) and len(e.args) == 1:
                v = self.expr(e.args[0])
                if isinstance(v, Value) and isinstance(v.type, ScalarType):  # `f32(n)`: a conversion, as on the CPU
                    dt = dtype_of(target)
                    return self.emit("scalar_cast", [v], ScalarType(dt), e, dtype=dt)
                return target(v) if isinstance(v, int | float) else v  # type: ignore[call-arg]
            module = getattr(target, "__module__", "") or ""
            if module.startswith("safekernels.tile"):
                return self.tile_call(getattr(target, "__name__", func.id), e)
            self.err("SK004", f"`{func.id}(...)` cannot be called in a tile kernel", e)
        self.err("SK004", "unsupported call", e)

    def _kw(self, e: ast.Call, names: tuple[str, ...], n_pos: int) -> dict[str, ast.expr]:
        out: dict[str, ast.expr] = {}
        for i, a in enumerate(e.args[n_pos:]):
            if i >= len(names):
                self.err("SK006", "too many arguments", a)
            out[names[i]] = a
        for kw in e.keywords:
            if kw.arg not in names:
                self.err("SK006", f"unexpected keyword argument `{kw.arg}`", kw.value)
            out[kw.arg] = kw.value
        return out

    def tile_arg(self, e: ast.expr) -> Value:
        v = self.expr(e)
        if isinstance(v, Value) and v.is_tile:
            return v
        self.err("SK023", "expected a tile", e)

    def tile_call(self, name: str, e: ast.Call) -> Any:
        a = e.args
        allowed = _CALL_KEYWORDS.get(name, ())
        for given in e.keywords:  # the CPU executor would raise a bare TypeError; the GPU once ignored them
            if given.arg not in allowed:
                what = f"keyword argument `{given.arg}`" if given.arg is not None else "`**kwargs`"
                takes = ", ".join(f"`{k}=`" for k in allowed) or "no keyword arguments"
                self.err("SK006", f"tile.{name}: unexpected {what} (it takes {takes})", given.value)
        target = getattr(tile_language, name, None)
        if callable(target) and (why := call_shape_error(target, e)) is not None:
            self.err("SK006", f"tile.{name}: {why}", e)
        if name == "load_like":
            if len(a) != 2:
                self.err("SK006", "tile.load_like(x, z) takes two arguments", e)
            x, z = self.expr(a[0]), self.expr(a[1])
            if not isinstance(x, TensorRef) or not isinstance(z, PartRef) or not z.own:
                self.err(
                    "SK006", "tile.load_like(x, z) takes a Tensor parameter and a Partition parameter", e
                )
            px = self.params[x.param]
            if px.rank != len(z.tile_shape):
                self.err(
                    "SK023",
                    f"tile.load_like: `{px.name}` has rank {px.rank}, the tile of "
                    f"`{self.params[z.param].name}` {z.tile_shape} has rank {len(z.tile_shape)}",
                    e,
                )
            idx = [self.emit("bid", [], INDEX, e, axis=i) for i in range(len(z.tile_shape))]
            return self.emit(
                "load", idx, TileType(z.tile_shape, px.dtype), e, param=x.param, tile_shape=z.tile_shape
            )
        if name in ("bid", "num_blocks"):
            if len(a) != 1:
                self.err("SK006", f"tile.{name}(axis) takes one argument", e)
            return self.emit(name, [], INDEX, e, axis=self.static_int(a[0]))
        if name in _MATH:
            if len(a) != 1:
                self.err("SK006", f"tile.{name} takes one tile", e)
            return self.tile_op(name, [self.tile_arg(a[0])], e)
        if name in _BINARY_FUNCS:
            if len(a) != 2:
                self.err("SK006", f"tile.{name} takes two operands", e)
            return self.binop_named(name, [self.expr(x) for x in a], e)
        if name == "where":
            if len(a) != 3:
                self.err("SK006", "tile.where(cond, a, b) takes three operands", e)
            return self.binop_named("where", [self.expr(x) for x in a], e)
        if name in _REDUCE:
            kw = self._kw(e, ("axis", "keepdims"), 1)
            axis = self.expr(kw["axis"]) if "axis" in kw else None
            if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
                self.err("SK008", "the axis must be a compile-time int", kw["axis"])
            keep = self.expr(kw["keepdims"]) if "keepdims" in kw else False
            if not isinstance(keep, bool):
                self.err("SK008", "keepdims must be a compile-time bool", kw["keepdims"])
            return self.tile_op(name, [self.tile_arg(a[0])], e, axis=axis, keepdims=keep)
        if name in ("cumsum", "scan"):
            kw = self._kw(e, ("axis", "op") if name == "scan" else ("axis",), 1)
            if len(a) < 1:
                self.err("SK006", f"tile.{name} takes a tile", e)
            axis = self.expr(kw["axis"]) if "axis" in kw else -1
            if isinstance(axis, bool) or not isinstance(axis, int):
                self.err("SK008", "the axis must be a compile-time int", kw.get("axis", e))
            sop: Any = self.expr(kw["op"]) if "op" in kw else "add"
            if "op" in kw and not isinstance(sop, str):
                self.err("SK008", "the scan op must be a string literal: 'add', 'max' or 'min'", kw["op"])
            return self.tile_op("scan", [self.tile_arg(a[0])], e, axis=axis, op=sop)
        if name in _ARGREDUCE:
            kw = self._kw(e, ("axis", "keepdims"), 1)
            axis = self.expr(kw["axis"]) if "axis" in kw else None
            if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
                self.err("SK008", "the axis must be a compile-time int", kw["axis"])
            keep = self.expr(kw["keepdims"]) if "keepdims" in kw else False
            if not isinstance(keep, bool):
                self.err("SK008", "keepdims must be a compile-time bool", kw["keepdims"])
            return self.tile_op(name, [self.tile_arg(a[0])], e, axis=axis, keepdims=keep)
        if name in _INDEXED:
            return self.indexed_call(name, e)
        if name in ("broadcast_to", "reshape"):
            if len(a) != 2:
                self.err("SK006", f"tile.{name}(t, shape) takes two arguments", e)
            return self.tile_op(name, [self.tile_arg(a[0])], e, shape=self.static_shape(a[1], f"tile.{name}"))
        if name == "transpose":
            return self.tile_op("transpose", [self.tile_arg(a[0])], e)
        if name == "matmul":
            if len(a) != 3:
                self.err("SK006", "tile.matmul(a, b, acc) takes three tiles", e)
            kw = self._kw(e, ("input_precision",), 3)
            precision: Any = self.expr(kw["input_precision"]) if "input_precision" in kw else "ieee"
            if not isinstance(precision, str):  # part of the source, so of the cache key
                where = kw["input_precision"]
                self.err("SK008", "input_precision must be a compile-time string: 'ieee' or 'tf32'", where)
            return self.tile_op("matmul", [self.tile_arg(x) for x in a], e, input_precision=precision)
        if name in ("zeros", "full", "ones"):
            n_pos = 3 if name == "full" else 2
            if len(a) != n_pos:
                self.err("SK006", f"tile.{name} takes {n_pos} arguments", e)
            shape = self.static_shape(a[0], f"tile.{name}")
            dt = self.dtype_arg(a[-1])
            value: Any = 0 if name == "zeros" else 1 if name == "ones" else self.expr(a[1])
            if isinstance(value, Value):
                return self.emit("full_dyn", [value], TileType(shape, dt), e)
            if not isinstance(value, int | float):
                self.err("SK008", "the fill value must be a number", a[1])
            return self.emit("full", [], TileType(shape, dt), e, value=value)
        if name in ("iota", "arange"):
            if len(a) != 2:
                self.err("SK006", "tile.iota(n, dtype) takes two arguments", e)
            n = self.static_int(a[0])
            return self.emit("iota", [], TileType((n,), self.dtype_arg(a[1])), e)
        self.err("SK004", f"tile.{name} is not supported by the tile compiler", e)

    def inline(self, helper: TileFunction[Any, Any], e: ast.Call) -> Any:
        """Inline a `@tile.function` call: bind the arguments, walk the helper's body, return its value."""
        fn = inspect.unwrap(helper.fn)
        if helper in self.inlining:
            self.err("SK001", f"tile.function `{fn.__name__}` calls itself; recursion is not supported", e)
        args = [self.expr(x) for x in e.args]
        kwargs = {kw.arg: self.expr(kw.value) for kw in e.keywords if kw.arg is not None}
        if any(kw.arg is None for kw in e.keywords) or any(isinstance(x, ast.Starred) for x in e.args):
            self.err("SK006", "`*args` / `**kwargs` are not supported in tile.function calls", e)
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs)
        except TypeError as exc:
            self.err("SK006", f"tile.function `{fn.__name__}`: {exc}", e)
        bound.apply_defaults()
        saved = (self.src, self.env, self.globals, self.local_names)
        self.src = lambda_source(fn) if fn.__name__ == "<lambda>" else load_source(fn)
        self.local_names = local_names(self.src)
        self.globals = dict(getattr(fn, "__globals__", {}))
        try:
            self.globals.update(inspect.getclosurevars(fn).nonlocals)
        except (TypeError, ValueError):
            pass
        self.env = dict(bound.arguments)
        self.inlining.append(helper)
        call_site = scalar_site(saved[0], e)
        self.helper_calls.add((self.path, call_site))
        self.path = (*self.path, call_site)
        try:
            body = self.src.tree.body
            result: Any = None
            for i, stmt in enumerate(body):
                if isinstance(stmt, ast.Return):
                    if i != len(body) - 1:
                        self.err("SK001", "`return` must be the last statement of a tile.function", stmt)
                    result = self.expr(stmt.value) if stmt.value is not None else None
                else:
                    self.stmt(stmt)
        finally:
            self.inlining.pop()
            self.path = self.path[:-1]
            self.src, self.env, self.globals, self.local_names = saved
        return result

    def indexed_call(self, name: str, e: ast.Call) -> Any:
        """`tile.gather(x, index, mask=None, other=0)`, `tile.scatter(z, index, values, mask=None)`,
        `tile.atomic_add/max/min(acc, index, values, mask=None)`."""
        a = e.args
        gather = name == "gather"
        names = ("index", "mask", "other") if gather else ("index", "values", "mask")
        if not a:
            self.err("SK006", f"tile.{name} needs a tensor argument", e)
        kw = self._kw(e, names, 1)
        if "index" not in kw or (not gather and "values" not in kw):
            self.err("SK006", f"tile.{name}: missing arguments", e)
        target = self.expr(a[0])
        want = TensorRef if gather else PartRef if name == "scatter" else AtomicRef
        if not isinstance(target, want) or (isinstance(target, PartRef) and not target.own):
            kind = {"gather": "a Tensor", "scatter": "a Partition"}.get(name, "an AtomicTensor")
            self.err("SK006", f"tile.{name} takes {kind} parameter as its first argument", a[0])
        p = self.params[target.param]
        raw = self.expr(kw["index"])
        items = raw if isinstance(raw, tuple) else (raw,)
        index: list[Value] = []
        for item in items:
            v = self.scalar_value(item, kw["index"]) if not isinstance(item, float) else None
            if v is None or (not v.is_tile and not _is_int(v.type)):
                self.err("SK023", f"tile.{name}: index entries are integer tiles or ints", kw["index"])
            index.append(v)
        mask = self.tile_arg(kw["mask"]) if "mask" in kw else None
        types_ = [
            v.type if isinstance(v.type, TileType) else TileType((), v.type.dtype or dtype_of("i64"))
            for v in index
        ]
        try:
            if not gather and name != "scatter":
                check_atomic_dtype(name, p.dtype)
            shape = infer_indexed(name, p.rank, p.dtype, types_, mask.type if mask is not None else None)  # type: ignore[arg-type]
        except ShapeError as exc:
            self.err("SK020" if "broadcast" in str(exc) else "SK023", str(exc), e)
        except TypeError as exc:
            self.err("SK023", str(exc), e)
        extra = [mask] if mask is not None else []
        if gather:
            other = self.expr(kw["other"]) if "other" in kw else 0
            if isinstance(other, bool) or not isinstance(other, int | float):
                self.err("SK008", "tile.gather: `other` must be a compile-time number", kw.get("other", e))
            if isinstance(other, float) and not p.dtype.is_float:
                self.err("SK023", f"tile.gather: a float `other` for the {p.dtype} tensor `{p.name}`", e)
            return self.emit(
                "gather", [*index, *extra], TileType(shape, p.dtype), e,
                param=target.param, n_index=len(index), other=other,
            )  # fmt: skip
        value = self.scalar_value(self.expr(kw["values"]), kw["values"])
        if isinstance(value.type, TileType):
            vt = value.type
        else:
            if not p.dtype.is_float and value.type.dtype is not None and value.type.dtype.is_float:
                self.err("SK023", f"tile.{name}: a float value for the {p.dtype} tensor `{p.name}`", e)
            vt = TileType((), p.dtype)
        try:
            shape = infer_stored_values(name, shape, p.dtype, vt)
        except ShapeError as exc:
            self.err("SK020", str(exc), kw["values"])
        except TypeError as exc:
            self.err("SK022", str(exc), kw["values"], f"convert with .astype({p.dtype})")
        kind = "scatter" if name == "scatter" else "atomic"
        attrs: dict[str, Any] = {"param": target.param, "n_index": len(index), "shape": shape}
        if kind == "atomic":
            attrs["op"] = ATOMIC_OPS[name]
        self.emit(kind, [*index, value, *extra], None, e, **attrs)
        return None

    def scalar_extreme(self, name: str, e: ast.Call) -> Any:
        """Python's `min(a, b, ...)`, `max(a, b, ...)` and `abs(a)` on int and float scalars.

        `min`/`max` keep Python's order: the first argument wins unless a later one is strictly smaller (larger),
        so a NaN is the result only when it comes before every number (a NaN compares false) and `min(0.0, -0.0)`
        is `0.0`; the CPU executor runs Python's builtins, the GPU a compare and select per argument.  The result
        has the promoted type of all arguments (the scalar arithmetic rule).  Bools are refused: numpy and Python
        disagree on what `min(True, 5)` is."""
        if e.keywords:
            self.err("SK006", f"{name}() takes no keyword arguments in tile kernels", e.keywords[0].value)
        wanted = "one argument" if name == "abs" else "two or more arguments"
        if (len(e.args) != 1) if name == "abs" else (len(e.args) < 2):
            self.err("SK006", f"{name}() takes {wanted} in tile kernels", e)
        values = [self.expr(a) for a in e.args]
        for v, a in zip(values, e.args, strict=True):
            if isinstance(v, Value) and v.is_tile:
                tile_form = {"min": "tile.minimum(a, b)", "max": "tile.maximum(a, b)", "abs": "tile.maximum(t, -t)"}
                help_ = f"for tiles use {tile_form[name]}"
                self.err("SK023", f"{name}() takes scalars in tile kernels, got a tile", a, help_)
            if isinstance(v, bool) or (isinstance(v, Value) and _is_bool(v.type)):
                self.err("SK023", f"{name}() of a bool is not supported in tile kernels", a, "convert it with int(b)")
            if not isinstance(v, Value | int | float | DScalar):
                self.err("SK023", f"{name}() takes int or float scalars, got {type(v).__name__}", a)
        if all(isinstance(v, int | float) for v in values):  # constant folding, as Python does it
            return abs(values[0]) if name == "abs" else min(values) if name == "min" else max(values)
        if name == "abs":
            v = self.scalar_value(values[0], e)
            return self.emit("scalar", [v], v.type, e, op="abs")
        result = self.scalar_value(values[0], e.args[0])
        for v, a in zip(values[1:], e.args[1:], strict=True):
            other = self.scalar_value(v, a)
            ty = self.scalar_result_type(name, result, other, e)
            result = self.emit("scalar", [result, other], ty, e, op=name)
        return result

    def binop_named(self, name: str, operands: list[Any], e: ast.Call) -> Value:
        if not any(isinstance(o, Value) and o.is_tile for o in operands):
            self.err("SK023", f"tile.{name} needs at least one tile operand", e)
        return self.tile_op(name, [self.scalar_value(o, e) for o in operands], e)

    def dtype_arg(self, e: ast.expr) -> DType:
        v = self.expr(e)
        try:
            return dtype_of(v)
        except (TypeError, KeyError, ValueError):
            self.err("SK008", "expected a dtype (f32, f16, i32, ...)", e)

    def method(self, base: Any, name: str, e: ast.Call) -> Any:
        a = e.args
        runtime = _RUNTIME_CLASS.get(type(base)) if not isinstance(base, Value) else Tile if base.is_tile else None
        target = getattr(runtime, name, None)
        if callable(target) and (why := call_shape_error(target, e, method=True)) is not None:
            self.err("SK006", f"`.{name}(...)`: {why}", e)
        forwarded = isinstance(base, Value) and base.is_tile and (name in _REDUCE or name in _MATH)
        if e.keywords and not forwarded:  # keywords of the forwarded methods are checked by `tile_call`
            self.err("SK006", f"`.{name}(...)` takes no keyword arguments in tile kernels", e.keywords[0].value)
        if isinstance(base, Value) and base.is_tile:
            if name == "astype":
                if len(a) != 1:
                    self.err("SK006", "`.astype(dtype)` takes one dtype", e)
                return self.tile_op("astype", [base], e, dtype=self.dtype_arg(a[0]))
            if name in _REDUCE or name in ("reshape", "broadcast_to", "transpose") or name in _MATH:
                fake = ast.Call(func=e.func, args=[e.func.value, *a], keywords=e.keywords)  # type: ignore[attr-defined]
                ast.copy_location(fake, e)
                return self.tile_call(name, fake)
            self.err("SK004", f"tiles have no method `.{name}` in tile kernels", e)
        if isinstance(base, TensorRef | PartRef) and name == "partition":
            if len(a) != 1:
                self.err("SK006", ".partition(shape) takes one argument", e)
            shape = self.static_shape(a[0], f"{self.params[base.param].name}.partition")
            p = self.params[base.param]
            if len(shape) != p.rank:
                self.err(
                    "SK023",
                    f"{p.name}.partition: tile shape {shape} has rank {len(shape)}, the tensor has "
                    f"rank {p.rank}",
                    e,
                )
            return PartRef(base.param, shape, False)
        if isinstance(base, TensorRef) and name == "load":
            if len(a) != 2:
                self.err("SK006", "x.load(index, shape) takes two arguments", e)
            p = self.params[base.param]
            shape = self.static_shape(a[1], f"{p.name}.load")
            if len(shape) != p.rank:
                self.err(
                    "SK023",
                    f"{p.name}.partition: tile shape {shape} has rank {len(shape)}, the tensor has rank {p.rank}",
                    e,
                )
            return self.load_at(PartRef(base.param, shape, False), a[0], e)
        if isinstance(base, PartRef) and name == "load":
            if not a:
                if not base.own:
                    self.err(
                        "SK006",
                        f"`{self.params[base.param].name}` is a read-only partition of an input; "
                        "pass a tile index, e.g. .load((i, j))",
                        e,
                    )
                idx = [self.emit("bid", [], INDEX, e, axis=i) for i in range(len(base.tile_shape))]
                p = self.params[base.param]
                return self.emit(
                    "load",
                    idx,
                    TileType(base.tile_shape, p.dtype),
                    e,
                    param=base.param,
                    tile_shape=base.tile_shape,
                )
            return self.load_at(base, a[0], e)
        if isinstance(base, PartRef) and name == "num_tiles":
            if len(a) != 1:
                self.err("SK006", ".num_tiles(axis) takes one argument", e)
            axis = self.static_int(a[0])
            if not -len(base.tile_shape) <= axis < len(base.tile_shape):
                rank = len(base.tile_shape)
                self.err("SK023", f".num_tiles: axis {axis} is out of range for a rank-{rank} partition", a[0])
            return self.emit(
                "num_tiles", [], INDEX, e, param=base.param, axis=axis, tile=base.tile_shape[axis]
            )
        if isinstance(base, PartRef) and name == "store":
            p = self.params[base.param]
            if not base.own or p.kind != "partition":
                self.err("SK004", f"`{p.name}` is read-only; only Partition parameters can store", e)
            if len(a) != 1:
                self.err("SK006", ".store(tile) takes one tile", e)
            t = self.tile_arg(a[0])
            assert isinstance(t.type, TileType)
            if t.type.shape != base.tile_shape:
                self.err(
                    "SK022",
                    f"{p.name}.store: tile shape {t.type.shape} does not match the partition's tile "
                    f"shape {base.tile_shape}",
                    a[0],
                )
            if t.type.dtype != p.dtype:
                self.err(
                    "SK022",
                    f"{p.name}.store: tile dtype {t.type.dtype} does not match the partition's dtype "
                    f"{p.dtype}",
                    a[0],
                    f"convert with .astype({p.dtype})",
                )
            self.emit("store", [t], None, e, param=base.param)
            return None
        self.err("SK004", f"unsupported method `.{name}`", e)

    def load_at(self, part: PartRef, index: ast.expr, e: ast.Call) -> Value:
        raw = self.expr(index)
        items = raw if isinstance(raw, tuple) else (raw,)
        p = self.params[part.param]
        if len(items) != len(part.tile_shape):
            self.err(
                "SK006",
                f"{p.name}.load: expected {len(part.tile_shape)} tile index(es), got {len(items)}",
                index,
            )
        idx = [self.index_value(v, index) for v in items]
        return self.emit(
            "load", idx, TileType(part.tile_shape, p.dtype), e, param=part.param, tile_shape=part.tile_shape
        )


def lambda_source(fn: Any) -> FunctionSource:
    """A `tile.function(lambda ...)` helper as a one-statement `def` (`return <body>`), positions as in its file.

    The lambda is found among the file's lambdas on its first line; when several share the line, the one whose
    compiled code matches the function's is taken."""
    import linecache

    code = fn.__code__
    path = code.co_filename
    text = "".join(linecache.getlines(path))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = ast.Module(body=[], type_ignores=[])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno]
    if len(found) > 1:
        same = []
        for lam in found:
            compiled = compile(ast.Expression(lam), path, "eval")
            inner = [c for c in compiled.co_consts if isinstance(c, types.CodeType)]
            if inner and inner[0].co_code == code.co_code:
                same.append(lam)
        found = same or found
    if not found:
        from safekernels.codegen.frontend.codes import sk_error

        raise sk_error("SK010", "cannot read the source of a lambda helper", path, code.co_firstlineno, 1)
    lam = found[0]
    ret = ast.copy_location(ast.Return(value=lam.body), lam.body)
    fdef = ast.FunctionDef(name="<lambda>", args=lam.args, body=[ret], decorator_list=[], returns=None)
    ast.copy_location(fdef, lam)
    return FunctionSource(path, text, fdef, 1, 0)


def _is_int(t: Any) -> bool:
    """An index or an integer (not bool) scalar type."""
    return isinstance(t, ScalarType) and (
        t.dtype is None or (t.dtype.kind in ("i", "u") and t.dtype.name != "bool")
    )


def _is_bool(t: Any) -> bool:
    return isinstance(t, ScalarType) and t.dtype is not None and t.dtype.name == "bool"


def _is_int_or_bool(t: Any) -> bool:
    return _is_int(t) or _is_bool(t)


def _bool_as_index(t: ScalarType) -> ScalarType:
    """In arithmetic a bool is an int: weak, like the index (`True * n` is `n`'s type, `True + 1` an index)."""
    return INDEX if _is_bool(t) else t


def _int_result(a: ScalarType, b: ScalarType) -> ScalarType:
    """numpy 2 rules, as the CPU executor computes: a Python int (the index) is weak, two dtypes promote."""
    if a.dtype is None:
        return b
    if b.dtype is None:
        return a
    import numpy as np

    return ScalarType(dtype_of(np.promote_types(a.dtype.storage, b.dtype.storage).name))


def _fold(opname: str, a: int | float, b: int | float, node: ast.AST, fe: TileFrontend) -> Any:
    try:
        table: dict[str, Any] = {
            "Add": lambda: a + b,
            "Sub": lambda: a - b,
            "Mult": lambda: a * b,
            "Div": lambda: a / b,
            "FloorDiv": lambda: a // b,
            "Mod": lambda: a % b,
            "Lt": lambda: a < b,
            "LtE": lambda: a <= b,
            "Gt": lambda: a > b,
            "GtE": lambda: a >= b,
            "Eq": lambda: a == b,
            "NotEq": lambda: a != b,
            "BitAnd": lambda: a & b,  # type: ignore[operator]
            "BitOr": lambda: a | b,  # type: ignore[operator]
            "BitXor": lambda: a ^ b,  # type: ignore[operator]
            "LShift": lambda: a << b,  # type: ignore[operator]
            "RShift": lambda: a >> b,  # type: ignore[operator]
        }
        return table[opname]()
    except (KeyError, ZeroDivisionError, TypeError, ValueError):
        fe.err("SK001", f"cannot evaluate `{opname}` on constants", node)


def build_tile_ir(
    fn: Any, params: list[ParamInfo], grid_rank: int, *, arch: str = REFERENCE_ARCH, num_warps: int | None = None
) -> TileKernelIR:
    """The typed tile IR of kernel function `fn` specialized for `params` (raises DiagnosticError), checked
    against the rules of target `arch` (the CPU executor: the reference target, `target_rules.REFERENCE_ARCH`)
    with the kernel's `num_warps=` (None: the compiler's choice)."""
    return TileFrontend(fn, params, grid_rank, arch, num_warps).build()
