"""Python AST -> typed kernel IR: name resolution, type inference and every SK diagnostic.

One `FunctionBuilder` walks one function (the kernel, or one monomorphized `@simt.device` helper).  Local
variable types are inferred by iterating the walk to a fixed point: each pass starts from the previous pass's
joined types (so a loop-carried `acc += a[i]` that turns a literal-initialized `acc` into f32 is seen in
the loop
header), and the final pass, whose types no longer change, is the IR that is kept.  Implicit conversions
become explicit `Convert` nodes here, so lowering never decides a type.

    source --ast--> FunctionBuilder --(fixpoint)--> ir.Function ... helpers instantiated per argument types
"""

from __future__ import annotations

import ast
from typing import Any, NoReturn

from safekernels.codegen.frontend.codes import sk_error
from safekernels.codegen.frontend.mangle import entry_symbol
from safekernels.codegen.frontend.resolve import Resolved, Resolver
from safekernels.codegen.frontend.scopes import local_names
from safekernels.codegen.frontend.source import FunctionSource, load_source
from safekernels.codegen.frontend.spec import KernelSpec, annotation_param
from safekernels.codegen.frontend.typing_rules import join, unify
from safekernels.codegen.ir import nodes as ir
from safekernels.codegen.ir.types import (
    BOOL,
    F32,
    F64,
    I32,
    I64,
    NONE,
    WEAK_FLOAT,
    WEAK_INT,
    ElemMutTy,
    IndexTy,
    ScalarTy,
    SharedArrayTy,
    SliceTy,
    Ty,
    WeakTy,
    arith_type,
    is_intlike,
    is_numeric,
)
from safekernels.dtypes import DType, dtype_of
from safekernels.simt.device_print import (
    PrintFormatError,
    PrintText,
    asserts_enabled,
    device_format,
    is_printf_form,
    parse_format,
    python_print_format,
)

_MAX_PASSES = 8

_ARITH_OPS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
_CMP_OPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}

#: math functions: name -> (arity, result) where result is "float" (same float type as the args), "int"
#: (Python returns an int: floor/ceil/trunc) or "bool" (isnan/isinf/isfinite).
MATH_FUNCS: dict[str, tuple[int, str]] = {
    **{
        f: (1, "float")
        for f in (
            "sqrt",
            "exp",
            "exp2",
            "expm1",
            "log",
            "log2",
            "log10",
            "log1p",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "fabs",
            "erf",
            "erfc",
            "gamma",
            "lgamma",
            "cbrt",
        )
    },
    **{f: (2, "float") for f in ("pow", "atan2", "hypot", "copysign", "fmod")},
    **{f: (1, "int") for f in ("floor", "ceil", "trunc")},
    **{f: (1, "bool") for f in ("isnan", "isinf", "isfinite")},
}
_SREG_AXES = ("x", "y", "z")

#: AtomicSlice read-modify-writes: method -> IR op (all return the old value).
ATOMIC_RMW: dict[str, str] = {
    "fetch_add": "add",
    "fetch_max": "max",
    "fetch_min": "min",
    "exchange": "exchange",
    "fetch_and": "and",
    "fetch_or": "or",
    "fetch_xor": "xor",
}
ATOMIC_ORDERS: tuple[str, ...] = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
ATOMIC_SCOPES: tuple[str, ...] = ("block", "device", "system")


class ModuleBuilder:
    """Builds the kernel and, on demand, every helper instantiation it calls."""

    def __init__(self, spec: KernelSpec) -> None:
        self.spec = spec
        self.helpers: dict[str, ir.Function] = {}
        self.helper_order: list[ir.Function] = []
        self.shared: dict[str, ir.SharedDecl] = {}
        self.uses_math = False
        self.building: list[str] = []
        self.abi: list[tuple[str, str, str]] = []
        self.asserts: dict[tuple[str, int, int], tuple[str, int, int, str]] = {}
        self.site_types: dict[tuple[str, int, int], str | None] = {}

    def build(self) -> ir.Module:
        source = load_source(self.spec.py_function)
        params = self._kernel_params(source)
        fb = FunctionBuilder(
            self,
            source,
            Resolver(self.spec.py_function),
            params,
            is_kernel=True,
            name=self.spec.name,
            unchecked=self.spec.unchecked_indexing,
        )
        kernel = fb.run()
        return ir.Module(
            kernel,
            list(self.helper_order),
            list(self.shared.values()),
            self.spec.block,
            self.uses_math,
            list(self.abi),
            list(self.asserts.values()),
            source.path,
            source.first_line,
            dict(self.site_types),
        )

    def note_site_types(self, found: dict[tuple[str, int, int], str]) -> None:
        """Record a function's converted values (`ir.Module.site_types`)."""
        for key, name in found.items():
            seen = self.site_types.setdefault(key, name)
            if seen != name:
                self.site_types[key] = None

    def assert_index(self, path: str, line: int, column: int, message: str) -> int:
        """The kernel-wide number of the assert at path:line:column (stable across fixpoint passes)."""
        key = (path, line, column)
        if key not in self.asserts:
            self.asserts[key] = (path, line, column, message)
        return list(self.asserts).index(key)

    def _kernel_params(self, source: FunctionSource) -> list[tuple[str, Ty]]:
        args = source.tree.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            line, col, width = source.position(args.vararg or args.kwarg or source.tree)
            raise sk_error("SK011", "kernels take plain positional parameters only", source.path, line, col, width)
        out: list[tuple[str, Ty]] = []
        declared = {p.name: p for p in self.spec.params} if self.spec.params is not None else None
        for arg in args.args:
            if declared is not None and arg.arg in declared:
                p = declared[arg.arg]
                kind, dt = p.kind, p.dtype
            else:
                parsed = annotation_param(arg.annotation)
                if parsed is None:
                    line, col, width = source.position(arg)
                    raise sk_error(
                        "SK011",
                        f"parameter `{arg.arg}` needs a Slice[T], DisjointSlice[T], "
                        "AtomicSlice[T] or scalar dtype annotation",
                        source.path,
                        line,
                        col,
                        width,
                    )
                kind, dt = parsed
            if dt.name in ("f8e4m3", "f8e5m2"):  # 8-bit floats are storage for tile-kernel matmuls only
                line, col, width = source.position(arg)
                raise sk_error(
                    "SK011",
                    f"parameter `{arg.arg}`: {dt.name} is a storage type of tile kernels (tensor-core matmuls); "
                    "SIMT kernels do not take it (pass the bits as u8)",
                    source.path,
                    line,
                    col,
                    width,
                )
            self.abi.append((arg.arg, kind, dt.name))
            if kind == "scalar":
                out.append((arg.arg, arith_type(dt)))
            else:
                out.append((arg.arg, SliceTy(kind, dt)))
        return out

    def instantiate_helper(self, fn: Any, arg_types: list[Ty], caller: FunctionSource, node: ast.AST) -> ir.Function:
        source = load_source(fn)
        key = f"{fn.__module__}.{fn.__qualname__}".replace("<", "_").replace(">", "_")
        mangled = entry_symbol("__sk_" + "_".join([key.replace(".", "_"), *(_mangle(t) for t in arg_types)]))
        if mangled in self.helpers:
            return self.helpers[mangled]
        if key in self.building:
            line, col, width = caller.position(node)
            raise sk_error(
                "SK009",
                f"recursive call of helper `{fn.__name__}` (recursion is not supported on the GPU)",
                caller.path,
                line,
                col,
                width,
            )
        args = source.tree.args
        if args.vararg or args.kwarg or args.kwonlyargs or len(args.args) != len(arg_types) or args.defaults:
            line, col, width = caller.position(node)
            raise sk_error(
                "SK006",
                f"helper `{fn.__name__}` takes {len(args.args)} positional arguments, {len(arg_types)} given",
                caller.path,
                line,
                col,
                width,
            )
        params: list[tuple[str, Ty]] = []
        for arg, ty in zip(args.args, arg_types, strict=True):
            parsed = annotation_param(arg.annotation)
            if parsed is not None and parsed[0] == "scalar" and is_numeric(ty):
                declared = arith_type(parsed[1])
                params.append((arg.arg, declared))
                if declared != ty and isinstance(declared, ScalarTy):  # the argument converts to the annotation
                    line, col, _ = source.position(arg)
                    self.note_site_types({(source.path, line, col): declared.dtype.name})
            else:
                params.append((arg.arg, ty))
        self.building.append(key)
        try:
            fb = FunctionBuilder(
                self,
                source,
                Resolver(fn),
                params,
                is_kernel=False,
                name=mangled,
                unchecked=self.spec.unchecked_indexing,
            )
            func = fb.run()
        finally:
            self.building.pop()
        self.helpers[mangled] = func
        self.helper_order.append(func)
        return func


def _mangle(ty: Ty) -> str:
    return ty.describe().replace("[", "_").replace("]", "").replace(", ", "_").replace(" ", "_")


class FunctionBuilder:
    """Types and translates one function body."""

    def __init__(
        self,
        module: ModuleBuilder,
        source: FunctionSource,
        resolver: Resolver,
        params: list[tuple[str, Ty]],
        *,
        is_kernel: bool,
        name: str,
        unchecked: bool,
    ) -> None:
        self.module = module
        self.src = source
        self.resolver = resolver
        self.params = params
        self.param_names = {p for p, _ in params}
        self.is_kernel = is_kernel
        self.fname = name
        self.unchecked = unchecked
        self.env: dict[str, Ty] = {}
        self.ret: Ty | None = None
        self.unsafe_depth = 0
        self.loop_depth = 0
        self.site_types: dict[tuple[str, int, int], str] = {}

    # -- driver ---------------------------------------------------------------------------------------------
    def run(self) -> ir.Function:
        prev_env: dict[str, Ty] = {}
        prev_ret: Ty | None = None
        body: list[ir.Stmt] = []
        for _ in range(_MAX_PASSES):
            self.env = dict(prev_env)
            self.env.update(dict(self.params))
            self.ret = prev_ret
            self.site_types = {}
            body = self.block(self.src.tree.body)
            if self.env == {**prev_env, **dict(self.params)} and self.ret == prev_ret:
                break
            prev_env, prev_ret = dict(self.env), self.ret
        else:
            self.fail(self.src.tree, "SK007", "local variable types did not settle (a type keeps widening)")
        self.module.note_site_types(self.site_types)
        locals_ = {k: v for k, v in self.env.items() if k not in self.param_names}
        ret = self.ret if not self.is_kernel else None
        def_line = self.src.position(self.src.tree)[0]
        return ir.Function(self.fname, self.params, locals_, body, ret, self.is_kernel, self.src.path, def_line)

    # -- diagnostics ----------------------------------------------------------------------------------------
    def fail(self, node: ast.AST, code: str, message: str, help: str | None = None) -> NoReturn:
        line, col, width = self.src.position(node)
        raise sk_error(code, message, self.src.path, line, col, width, help)

    def loc(self, node: ast.AST) -> ir.Loc:
        line, col, _ = self.src.position(node)
        return (line, col)

    # -- statements -----------------------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> list[ir.Stmt]:
        out: list[ir.Stmt] = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s: ast.stmt) -> list[ir.Stmt]:
        loc = self.loc(s)
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                return []  # docstring
            value = self.expr(s.value)
            if isinstance(value, _StmtExpr):
                return [value.stmt]
            return [ir.ExprStmt(loc, value)]
        if isinstance(s, ast.Pass):
            return []
        if isinstance(s, ast.Assign):
            return self.assign(s)
        if isinstance(s, ast.AnnAssign):
            return self.ann_assign(s)
        if isinstance(s, ast.AugAssign):
            return self.aug_assign(s)
        if isinstance(s, ast.If):
            cond = self.condition(s.test)
            return [ir.If(loc, cond, self.block(s.body), self.block(s.orelse))]
        if isinstance(s, ast.While):
            if s.orelse:
                self.fail(s, "SK001", "`while ... else` is not supported in kernels")
            cond = self.condition(s.test)
            self.loop_depth += 1
            body = self.block(s.body)
            self.loop_depth -= 1
            return [ir.While(loc, cond, body)]
        if isinstance(s, ast.For):
            return [self.for_range(s)]
        if isinstance(s, ast.Break | ast.Continue):
            if self.loop_depth == 0:
                self.fail(s, "SK001", "`break`/`continue` outside a loop")
            return [ir.Break(loc) if isinstance(s, ast.Break) else ir.Continue(loc)]
        if isinstance(s, ast.Return):
            return [self.return_stmt(s)]
        if isinstance(s, ast.With):
            return self.with_stmt(s)
        if isinstance(s, ast.Assert):
            return self.assert_stmt(s)
        what = type(s).__name__
        self.fail(
            s,
            "SK001",
            f"`{what}` statements are not supported in kernels",
            help="kernels support assignments, if/elif/else, while, for-range, break/continue, return, "
            "with simt.unsafe() and calls",
        )

    def bind(self, name: str, value: ir.Expr, node: ast.AST) -> ir.Expr:
        """Record an assignment of `value` to local `name` and return the value converted to its final
        type."""
        if name in self.param_names and isinstance(self.env.get(name), SliceTy):
            self.fail(node, "SK003", f"cannot assign to buffer parameter `{name}`")
        if isinstance(value.ty, NONE.__class__):
            self.fail(node, "SK003", f"cannot assign a value of type None to `{name}`")
        joined = join(self.env.get(name), value.ty)
        if isinstance(joined, str):
            self.fail(
                node,
                "SK007",
                f"variable `{name}` changes type: {joined}",
                help="use a separate variable, or an explicit cast such as `f32(...)`",
            )
        self.env[name] = joined
        if joined != value.ty:
            self.note_site(node, joined)
        return self.convert(value, joined, node)

    def note_site(self, node: ast.AST, ty: Ty) -> None:
        """Record that the value at `node` (a conditional expression, an assignment's target, a returned value) is
        converted to `ty` where Python would keep its own type (`ir.Module.site_types`, for the CPU executor)."""
        if isinstance(ty, ScalarTy):
            line, col, _ = self.src.position(node)
            self.site_types[(self.src.path, line, col)] = ty.dtype.name

    def assign(self, s: ast.Assign) -> list[ir.Stmt]:
        if len(s.targets) != 1:
            self.fail(s, "SK001", "chained assignment `a = b = ...` is not supported in kernels")
        target = s.targets[0]
        if isinstance(target, ast.Name):
            value = self.expr(s.value)
            return [ir.Assign(self.loc(s), target.id, self.bind(target.id, value, target))]
        if isinstance(target, ast.Tuple):
            if not isinstance(s.value, ast.Tuple) or len(s.value.elts) != len(target.elts):
                self.fail(s, "SK001", "tuple assignment needs a tuple of the same length on the right")
            temps: list[ir.Stmt] = []
            finals: list[ir.Stmt] = []
            for i, (t, v) in enumerate(zip(target.elts, s.value.elts, strict=True)):
                if not isinstance(t, ast.Name):
                    self.fail(t, "SK001", "only names can be tuple-assignment targets")
                tmp = f"__tuple{s.lineno}_{s.col_offset}_{i}"
                val = self.expr(v)
                self.env[tmp] = val.ty
                temps.append(ir.Assign(self.loc(s), tmp, val))
                finals.append(ir.Assign(self.loc(s), t.id, self.bind(t.id, ir.Var(val.ty, tmp), t)))
            return temps + finals
        if isinstance(target, ast.Subscript):
            return [self.store(target, self.expr(s.value), s)]
        if isinstance(target, ast.Attribute):
            self.fail(
                target,
                "SK001",
                "attribute assignment is not supported in kernels",
                help="write an output element with `out.set(value)`",
            )
        self.fail(target, "SK001", "unsupported assignment target")

    def ann_assign(self, s: ast.AnnAssign) -> list[ir.Stmt]:
        if not isinstance(s.target, ast.Name) or s.value is None:
            self.fail(s, "SK001", "annotated assignment needs a name and a value")
        parsed = annotation_param(s.annotation)
        value = self.expr(s.value)
        if parsed is not None and parsed[0] == "scalar":
            value = self.convert(value, arith_type(parsed[1]), s.value, explicit=True)
        return [ir.Assign(self.loc(s), s.target.id, self.bind(s.target.id, value, s.target))]

    def aug_assign(self, s: ast.AugAssign) -> list[ir.Stmt]:
        op = _ARITH_OPS.get(type(s.op))
        if op is None:
            self.fail(s, "SK001", "unsupported augmented assignment operator")
        if isinstance(s.target, ast.Name):
            name = s.target.id
            if name not in self.env:
                self.fail(s.target, "SK002", f"local variable `{name}` is used before it is assigned")
            current = ir.Var(self.env[name], name)
            result = self.binop(op, current, self.expr(s.value), s)
            if isinstance(current.ty, ScalarTy) and isinstance(result.ty, ScalarTy) and result.ty != current.ty:
                # typed accumulators keep their type under `+=` (docs/reference.md §6)
                result = self.convert(result, current.ty, s, explicit=True)
                self.note_site(s.target, current.ty)
            return [ir.Assign(self.loc(s), name, self.bind(name, result, s.target))]
        if isinstance(s.target, ast.Subscript):
            current_val = self.subscript_load(s.target)
            result = self.binop(op, current_val, self.expr(s.value), s)
            return [self.store(s.target, result, s)]
        self.fail(s.target, "SK001", "unsupported augmented assignment target")

    def store(self, target: ast.Subscript, value: ir.Expr, node: ast.AST) -> ir.Stmt:
        array = self.expr(target.value)
        if isinstance(array.ty, SharedArrayTy):
            self.require_unsafe(target, "shared array element access")
            index = self.index_expr(target.slice)
            val = self.convert(value, arith_type(dtype_of(array.ty.elem)), node)
            return ir.Store(self.loc(node), array, index, val, checked=not self.unchecked)
        if isinstance(array.ty, SliceTy):
            helps = {
                "slice": "`Slice` parameters are read-only",
                "disjoint": "write through the witness: `if (out := c.get_mut(idx)) is not None: out.set(v)`",
                "atomic": "use `fetch_add`/`fetch_max`/`fetch_min`",
            }
            self.fail(
                target,
                "SK003",
                f"cannot assign to an element of `{array.ty.describe()}`",
                help=helps[array.ty.mode],
            )
        self.fail(target, "SK003", f"`{array.ty.describe()}` does not support item assignment")

    def for_range(self, s: ast.For) -> ir.Stmt:
        if s.orelse:
            self.fail(s, "SK001", "`for ... else` is not supported in kernels")
        if not isinstance(s.target, ast.Name):
            self.fail(s.target, "SK001", "the loop variable must be a plain name")
        it = s.iter
        if not (isinstance(it, ast.Call) and self.callee_kind(it.func) == Resolved("builtin", "range")):
            self.fail(it, "SK001", "kernels loop only over `range(...)`")
        if it.keywords or not 1 <= len(it.args) <= 3:
            self.fail(it, "SK006", "range() takes 1 to 3 positional arguments")
        parts = [self.expr(a) for a in it.args]
        for a, p in zip(it.args, parts, strict=True):
            if not is_intlike(p.ty):
                self.fail(a, "SK003", f"range() arguments must be integers, not `{p.ty.describe()}`")
        if len(parts) == 1:
            parts = [ir.Const(WEAK_INT, 0), parts[0], ir.Const(WEAK_INT, 1)]
        elif len(parts) == 2:
            parts.append(ir.Const(WEAK_INT, 1))
        if isinstance(parts[2], ir.Const) and parts[2].value == 0:
            self.fail(it.args[2], "SK003", "range() step must not be zero")
        common: Ty = parts[0].ty
        for p in parts[1:]:
            u = unify(common, p.ty)
            if isinstance(u, str):
                self.fail(it, "SK003", u)
            common = u
        if isinstance(common, WeakTy):
            common = I64
        start, stop, step = (self.convert(p, common, it) for p in parts)
        var = s.target.id
        joined = join(self.env.get(var), common)
        if isinstance(joined, str):
            self.fail(s.target, "SK007", f"variable `{var}` changes type: {joined}")
        self.env[var] = joined
        self.loop_depth += 1
        body = self.block(s.body)
        self.loop_depth -= 1
        if joined != common:
            self.fail(
                s.target,
                "SK007",
                f"loop variable `{var}` has type {joined.describe()} elsewhere, but range() yields {common.describe()}",
            )
        return ir.ForRange(self.loc(s), var, start, stop, step, body)

    def return_stmt(self, s: ast.Return) -> ir.Stmt:
        if s.value is None:
            if not self.is_kernel and self.ret is not None and self.ret != NONE:
                self.fail(s, "SK009", "bare `return` in a helper that returns a value elsewhere")
            return ir.Return(self.loc(s), None)
        if self.is_kernel:
            self.fail(s, "SK009", "kernels cannot return a value", help="write results through a DisjointSlice")
        value = self.expr(s.value)
        if isinstance(value.ty, NONE.__class__):
            return ir.Return(self.loc(s), None)
        joined = join(self.ret, value.ty)
        if isinstance(joined, str):
            self.fail(s, "SK007", f"helper returns values of different types: {joined}")
        self.ret = joined
        if joined != value.ty:
            self.note_site(s.value, joined)
        return ir.Return(self.loc(s), self.convert(value, joined, s))

    def with_stmt(self, s: ast.With) -> list[ir.Stmt]:
        if len(s.items) != 1 or s.items[0].optional_vars is not None:
            self.fail(s, "SK001", "the only `with` in kernels is `with simt.unsafe():`")
        ctx = s.items[0].context_expr
        if not (isinstance(ctx, ast.Call) and self.callee_kind(ctx.func) == Resolved("surface", "unsafe")):
            self.fail(ctx, "SK001", "the only `with` in kernels is `with simt.unsafe():`")
        self.unsafe_depth += 1
        body = self.block(s.body)
        self.unsafe_depth -= 1
        return body

    def assert_stmt(self, s: ast.Assert) -> list[ir.Stmt]:
        message = ""
        if s.msg is not None:
            if not (isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str)):
                self.fail(s.msg, "SK008", "an assert message in a kernel must be a string literal")
            message = s.msg.value
        cond = self.condition(s.test)  # type-checked even when asserts compile out
        if not asserts_enabled():
            return []
        line, col, _ = self.src.position(s)
        index = self.module.assert_index(self.src.path, line, col, message)
        return [ir.Assert(self.loc(s), cond, index, message)]

    def print_call(self, args: list[ast.expr], node: ast.Call) -> ir.Expr:
        """`print` in either form (`safekernels.simt.device_print`): printf when the first argument is a string
        literal with `%`, else Python's, rewritten into the printf format of its values' types."""
        if not (args and isinstance(args[0], ast.Constant) and is_printf_form(args[0].value)):
            return self.python_print(args, node)
        fmt = str(args[0].value)
        try:
            _, conversions = parse_format(fmt)
            c_format = device_format(fmt)
        except PrintFormatError as exc:
            help = "a first string with `%` is a printf format: write `%%` for a percent sign"
            self.fail(args[0], "SK008", str(exc), help=help)
        values = args[1:]
        if len(conversions) != len(values):
            self.fail(
                node,
                "SK006",
                f"print format has {len(conversions)} conversion(s) but {len(values)} value(s) were given",
            )
        widened: list[ir.Expr] = []
        for conv, arg in zip(conversions, values, strict=True):
            value = self.expr(arg)
            ty = value.ty
            if conv.kind == "int":
                if not (is_intlike(ty) or ty == BOOL):
                    self.fail(arg, "SK003", f"`{conv.text}` needs an integer, not `{ty.describe()}`")
                signed = not (isinstance(ty, ScalarTy) and (ty.dtype.kind in ("u", "b")))
                target: Ty = I64 if signed else ScalarTy(dtype_of("u64"))
                widened.append(self.convert(value, target, arg, explicit=True))
            else:
                if not is_numeric(ty):
                    self.fail(arg, "SK003", f"`{conv.text}` needs a number, not `{ty.describe()}`")
                widened.append(self.convert(value, F64, arg, explicit=True))
        return _StmtExpr(NONE, ir.Print(self.loc(node), c_format, widened))

    def python_print(self, args: list[ast.expr], node: ast.Call) -> ir.Expr:
        """`print("first element", x[i])`: string literals as text, each value by its type, space-separated."""
        parts: list[PrintText | str] = []
        widened: list[ir.Expr] = []
        for arg in args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                parts.append(PrintText(arg.value))
                continue
            value = self.expr(arg)
            ty = value.ty
            if ty == BOOL:
                hint = 'print("flag %d", flag) prints 1 or 0'
                self.fail(arg, "SK003", "print in a kernel cannot show a bool", help=hint)
            if is_intlike(ty):
                unsigned = isinstance(ty, ScalarTy) and ty.dtype.kind == "u"
                parts.append("uint" if unsigned else "int")
                target: Ty = ScalarTy(dtype_of("u64")) if unsigned else I64
                widened.append(self.convert(value, target, arg, explicit=True))
            elif is_numeric(ty):
                parts.append("float")
                widened.append(self.convert(value, F64, arg, explicit=True))
            else:
                self.fail(arg, "SK003", f"print in a kernel takes string literals and numbers, not `{ty.describe()}`")
        c_format = device_format(python_print_format(parts))
        return _StmtExpr(NONE, ir.Print(self.loc(node), c_format, widened))

    def require_unsafe(self, node: ast.AST, what: str) -> None:
        if self.unsafe_depth == 0:
            self.fail(
                node,
                "SK005",
                f"use of unsafe operation `{what}` requires an unsafe block",
                help="wrap it in `with simt.unsafe():` (helpers do not inherit their caller's block)",
            )

    # -- expressions ----------------------------------------------------------------------------------------
    def condition(self, node: ast.expr) -> ir.Expr:
        return self.truth(self.expr(node), node)

    def truth(self, value: ir.Expr, node: ast.AST) -> ir.Expr:
        ty = value.ty
        if ty == BOOL:
            return value
        if isinstance(ty, IndexTy | ElemMutTy) and ty.optional:
            return ir.Intrinsic(BOOL, "is_some", [value])
        if is_numeric(ty):
            zero = self.convert(ir.Const(WEAK_INT, 0), ty, node) if not isinstance(ty, WeakTy) else ir.Const(ty, 0)
            return ir.Compare(BOOL, "!=", value, zero)
        self.fail(node, "SK003", f"`{ty.describe()}` has no truth value in kernels")

    def expr(self, node: ast.expr) -> ir.Expr:
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                return ir.Const(BOOL, v)
            if isinstance(v, int):
                return ir.Const(WEAK_INT, v)
            if isinstance(v, float):
                return ir.Const(WEAK_FLOAT, v)
            if v is None:
                return ir.Const(NONE, 0)
            self.fail(node, "SK001", f"`{type(v).__name__}` constants are not supported in kernels")
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.BinOp):
            op = _ARITH_OPS.get(type(node.op))
            if op is None:
                self.fail(node, "SK001", "unsupported operator (`@` is not defined on scalars)")
            return self.binop(op, self.expr(node.left), self.expr(node.right), node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.BoolOp):
            op = "and" if isinstance(node.op, ast.And) else "or"
            return ir.BoolOp(BOOL, op, [self.condition(v) for v in node.values])
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            cond = self.condition(node.test)
            a, b = self.expr(node.body), self.expr(node.orelse)
            common = unify(a.ty, b.ty) if a.ty != b.ty else a.ty
            if isinstance(common, str):
                self.fail(node, "SK003", f"the two arms of the conditional expression differ: {common}")
            if a.ty != b.ty:
                self.note_site(node, common)
            return ir.Select(common, cond, self.convert(a, common, node), self.convert(b, common, node))
        if isinstance(node, ast.NamedExpr):
            value = self.expr(node.value)
            name = node.target.id
            bound = self.bind(name, value, node)
            return ir.Walrus(bound.ty, name, bound)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript):
            return self.subscript_load(node)
        if isinstance(node, ast.Attribute):
            res = self.resolve(node)
            if res is not None and res.kind == "const":
                return self.const_value(res, node)
            self.fail(node, "SK004", f"unsupported attribute `{ast.unparse(node)}` in a kernel")
        what = type(node).__name__
        self.fail(node, "SK001", f"`{what}` expressions are not supported in kernels")

    def const_value(self, res: Resolved, node: ast.AST) -> ir.Expr:
        v = res.value
        if isinstance(v, bool):
            return ir.Const(BOOL, v)
        if isinstance(v, int):
            return ir.Const(WEAK_INT, v)
        return ir.Const(WEAK_FLOAT, float(v))

    def name(self, node: ast.Name) -> ir.Expr:
        if node.id in self.env:
            return ir.Var(self.env[node.id], node.id)
        if node.id in local_names(self.src):  # Python reads no global for it: UnboundLocalError on the CPU
            self.fail(
                node,
                "SK002",
                f"`{node.id}` is read before it is assigned: a name assigned anywhere in a kernel is local to all "
                "of it, as in Python (which raises UnboundLocalError here)",
            )
        res = self.resolver.lookup(node.id)
        if res is not None and res.kind == "const":
            return self.const_value(res, node)
        if res is None:
            self.fail(
                node,
                "SK002",
                f"cannot find `{node.id}` (a local used before assignment, or an unknown global)",
            )
        self.fail(
            node,
            "SK004",
            f"`{node.id}` cannot be used as a value in a kernel (only called, or a module-level int/float constant)",
        )

    def resolve(self, node: ast.expr) -> Resolved | None:
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return None
            return self.resolver.lookup(node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None:
                return None
            return self.resolver.attribute(base, node.attr)
        return None

    def callee_kind(self, func: ast.expr) -> Resolved | None:
        res = self.resolve(func)
        if res is None:
            return None
        return Resolved(res.kind, res.name)

    def binop(self, op: str, left: ir.Expr, right: ir.Expr, node: ast.AST) -> ir.Expr:
        if op in ("&", "|", "^") and left.ty == BOOL and right.ty == BOOL:
            return ir.BinOp(BOOL, op, left, right)
        common = unify(left.ty, right.ty)
        if isinstance(common, str):
            self.fail(node, "SK003", f"unsupported operand types for `{op}`: {common}")
        if op in ("&", "|", "^", "<<", ">>") and not is_intlike(common):
            self.fail(node, "SK003", f"`{op}` needs integer operands, not `{common.describe()}`")
        lhs, rhs = self.convert(left, common, node), self.convert(right, common, node)
        if op == "/" and is_intlike(common):
            target: Ty = WEAK_FLOAT if isinstance(common, WeakTy) else F64
            return ir.BinOp(
                target,
                "/",
                self.convert(lhs, target, node, explicit=True),
                self.convert(rhs, target, node, explicit=True),
            )
        if op == "**":
            if is_intlike(common):
                if not (isinstance(right, ir.Const) and isinstance(right.value, int) and 0 <= right.value <= 64):
                    self.fail(node, "SK003", "integer `**` needs a literal exponent in 0..64")
                return ir.BinOp(common, "**", lhs, rhs)
            self.module.uses_math = True
        if op == "%" and not is_intlike(common):
            self.module.uses_math = True  # a float `%` is libdevice's exact `fmod` (LLVM's `frem` is not exact)
        return ir.BinOp(common, op, lhs, rhs)

    def unary(self, node: ast.UnaryOp) -> ir.Expr:
        if isinstance(node.op, ast.Not):
            return ir.UnaryOp(BOOL, "not", self.condition(node.operand))
        value = self.expr(node.operand)
        if isinstance(node.op, ast.UAdd):
            return value
        if isinstance(node.op, ast.USub):
            if isinstance(value, ir.Const) and isinstance(value.ty, WeakTy):
                return ir.Const(value.ty, -value.value)
            if not is_numeric(value.ty):
                self.fail(node, "SK003", f"bad operand type for unary `-`: `{value.ty.describe()}`")
            return ir.UnaryOp(value.ty, "-", value)
        if not is_intlike(value.ty):
            self.fail(node, "SK003", f"`~` needs an integer, not `{value.ty.describe()}`")
        return ir.UnaryOp(value.ty, "~", value)

    def compare(self, node: ast.Compare) -> ir.Expr:
        parts: list[ir.Expr] = []
        left_node = node.left
        left = self.expr(left_node)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, ast.Is | ast.IsNot):
                if not (isinstance(right_node, ast.Constant) and right_node.value is None):
                    self.fail(node, "SK003", "`is` is only supported as `x is None` / `x is not None`")
                ty = left.ty
                if not (isinstance(ty, IndexTy | ElemMutTy) and ty.optional):
                    self.fail(node, "SK003", f"`{ty.describe()}` is never None")
                some = ir.Intrinsic(BOOL, "is_some", [left])
                parts.append(some if isinstance(op, ast.IsNot) else ir.UnaryOp(BOOL, "not", some))
                continue
            cmp = _CMP_OPS.get(type(op))
            if cmp is None:
                self.fail(node, "SK001", "`in` / `not in` are not supported in kernels")
            right = self.expr(right_node)
            following = right
            if right_node is not node.comparators[-1] and not isinstance(right, ir.Var | ir.Param | ir.Const):
                # a chain's middle operand is evaluated once (as in Python), then read by the next pair
                line, col, _ = self.src.position(right_node)
                name = f"__sk_chain_{line}_{col}__"
                right = ir.Walrus(right.ty, name, self.bind(name, right, right_node))
                following = ir.Var(right.ty, name)
            if left.ty == BOOL and right.ty == BOOL and cmp in ("==", "!="):
                parts.append(ir.Compare(BOOL, cmp, left, right))
            else:
                common = unify(left.ty, right.ty)
                if isinstance(common, str):
                    self.fail(node, "SK003", f"cannot compare: {common}")
                parts.append(ir.Compare(BOOL, cmp, self.convert(left, common, node), self.convert(right, common, node)))
            left = following
        return parts[0] if len(parts) == 1 else ir.BoolOp(BOOL, "and", parts)

    def index_expr(self, node: ast.expr) -> ir.Expr:
        value = self.expr(node)
        if not is_intlike(value.ty):
            self.fail(node, "SK003", f"indices must be integers, not `{value.ty.describe()}`")
        return self.convert(value, I64, node)

    def subscript_load(self, node: ast.Subscript) -> ir.Expr:
        if isinstance(node.slice, ast.Slice):
            self.fail(node, "SK001", "slicing is not supported inside kernels (pass a view from the host)")
        array = self.expr(node.value)
        ty = array.ty
        if isinstance(ty, SharedArrayTy):
            self.require_unsafe(node, "shared array element access")
            return ir.Load(
                arith_type(dtype_of(ty.elem)), array, self.index_expr(node.slice), checked=not self.unchecked
            )
        if isinstance(ty, SliceTy):
            if ty.mode == "disjoint":
                self.fail(
                    node,
                    "SK003",
                    "a DisjointSlice is not readable by index",
                    help="read your own element with `c.get_mut(idx)` then `.get()`",
                )
            return ir.Load(arith_type(ty.elem), array, self.index_expr(node.slice), checked=not self.unchecked)
        self.fail(node, "SK003", f"`{ty.describe()}` is not subscriptable")

    # -- conversions ----------------------------------------------------------------------------------------
    def convert(self, value: ir.Expr, ty: Ty, node: ast.AST, *, explicit: bool = False) -> ir.Expr:
        if value.ty == ty:
            return value
        src = value.ty
        if isinstance(ty, WeakTy):
            if isinstance(src, WeakTy) and (src.kind == ty.kind or ty.kind == "float"):
                return ir.Convert(ty, value) if src.kind != ty.kind else value
            self.fail(node, "SK003", f"cannot use `{src.describe()}` where a {ty.describe()} is expected")
        if isinstance(ty, ScalarTy) and (is_numeric(src) or src == BOOL):
            if not explicit:
                if src == BOOL or ty == BOOL:
                    self.fail(
                        node,
                        "SK003",
                        f"expected `{ty.describe()}`, found `{src.describe()}`",
                        help="cast explicitly",
                    )
                if isinstance(src, WeakTy) and src.kind == "float" and ty.is_int:
                    self.fail(
                        node,
                        "SK003",
                        f"expected `{ty.describe()}`, found a float",
                        help=f"cast explicitly with {ty.describe()}(...)",
                    )
                if isinstance(src, ScalarTy) and src.is_float and ty.is_int:
                    self.fail(
                        node,
                        "SK003",
                        f"expected `{ty.describe()}`, found `{src.describe()}`",
                        help=f"cast explicitly with {ty.describe()}(...)",
                    )
            if isinstance(value, ir.Const) and isinstance(src, WeakTy):
                if ty.is_float:
                    return ir.Const(ty, float(value.value))
                if ty.is_bool:
                    return ir.Const(ty, bool(value.value))
                if ty.is_int and isinstance(value.value, int):
                    return ir.Const(ty, _wrap(value.value, ty.dtype))
            return ir.Convert(ty, value)
        self.fail(node, "SK003", f"expected `{ty.describe()}`, found `{src.describe()}`")

    # -- calls ----------------------------------------------------------------------------------------------
    def call(self, node: ast.Call) -> ir.Expr:
        atomic_keywords = isinstance(node.func, ast.Attribute) and node.func.attr in (
            *ATOMIC_RMW,
            "compare_exchange",
        )
        for kw in node.keywords:
            if not (atomic_keywords and kw.arg in ("order", "scope")):
                self.fail(kw.value, "SK006", "keyword arguments are not supported in kernel calls")
        if any(isinstance(a, ast.Starred) for a in node.args):
            self.fail(node, "SK006", "`*args` is not supported in kernel calls")
        func = node.func
        if isinstance(func, ast.Attribute) and self.resolve(func) is None:
            root = func.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id not in self.env and self.resolver.lookup(root.id) is None:
                self.fail(root, "SK002", f"cannot find `{root.id}`")
            if not (isinstance(func.value, ast.Name) and func.value.id not in self.env):
                return self.method_call(self.expr(func.value), func.attr, node)
        res = self.resolve(func)
        if res is None:
            if isinstance(func, ast.Name):
                self.fail(func, "SK002", f"cannot find `{func.id}`")
            self.fail(func, "SK004", f"unsupported call `{ast.unparse(func)}` in a kernel")
        args = node.args
        if res.kind == "surface":
            return self.surface_call(res.name, args, node)
        if res.kind == "math":
            return self.math_call(res.name, args, node)
        if res.kind == "cast":
            return self.cast_call(res.value, args, node)
        if res.kind == "builtin":
            return self.builtin_call(res.name, args, node)
        if res.kind == "helper":
            return self.helper_call(res.value, args, node)
        if res.kind == "other" and res.value is print:
            return self.print_call(args, node)
        if res.kind == "kernel":
            self.fail(
                func,
                "SK009",
                "a kernel cannot call another kernel",
                help="decorate shared code with @simt.device",
            )
        self.fail(
            func,
            "SK004",
            f"`{ast.unparse(func)}` cannot be called from a kernel",
            help="kernels call thread.*, warp.*, math.*, dtype casts, min/max/abs/len and @simt.device helpers",
        )

    def nargs(self, args: list[ast.expr], n: int, what: str, node: ast.AST) -> None:
        if len(args) != n:
            self.fail(node, "SK006", f"`{what}` takes {n} argument{'s' if n != 1 else ''}, {len(args)} given")

    def method_call(self, recv: ir.Expr, method: str, node: ast.Call) -> ir.Expr:
        ty = recv.ty
        args = node.args
        if isinstance(ty, IndexTy) and method == "get":
            self.nargs(args, 0, "ThreadIndex.get", node)
            return ir.Intrinsic(I64, "index_value", [recv])
        if isinstance(ty, SliceTy) and ty.mode == "disjoint" and method in ("get_mut", "get_unchecked_mut"):
            self.nargs(args, 1, method, node)
            if method == "get_mut":
                idx = self.expr(args[0])
                if not isinstance(idx.ty, IndexTy):
                    self.fail(
                        args[0],
                        "SK003",
                        f"`get_mut` takes a ThreadIndex witness, not `{idx.ty.describe()}`",
                        help="get one from `thread.index_1d()`; a computed index needs "
                        "`get_unchecked_mut` inside `with simt.unsafe():`",
                    )
                return ir.GetMut(ElemMutTy(ty.elem, True), recv, idx, checked=True)
            self.require_unsafe(node, "get_unchecked_mut")
            return ir.GetMut(ElemMutTy(ty.elem, False), recv, self.index_expr(args[0]), checked=False)
        if isinstance(ty, ElemMutTy) and method in ("set", "get"):
            if method == "set":
                self.nargs(args, 1, "ElemMut.set", node)
                value = self.convert(self.expr(args[0]), arith_type(ty.elem), args[0])
                return _StmtExpr(NONE, ir.ElemSet(self.loc(node), recv, value))
            self.nargs(args, 0, "ElemMut.get", node)
            return ir.ElemGet(arith_type(ty.elem), recv)
        if isinstance(ty, SliceTy) and ty.mode == "atomic" and (method in ATOMIC_RMW or method == "compare_exchange"):
            return self.atomic_call(recv, ty, method, node)
        self.fail(node.func, "SK004", f"`{ty.describe()}` has no method `{method}` in kernels")

    def atomic_call(self, recv: ir.Expr, ty: SliceTy, method: str, node: ast.Call) -> ir.Expr:
        args = node.args
        self.nargs(args, 3 if method == "compare_exchange" else 2, f"AtomicSlice.{method}", node)
        if ty.elem.name not in ("i32", "u32", "i64", "u64", "f32", "f64"):
            self.fail(node, "SK003", f"atomics on `{ty.elem.name}` are not supported (32/64-bit only)")
        if method in ("fetch_and", "fetch_or", "fetch_xor") and ty.elem.kind == "f":
            self.fail(node, "SK003", f"`{method}` needs an integer AtomicSlice, not `{ty.describe()}`")
        order, scope = "relaxed", "device"
        for kw in node.keywords:
            allowed = ATOMIC_ORDERS if kw.arg == "order" else ATOMIC_SCOPES
            if not (isinstance(kw.value, ast.Constant) and kw.value.value in allowed):
                self.fail(
                    kw.value,
                    "SK008",
                    f"`{kw.arg}=` takes a string literal, one of: {', '.join(repr(a) for a in allowed)}",
                )
            if kw.arg == "order":
                order = str(kw.value.value)
            else:
                scope = str(kw.value.value)
        elem = ScalarTy(ty.elem)
        index = self.index_expr(args[0])
        if method == "compare_exchange":
            expected = self.convert(self.expr(args[1]), elem, args[1])
            desired = self.convert(self.expr(args[2]), elem, args[2])
            return ir.CompareExchange(elem, recv, index, expected, desired, order, scope)
        value = self.convert(self.expr(args[1]), elem, args[1])
        return ir.Atomic(elem, ATOMIC_RMW[method], recv, index, value, order, scope)

    def surface_call(self, name: str, args: list[ast.expr], node: ast.Call) -> ir.Expr:
        if name == "index_1d":
            self.nargs(args, 0, "thread.index_1d", node)
            return ir.Intrinsic(IndexTy(False), "index_1d")
        if name == "index_2d":
            self.nargs(args, 1, "thread.index_2d", node)
            stride = self.expr(args[0])
            if not is_intlike(stride.ty):
                self.fail(args[0], "SK003", "index_2d's row stride must be an integer")
            return ir.Intrinsic(IndexTy(True), "index_2d", [self.convert(stride, I64, args[0])])
        if name[:-2] in ("thread_idx", "block_idx", "block_dim", "grid_dim") and name[-1] in _SREG_AXES:
            self.nargs(args, 0, f"thread.{name}", node)
            return ir.Intrinsic(I64, name)
        if name == "lane_id":
            self.nargs(args, 0, "thread.lane_id", node)
            return ir.Intrinsic(I64, "lane_id")
        if name == "sync_threads":
            self.nargs(args, 0, "thread.sync_threads", node)
            return ir.Intrinsic(NONE, "sync_threads")
        if name.startswith("shfl_"):
            self.nargs(args, 2, f"warp.{name}", node)
            value = self.expr(args[0])
            if not is_numeric(value.ty):
                self.fail(args[0], "SK003", f"cannot shuffle `{value.ty.describe()}`")
            value = self.convert(value, _concrete(value.ty), args[0])
            lane = self.expr(args[1])
            if not is_intlike(lane.ty):
                self.fail(args[1], "SK003", "the shuffle offset/lane must be an integer")
            return ir.Intrinsic(value.ty, name, [value, self.convert(lane, I32, args[1], explicit=True)])
        if name.startswith("reduce_"):
            self.nargs(args, 1, f"warp.{name}", node)
            value = self.expr(args[0])
            if not is_numeric(value.ty):
                self.fail(args[0], "SK003", f"cannot reduce `{value.ty.describe()}`")
            value = self.convert(value, _concrete(value.ty), args[0])
            return ir.Intrinsic(value.ty, name, [value])
        if name == "shared_array":
            self.require_unsafe(node, "shared_array")
            self.nargs(args, 2, "simt.shared_array", node)
            res = self.resolve(args[0])
            if res is None or res.kind != "cast":
                self.fail(args[0], "SK003", "shared_array's first argument is a dtype such as f32")
            length = self.constant_int(args[1])
            if length <= 0:
                self.fail(args[1], "SK008", "shared_array length must be positive")
            dt: DType = res.value
            # One allocation per call site per block, also in a helper (every call and instantiation of it
            # shares it, as `__shared__` in a CUDA device function and the CPU executor's per-site array).
            site = f"{node.lineno}_{node.col_offset}"
            if not self.is_kernel:
                site = f"{_site_hash(self.src.path)}_{self.src.first_line}_{site}"
            symbol = f"__sk_shared_{site}"
            previous = self.module.shared.get(symbol)
            if previous is not None and (previous.elem, previous.length) != (dt.name, length):
                self.fail(node, "SK003", "this shared array's dtype or length differs between instantiations")
            self.module.shared[symbol] = ir.SharedDecl(symbol, dt.name, length)
            return ir.Intrinsic(SharedArrayTy(dt, length, symbol), "shared_ref")
        if name == "unsafe":
            self.fail(node, "SK001", "`simt.unsafe()` is only meaningful as `with simt.unsafe():`")
        self.fail(node, "SK004", f"`{name}` cannot be called inside a kernel")

    def constant_int(self, node: ast.expr) -> int:
        value = self.expr(node)
        folded = _fold(value)
        if not isinstance(folded, int) or isinstance(folded, bool):
            self.fail(
                node,
                "SK008",
                "a compile-time integer constant is required here (a literal or a module-level int)",
            )
        return folded

    def math_call(self, name: str, args: list[ast.expr], node: ast.Call) -> ir.Expr:
        spec = MATH_FUNCS.get(name)
        if spec is None:
            self.fail(
                node.func,
                "SK004",
                f"`math.{name}` is not supported in kernels",
                help=f"supported: {', '.join(sorted(MATH_FUNCS))}",
            )
        arity, result = spec
        self.nargs(args, arity, f"math.{name}", node)
        vals = [self.expr(a) for a in args]
        common: Ty = vals[0].ty
        for v in vals[1:]:
            u = unify(common, v.ty)
            if isinstance(u, str):
                self.fail(node, "SK003", u)
            common = u
        if not is_numeric(common):
            self.fail(node, "SK003", f"math.{name} needs numbers, not `{common.describe()}`")
        fty: ScalarTy = common if isinstance(common, ScalarTy) and common.is_float else F64
        if isinstance(common, WeakTy) and common.kind == "float":
            fty = F64
        converted = [self.convert(v, fty, node, explicit=True) for v in vals]
        self.module.uses_math = True
        if result == "float":
            return ir.Intrinsic(fty, f"math.{name}", converted)
        if result == "bool":
            return ir.Intrinsic(BOOL, f"math.{name}", converted)
        return ir.Convert(I64, ir.Intrinsic(fty, f"math.{name}", converted))

    def cast_call(self, dt: DType, args: list[ast.expr], node: ast.Call) -> ir.Expr:
        self.nargs(args, 1, dt.name, node)
        value = self.expr(args[0])
        if not (is_numeric(value.ty) or value.ty == BOOL):
            self.fail(args[0], "SK003", f"cannot cast `{value.ty.describe()}` to {dt.name}")
        target = arith_type(dt)
        if dt.name in ("f16", "bf16"):
            inner = self.convert(value, F32, node, explicit=True)
            return ir.Convert(F32, inner, round_to=dt.name)
        if target == BOOL:
            return self.truth(value, node)
        return self.convert(value, target, node, explicit=True)

    def builtin_call(self, name: str, args: list[ast.expr], node: ast.Call) -> ir.Expr:
        if name == "len":
            self.nargs(args, 1, "len", node)
            arr = self.expr(args[0])
            if isinstance(arr.ty, SharedArrayTy):
                return ir.Const(I64, arr.ty.length)
            if not isinstance(arr.ty, SliceTy):
                self.fail(args[0], "SK003", f"`len` of `{arr.ty.describe()}`")
            return ir.Len(I64, arr)
        if name in ("min", "max"):
            if len(args) < 2:
                self.fail(node, "SK006", f"`{name}` takes at least 2 arguments in kernels")
            vals = [self.expr(a) for a in args]
            common: Ty = vals[0].ty
            for v in vals[1:]:
                u = unify(common, v.ty)
                if isinstance(u, str):
                    self.fail(node, "SK003", u)
                common = u
            result = self.convert(vals[0], common, node)
            for v in vals[1:]:
                result = ir.Intrinsic(common, name, [result, self.convert(v, common, node)])
            return result
        if name == "abs":
            self.nargs(args, 1, "abs", node)
            value = self.expr(args[0])
            if not is_numeric(value.ty):
                self.fail(args[0], "SK003", f"`abs` of `{value.ty.describe()}`")
            return ir.Intrinsic(value.ty, "abs", [value])
        if name in ("int", "float"):
            self.nargs(args, 1, name, node)
            value = self.expr(args[0])
            if not (is_numeric(value.ty) or value.ty == BOOL):
                self.fail(args[0], "SK003", f"cannot convert `{value.ty.describe()}` with {name}()")
            return self.convert(value, I64 if name == "int" else F64, node, explicit=True)
        if name == "bool":
            self.nargs(args, 1, "bool", node)
            return self.condition(args[0])
        self.fail(node, "SK001", "`range` is only supported as the iterable of a `for` loop")

    def helper_call(self, fn: Any, args: list[ast.expr], node: ast.Call) -> ir.Expr:
        vals = [self.expr(a) for a in args]
        func = self.module.instantiate_helper(fn, [v.ty for v in vals], self.src, node)
        converted = [self.convert(v, ty, a) for v, (_, ty), a in zip(vals, func.params, args, strict=True)]
        return ir.CallHelper(func.return_ty or NONE, func.name, converted)


class _StmtExpr(ir.Expr):
    """A statement in expression position (`out.set(v)` is a call); unwrapped by `ExprStmt` lowering."""

    def __init__(self, ty: Ty, stmt: ir.Stmt) -> None:
        super().__init__(ty)
        self.stmt = stmt


def _concrete(ty: Ty) -> Ty:
    if isinstance(ty, WeakTy):
        return I64 if ty.kind == "int" else F32
    return ty


def _wrap(value: int, dt: DType) -> int:
    bits = dt.bits
    value &= (1 << bits) - 1
    if dt.kind == "i" and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def _site_hash(path: str) -> str:
    """A short stable tag for a source file (helpers from several files may declare arrays at one line)."""
    import hashlib

    return hashlib.sha256(path.encode()).hexdigest()[:8]


def _fold(e: ir.Expr) -> int | float | None:
    """Constant-fold literal arithmetic (for shared_array lengths)."""
    if isinstance(e, ir.Const) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ir.Convert):
        return _fold(e.value)
    if isinstance(e, ir.BinOp) and e.op in ("+", "-", "*", "//", "<<"):
        a, b = _fold(e.left), _fold(e.right)
        if isinstance(a, int) and isinstance(b, int):
            return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0, "<<": a << b}[e.op]
    return None


def build_module(spec: KernelSpec) -> ir.Module:
    """The typed IR of `spec`'s kernel and every helper it reaches (raises DiagnosticError on SK errors)."""
    return ModuleBuilder(spec).build()
