"""The mypy plugin class: which hooks exist and what each one does.

Two jobs, both driven by the fullnames mypy hands to `get_*_hook`:

- *ownership diagnostics*: every safekernels call that can cause one (the moving methods, launches, `get_mut`,
  `to_numpy`, unsafe operations, shared-array element access, tile kernel calls) gets a hook that runs the core
  over the enclosing function and reports what that call caused (`reporting`);
- *typed launches*: signature and return-type hooks that give launches the kernel's own parameter types
  (`typed_launch`).

Hooks for names this plugin does not own return None, so other plugins in a chain keep working.

Loading the plugin is cheap: this module needs only the ownership table and mypy's own classes to answer which
names it hooks.  The analysis (the flow-IR lowering, the core, the typed launches: ~50 dataclasses to create,
most of what importing the plugin cost) is imported the first time mypy asks about a safekernels call, so a mypy
run (or a dmypy restart, or a re-check) over modules that never call safekernels does not pay for it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, TypeVar

from mypy.errorcodes import ErrorCode
from mypy.nodes import (
    FUNC_NO_INFO,
    CallExpr,
    Context,
    Decorator,
    Expression,
    FuncDef,
    Import,
    IndexExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    TypeInfo,
    Var,
)
from mypy.options import Options
from mypy.plugin import (
    CheckerPluginInterface,
    FunctionContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import AnyType, CallableType, FunctionLike, Type, get_proper_type

from mypy_plugin import resolve, tree
from mypy_plugin.fingerprint import fingerprint
from mypy_plugin.mypy_internals import UnsupportedMypyError, scope_stack
from ownership_check.diagnostics import Diagnostic
from safekernels.ownership_model import (
    MOVING_ARGUMENT_CALLS,
    MOVING_METHODS,
    SIMT_LAUNCH_METHODS,
    UNSAFE_OPERATIONS,
    WITNESS_CONSUMERS,
)


class _ImportedOnFirstUse:
    """A module imported the first time one of its attributes is read (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)


if TYPE_CHECKING:
    from mypy_plugin import reporting, typed_launch
else:
    reporting = _ImportedOnFirstUse("mypy_plugin.reporting")
    typed_launch = _ImportedOnFirstUse("mypy_plugin.typed_launch")

#: Methods (of safekernels classes) whose calls can cause an ownership diagnostic.
CAUSE_METHODS = frozenset(
    MOVING_METHODS | MOVING_ARGUMENT_CALLS | WITNESS_CONSUMERS | UNSAFE_OPERATIONS | set(SIMT_LAUNCH_METHODS)
    | {"to_numpy"}
)
#: Module functions (by their public short name) whose calls can cause one.
CAUSE_FUNCTIONS = frozenset(MOVING_ARGUMENT_CALLS | {"shared_array"})
#: Calls that run a callable handed to them as a value (`ownership_check.core.callables`): a partial's call, a
#: `@functools.singledispatch` function's call, `map` and `itertools.starmap` (inside `list(...)`) and
#: `functools.reduce`: what they run may move or borrow the caller's values where no safekernels call is.
CALLABLE_VALUE_CALLS = frozenset(
    {
        "functools.partial.__call__", "functools._SingleDispatchCallable.__call__", "builtins.map",
        "itertools.starmap", "functools.reduce",
    }
)


def _short(fullname: str) -> str:
    return fullname.rsplit(".", 1)[-1]


def _class_name(fullname: str) -> str:
    parts = fullname.rsplit(".", 2)
    return parts[-2] if len(parts) >= 2 else ""


#: Decorators making a generator a context manager, whose `with` statements a unit's analysis follows.
_CONTEXT_MANAGERS: Final[frozenset[str]] = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})


class SafeKernelsPlugin(Plugin):
    """`plugins = ["mypy_plugin"]`: ownership diagnostics and typed launches for safekernels code."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._fingerprint = fingerprint()
        # mypy asks for hooks once per call expression it checks, with the callee's fullname; the answer depends on
        # the fullname alone, so each is computed once (most are None: not safekernels, rejected by prefix).
        self._method_hooks: dict[str, Callable[[MethodContext], Type] | None] = {}
        self._signature_hooks: dict[str, Callable[[MethodSigContext], FunctionLike] | None] = {}
        self._function_hooks: dict[str, Callable[[FunctionContext], Type] | None] = {}

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        """A change of the plugin, the core or the ownership table invalidates mypy's cached results."""
        del ctx
        return self._fingerprint

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        try:
            return self._method_hooks[fullname]
        except KeyError:
            found = self._method_hooks[fullname] = self._method_hook(fullname)
            return found

    def get_method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        try:
            return self._signature_hooks[fullname]
        except KeyError:
            found = self._signature_hooks[fullname] = self._method_signature_hook(fullname)
            return found

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        try:
            return self._function_hooks[fullname]
        except KeyError:
            found = self._function_hooks[fullname] = self._function_hook(fullname)
            return found

    def _local_callee(self, fullname: str) -> bool:
        """Whether `fullname` is a plain function or method of the user's code, whose call may carry a call
        summary (`call_targets`): its hook runs the unit's analysis, which no safekernels call there may start."""
        if resolve.is_safekernels(fullname):
            return False
        try:
            symbol = self.lookup_fully_qualified(fullname)
            if symbol is None and "." in fullname:
                # a method an instance inherits (`act.forward()` of `class InPlace(Mixin, Layer)`): mypy names it
                # by the receiver's class, whose own names lack it; its method resolution order finds it
                owner, name = fullname.rsplit(".", 1)
                found = self.lookup_fully_qualified(owner)
                symbol = found.node.get(name) if found is not None and isinstance(found.node, TypeInfo) else None
        except (KeyError, AssertionError):
            return False
        node = symbol.node if symbol is not None else None
        if isinstance(node, Var):
            # a name bound to a lambda or to the function a factory returns (`lowering.find_callables`)
            return True
        if isinstance(node, Decorator):
            if node.func.is_static:  # a `@staticmethod` called on its class (`call_targets._static_method`)
                return len(node.original_decorators) == 1
            # the module's own decorators, which may forward calls to it (`call_targets.forwards_calls` decides);
            # a `@contextlib.contextmanager` generator, whose `with` the unit's analysis follows (`entered`)
            return all(
                isinstance(d, NameExpr) or (isinstance(d, RefExpr) and d.fullname in _CONTEXT_MANAGERS)
                for d in node.original_decorators
            )
        return isinstance(node, FuncDef) and not node.is_decorated

    def _method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname in CALLABLE_VALUE_CALLS:
            return _callable_value_method_hook
        if not resolve.is_safekernels(fullname):
            return functools.partial(_local_method_hook, fullname) if self._local_callee(fullname) else None
        short = _short(fullname)
        if short == "__call__" and _class_name(fullname) in ("TileKernel", "AutotunedTileKernel"):
            return _tile_call_hook
        if short == "__call__" and _class_name(fullname) == "SimtDeviceFunction":
            return _device_call_hook
        if short in ("__getitem__", "__setitem__") and _class_name(fullname) == "SharedArray":
            return _method_report_hook
        if short in ("partition", "unpartition", "first") and _class_name(fullname) == "DeviceOp":
            return functools.partial(_device_op_hook, short)
        if short in CAUSE_METHODS:
            return _method_report_hook
        if short == "prepare" and _class_name(fullname) == "SimtKernel":
            return _starting_analysis(_typed(typed_launch.prepare_return))
        return None

    def _method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        if not resolve.is_safekernels(fullname):
            return None
        short, cls = _short(fullname), _class_name(fullname)
        if cls == "SimtKernel" and short in SIMT_LAUNCH_METHODS:
            return _typed_signature(typed_launch.simt_launch_signature)
        if cls == "TileKernel" and short == "__call__":
            return _typed_signature(typed_launch.tile_call_signature)
        return None

    def _function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname.startswith("safekernels.tile.") and _short(fullname) in typed_launch.TILE_CONSTRUCTORS:
            return _starting_analysis(_typed(typed_launch.tile_constructor_return))
        if resolve.is_safekernels(fullname):
            return _function_report_hook
        if fullname in CALLABLE_VALUE_CALLS:
            return _nested_function_hook
        if self._local_callee(fullname):
            return functools.partial(_local_function_hook, fullname)
        if "." not in fullname:
            # a function nested in the unit being checked (mypy names it bare): its call applies what it does to the
            # captured values (the launches it runs with them), which no safekernels call of the unit may start
            return _nested_function_hook
        return None


INTERNAL = ErrorCode("ownership-internal", "The ownership checker failed on this code", "ownership")


def _guarded(api: CheckerPluginInterface, context: Context, run: Callable[[], list[Diagnostic]]) -> list[Diagnostic]:
    """Run the checker for one hook; a bug in it becomes one error at the call instead of a mypy crash."""
    try:
        return run()
    except UnsupportedMypyError:
        raise
    except Exception as exc:
        api.fail(f"ownership checker internal error: {type(exc).__name__}: {exc} (please report)", context,
                 code=INTERNAL)
        return []


Ctx = TypeVar("Ctx", MethodContext, FunctionContext)


def _typed(hook: Callable[[Ctx], Type]) -> Callable[[Ctx], Type]:
    """A typing hook that falls back to mypy's own type (and says so) if it fails."""

    def run(ctx: Ctx) -> Type:
        try:
            return hook(ctx)
        except Exception as exc:
            ctx.api.fail(f"ownership checker internal error: {type(exc).__name__}: {exc} (please report)",
                         ctx.context, code=INTERNAL)
            return ctx.default_return_type

    return run


def _typed_signature(hook: Callable[[MethodSigContext], FunctionLike]) -> Callable[[MethodSigContext], FunctionLike]:
    def run(ctx: MethodSigContext) -> FunctionLike:
        try:
            return hook(ctx)
        except Exception as exc:
            ctx.api.fail(f"ownership checker internal error: {type(exc).__name__}: {exc} (please report)",
                         ctx.context, code=INTERNAL)
            return ctx.default_signature

    return run


def _method_report_hook(ctx: MethodContext) -> Type:
    call = ctx.context
    if isinstance(call, CallExpr | IndexExpr):
        caused = _guarded(ctx.api, call, lambda: reporting.report_caused_by(ctx.api, call))
        if isinstance(call, CallExpr) and not any(d.code == "E0308" for d in caused):
            _guarded(ctx.api, call, lambda: typed_launch.check_brand(ctx))
    return ctx.default_return_type


def _device_op_hook(method: str, ctx: MethodContext) -> Type:
    _method_report_hook(ctx)
    return _typed(functools.partial(typed_launch.device_op_method_return, method=method))(ctx)


def _tile_call_hook(ctx: MethodContext) -> Type:
    call = ctx.context
    if isinstance(call, CallExpr):
        _guarded(ctx.api, call, lambda: reporting.report_caused_by(ctx.api, call))
    return _typed(typed_launch.tile_call_return)(ctx)


def _function_report_hook(ctx: FunctionContext) -> Type:
    call = ctx.context
    if isinstance(call, CallExpr) and (
        any(_short(name) in CAUSE_FUNCTIONS or _short(name) == "zip_ops" for name in resolve.names(call.callee, {}))
        or calls_any_typed_helper(ctx.api)
    ):
        _guarded(ctx.api, call, lambda: reporting.report_caused_by(ctx.api, call))
    return ctx.default_return_type


def _starting_analysis(hook: Callable[[Ctx], Type]) -> Callable[[Ctx], Type]:
    """A typing hook of a safekernels call (`kernel.prepare(...)`, `tile.zeros(...)`) that also runs the unit's
    analysis where the unit calls a helper mypy hands no hook (`calls_any_typed_helper`)."""

    def run(ctx: Ctx) -> Type:
        call = ctx.context
        if isinstance(call, CallExpr) and calls_any_typed_helper(ctx.api):
            _guarded(ctx.api, call, lambda: reporting.report_caused_by(ctx.api, call))
        return hook(ctx)

    return run


#: `calls_any_typed_helper` per unit, with the body it was computed for.
_ANY_TYPED_CALLS: dict[int, tuple[object, bool]] = {}


def calls_any_typed_helper(api: CheckerPluginInterface) -> bool:
    """Whether the unit being checked calls a function of its module that mypy types as `Any` (`@logged def
    run(...)` of a decorator declared `def logged(fn: Any) -> Any`): mypy calls no hook for a call on `Any`, so
    that call, whose summary may move or borrow the unit's values (a forwarding decorator keeps it), never starts
    the unit's analysis; a safekernels call of the unit that needs no analysis of its own starts it instead.  Read
    once per unit body."""
    unit = scope_stack(api)[-1]
    body = unit.defs if isinstance(unit, MypyFile) else getattr(unit, "body", None)
    found = _ANY_TYPED_CALLS.get(id(unit))
    if found is not None and found[0] is body:
        return found[1]
    statements = unit.defs if isinstance(unit, MypyFile) else unit.body.body if isinstance(unit, FuncDef) else []
    result = any(
        isinstance(n, CallExpr) and isinstance(n.callee, NameExpr) and isinstance(d := n.callee.node, Decorator)
        and not resolve.is_safekernels(d.fullname)
        and (d.var.type is None or isinstance(get_proper_type(d.var.type), AnyType))
        for n in tree.walk_many(statements)
    )
    if len(_ANY_TYPED_CALLS) > 4096:
        _ANY_TYPED_CALLS.clear()
    _ANY_TYPED_CALLS[id(unit)] = (body, result)
    return result


def _imports_safekernels(module: MypyFile) -> bool:
    return any(
        name == "safekernels" or name.startswith("safekernels.")
        for imp in module.imports
        for name in ([i for i, _ in imp.ids] if isinstance(imp, Import) else [getattr(imp, "id", "")])
    )


def _report_local_call(api: CheckerPluginInterface, call: Context, callee: str) -> None:
    """A call of a function or method of the module being checked (`callee`, its full name): in a module that uses
    safekernels, the unit's analysis runs (the callee's call summary may move or borrow the caller's values where
    no safekernels call is)."""
    if not isinstance(call, CallExpr):
        return
    module = scope_stack(api)[0]
    if (
        isinstance(module, MypyFile)
        and callee.startswith(module.fullname + ".")
        and _imports_safekernels(module)
    ):
        _guarded(api, call, lambda: reporting.report_caused_by(api, call))
        node = call.callee.node if isinstance(call.callee, RefExpr) else None
        found = node if node is not None else _module_member(module, callee[len(module.fullname) + 1:])
        func = found.func if isinstance(found, Decorator) else found
        if isinstance(func, FuncDef) and unhooked_causes(func):
            _guarded(api, call, lambda: _report_callee(api, func))


def _module_member(module: MypyFile, dotted: str) -> object:
    """The definition `Launcher.fire` names in `module` (a method a call on an instance reaches, whose callee
    expression mypy does not bind to it), or None."""
    first, *rest = dotted.split(".")
    found = module.names.get(first)
    node: object = found.node if found is not None else None
    for name in rest:
        if not isinstance(node, TypeInfo):
            return None
        member = node.names.get(name)
        node = member.node if member is not None else None
    return node


def _device_call_hook(ctx: MethodContext) -> Type:
    """A call of a `@simt.device` helper of the module: a helper with a parameter mypy types `Any` (unannotated or
    annotated so; indexing it, a shared array the caller passes, calls no hook) is analysed from here."""
    call = ctx.context
    node = call.callee.node if isinstance(call, CallExpr) and isinstance(call.callee, RefExpr) else None
    func = node.func if isinstance(node, Decorator) else None
    signature = func.type if func is not None else None
    if isinstance(call, CallExpr) and func is not None and (
        not isinstance(signature, CallableType)
        or any(isinstance(get_proper_type(t), AnyType) for t in signature.arg_types)
    ):
        _guarded(ctx.api, call, lambda: _report_callee(ctx.api, func))
    return ctx.default_return_type


def _report_callee(api: CheckerPluginInterface, func: FuncDef) -> list[Diagnostic]:
    reporting.report_unhooked_callee(api, func)
    return []


#: `unhooked_causes` per function, with the body it was computed for (dmypy gives an edited function a new body).
_UNHOOKED: dict[int, tuple[object, bool]] = {}


def unhooked_causes(func: FuncDef) -> bool:
    """Whether `func` holds a call of a method that can cause an ownership diagnostic (`CAUSE_METHODS`:
    `kernel.launch_unchecked(...)`, `buf.partition(...)`) on a parameter mypy types as `Any` (unannotated, in a
    function with annotations, or in an unannotated one): mypy calls no hook for a member call on `Any`, so such
    a function is analysed from the hook of a call of it instead (`reporting.report_unhooked_callee`).  Read once
    per function body."""
    found = _UNHOOKED.get(id(func))
    if found is not None and found[0] is func.body:
        return found[1]
    signature = func.type
    untyped: set[int] = set()
    for index, argument in enumerate(func.arguments):
        declared = signature.arg_types[index] if isinstance(signature, CallableType) else None
        if declared is None or isinstance(get_proper_type(declared), AnyType):
            untyped.add(id(argument.variable))
    method = func.info is not FUNC_NO_INFO and bool(func.arguments) and not (func.is_static or func.is_class)
    receiver = func.arguments[0].variable if method else None
    owner = func.info if method else None
    result = any(
        isinstance(n, CallExpr) and isinstance(n.callee, MemberExpr) and n.callee.name in CAUSE_METHODS
        and (_untyped_parameter(n.callee.expr, untyped) or _untyped_attribute(n.callee.expr, receiver, owner))
        for n in tree.walk_many(func.body.body)
    )
    if len(_UNHOOKED) > 4096:
        _UNHOOKED.clear()
    _UNHOOKED[id(func)] = (func.body, result)
    return result


def _untyped_parameter(receiver: Expression, untyped: set[int]) -> bool:
    return isinstance(receiver, NameExpr) and id(receiver.node) in untyped


def _untyped_attribute(receiver: Expression, self_var: Var | None, info: TypeInfo | None) -> bool:
    """`self.kernel` of a method whose class gives the attribute no type mypy knows yet, or `Any` (`self.kernel =
    kernel` of an `Any` parameter): a member call on it gets no hook."""
    if self_var is None or info is None or not isinstance(receiver, MemberExpr):
        return False
    if not (isinstance(receiver.expr, NameExpr) and receiver.expr.node is self_var):
        return False
    found = info.get(receiver.name)
    var = found.node if found is not None else None
    return isinstance(var, Var) and (var.type is None or isinstance(get_proper_type(var.type), AnyType))


def _nested_function_hook(ctx: FunctionContext) -> Type:
    call = ctx.context
    module = scope_stack(ctx.api)[0]
    if isinstance(call, CallExpr) and isinstance(module, MypyFile) and _imports_safekernels(module):
        _guarded(ctx.api, call, lambda: reporting.report_caused_by(ctx.api, call))
    return ctx.default_return_type


def _callable_value_method_hook(ctx: MethodContext) -> Type:
    call = ctx.context
    module = scope_stack(ctx.api)[0]
    if isinstance(call, CallExpr) and isinstance(module, MypyFile) and _imports_safekernels(module):
        _guarded(ctx.api, call, lambda: reporting.report_caused_by(ctx.api, call))
    return ctx.default_return_type


def _local_function_hook(callee: str, ctx: FunctionContext) -> Type:
    _report_local_call(ctx.api, ctx.context, callee)
    return ctx.default_return_type


def _local_method_hook(callee: str, ctx: MethodContext) -> Type:
    _report_local_call(ctx.api, ctx.context, callee)
    return ctx.default_return_type


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point (`plugins = ["mypy_plugin"]`); the class works on every mypy the project supports."""
    del version
    return SafeKernelsPlugin
