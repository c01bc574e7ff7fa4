"""Typed launches: the kernel's own parameter types, translated to what the host passes.

Without the plugin a launch is `launch(prepared, stream, *args: Any)`: the kernel object's class cannot know each
kernel's parameters.  The plugin reads them from the kernel function's analyzed signature (which mypy keeps in its
cache) and rewrites the call's signature:

| kernel parameter           | SIMT host argument          | tile host argument                          |
|----------------------------|-----------------------------|---------------------------------------------|
| `Slice[T]`, `DisjointSlice[T]`, `AtomicSlice[T]` | `DeviceBuffer[T] \\| Tensor[T]` | -                   |
| `Tensor[T]`                | -                           | `Tensor[T] \\| DeviceOp[Tensor[T]] \\| DeviceBuffer[T]` |
| `Partition[T]`             | -                           | `Partition[T] \\| DeviceOp[Partition[T]]`   |
| `f32`, `f64`, `f16`, `bf16` | `float`                    | `float`                                     |
| `i32`, `u32`, ..., `bool`  | `int` / `bool`              | `int` / `bool`                              |

so arity, kinds and element types are checked by mypy itself (`[arg-type]`, `[call-arg]`).  The host types are
exactly what the runtime accepts: a SIMT launch wraps a 1-D tile `Tensor` in place, and a tile launch takes a
`DeviceBuffer` for a `Tensor` parameter (a `Partition` must come from `buf.partition(...)`).  A tile kernel call
returns `DeviceOp[tuple[...]]` of its parameters ("you get back what you put in": a `DeviceBuffer` passed for a
`Tensor` comes back as a `DeviceBuffer`), so `z, x, y = op.sync_on(s)` is typed.
`prepare` returns a `PreparedLaunch` that remembers its kernel; a launch with another kernel's prepared launch
is `E0308` (`check_brand`), also when the prepared launch comes from elsewhere (a parameter, an attribute) where
the flow analysis cannot see its origin.
"""

from __future__ import annotations

from mypy.nodes import ARG_POS, CallExpr, Decorator, Expression, FuncDef, MemberExpr, MypyFile, NameExpr, RefExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext, MethodSigContext
from mypy.types import (
    AnyType,
    CallableType,
    ExtraAttrs,
    FunctionLike,
    Instance,
    LiteralType,
    TupleType,
    Type,
    TypeOfAny,
    TypeType,
    UnionType,
    get_proper_type,
)

from mypy_plugin import resolve
from mypy_plugin.lowering import attr_span, span_of
from mypy_plugin.mypy_internals import checking_pass, lookup_class, scope_stack
from mypy_plugin.reporting import emit, suppressed
from ownership_check.core import messages
from ownership_check.diagnostics import Diagnostic

# Public names: mypy looks names up module by module, and these are what `safekernels/__init__.py` exports.
BUFFER = "safekernels.DeviceBuffer"
DEVICE_OP = "safekernels.DeviceOp"
BRAND_ATTRIBUTE = "__safekernels_brand__"
TILE_TENSOR = "safekernels.tile.Tensor"
SLICE_CLASSES = frozenset({"Slice", "DisjointSlice", "AtomicSlice"})
TILE_CLASSES = frozenset({"Tensor", "Partition"})


def _element(instance: Instance) -> Type:
    return instance.args[0] if instance.args else AnyType(TypeOfAny.special_form)


def _scalar(api: CheckerPluginInterface, instance: Instance) -> Type | None:
    """`f32` -> `float`, `i32` -> `int`: the Python scalar a kernel scalar parameter takes."""
    info = instance.type
    if info.fullname in ("builtins.bool", "builtins.int", "builtins.float"):
        return instance
    for base in info.mro:
        if base.fullname == "builtins.float":
            return api.named_generic_type("builtins.float", [])
        if base.fullname == "builtins.int":
            return api.named_generic_type("builtins.int", [])
    return None


def host_type(api: CheckerPluginInterface, param: Type, track: str) -> Type:
    """What the host passes for a kernel parameter of type `param` (see the module docstring)."""
    proper = get_proper_type(param)
    if not isinstance(proper, Instance):
        return param
    name = proper.type.name
    if resolve.is_safekernels(proper.type.fullname):
        if track == "simt" and name in SLICE_CLASSES:
            buffer = api.named_generic_type(BUFFER, [_element(proper)])
            try:  # a 1-D tile Tensor is wrapped in place (only when safekernels.tile is part of the build)
                return UnionType([buffer, api.named_generic_type(TILE_TENSOR, [_element(proper)])])
            except (KeyError, AssertionError):
                return buffer
        if track == "tile" and name in TILE_CLASSES:
            accepted = [proper, api.named_generic_type(DEVICE_OP, [proper])]
            if name == "Tensor":  # a buffer is the 1-D tensor over its memory (a Partition needs buf.partition())
                accepted.append(api.named_generic_type(BUFFER, [_element(proper)]))
            return UnionType(accepted)
        info = lookup_class(api, "safekernels.tile.tensor", "Tensor") if name == "AtomicTensor" else None
        if track == "tile" and info is not None:  # an AtomicTensor: the host passes (and gets back) a Tensor
            tensor = Instance(info, [_element(proper)])
            return UnionType(
                [
                    tensor,
                    api.named_generic_type(DEVICE_OP, [tensor]),
                    api.named_generic_type(BUFFER, [_element(proper)]),
                ]
            )
    scalar = _scalar(api, proper)
    return scalar if scalar is not None else param


class _PassKernels:
    """Kernel signatures and their host parameter types, computed once per kernel per checking pass.

    A function's launches of the same kernel share them (so a launch hook costs O(its parameters), not a fresh
    analysis of the kernel plus one symbol lookup per parameter).  Entries belong to the checking pass that made
    them (`mypy_internals.checking_pass`: a new binder for every pass, deferred pass and dmypy re-check) and are
    dropped when another pass asks, so an edited kernel is always read afresh.
    """

    def __init__(self) -> None:
        self.token: object = None
        self.kernels: dict[int, tuple[Decorator, resolve.KernelInfo | None]] = {}
        self.host: dict[tuple[int, str], tuple[resolve.KernelInfo, list[Type]]] = {}

    def _sync(self, api: CheckerPluginInterface) -> None:
        token = checking_pass(api)
        if token is not self.token:
            self.token = token
            self.kernels.clear()
            self.host.clear()

    def kernel(self, api: CheckerPluginInterface, expr: Expression) -> resolve.KernelInfo | None:
        node = expr.node if isinstance(expr, RefExpr) else None
        if not isinstance(node, Decorator):
            return None
        self._sync(api)
        found = self.kernels.get(id(node))
        if found is None or found[0] is not node:
            found = (node, resolve.kernel_from_decorator(node))
            self.kernels[id(node)] = found
        return found[1]

    def host_params(self, api: CheckerPluginInterface, kernel: resolve.KernelInfo, sig: CallableType) -> list[Type]:
        """`host_type` of each kernel parameter (raises like `host_type` when safekernels is not in the build)."""
        self._sync(api)
        key = (id(kernel), kernel.track)
        found = self.host.get(key)
        if found is None or found[0] is not kernel:
            found = (kernel, [host_type(api, t, kernel.track) for t in sig.arg_types])
            self.host[key] = found
        return found[1]


PASS_KERNELS = _PassKernels()


def _kernel_of_call(api: CheckerPluginInterface, context: object, receiver: bool) -> resolve.KernelInfo | None:
    if not isinstance(context, CallExpr):
        return None
    callee = context.callee
    if receiver:
        return PASS_KERNELS.kernel(api, callee.expr) if isinstance(callee, MemberExpr) else None
    return PASS_KERNELS.kernel(api, callee)


def _kernel_params(kernel: resolve.KernelInfo) -> CallableType | None:
    return kernel.signature if kernel.signature is not None and not kernel.signature.is_ellipsis_args else None


def simt_launch_signature(ctx: MethodSigContext) -> FunctionLike:
    """`launch(prepared, stream, *args)` -> `launch(prepared, stream, a: DeviceBuffer[f32], ..., n: int)`."""
    kernel = _kernel_of_call(ctx.api, ctx.context, receiver=True)
    default = ctx.default_signature
    if kernel is None or kernel.track != "simt" or not isinstance(ctx.context, CallExpr):
        return default
    sig = _kernel_params(kernel)
    if sig is None:
        return default
    fixed = [i for i, kind in enumerate(default.arg_kinds) if kind == ARG_POS]
    try:
        params = PASS_KERNELS.host_params(ctx.api, kernel, sig)
    except (KeyError, AssertionError):  # safekernels is not part of this build
        return default
    return default.copy_modified(
        arg_types=[default.arg_types[i] for i in fixed] + params,
        arg_kinds=[default.arg_kinds[i] for i in fixed] + list(sig.arg_kinds),
        arg_names=[default.arg_names[i] for i in fixed] + list(sig.arg_names),
    )


def tile_call_signature(ctx: MethodSigContext) -> FunctionLike:
    """`add(*args)` -> `add(z: Partition[f32] | DeviceOp[Partition[f32]], x: Tensor[f32] | ..., ...)`."""
    kernel = _kernel_of_call(ctx.api, ctx.context, receiver=False)
    default = ctx.default_signature
    if kernel is None or kernel.track != "tile":
        return default
    sig = _kernel_params(kernel)
    if sig is None:
        return default
    try:
        params = PASS_KERNELS.host_params(ctx.api, kernel, sig)
    except (KeyError, AssertionError):
        return default
    return default.copy_modified(arg_types=list(params), arg_kinds=list(sig.arg_kinds), arg_names=list(sig.arg_names))


def tile_call_return(ctx: MethodContext) -> Type:
    """A tile launch returns `DeviceOp[tuple[...]]` of all its parameters, in order."""
    kernel = _kernel_of_call(ctx.api, ctx.context, receiver=False)
    default = get_proper_type(ctx.default_return_type)
    if kernel is None or kernel.track != "tile" or not isinstance(default, Instance):
        return ctx.default_return_type
    sig = _kernel_params(kernel)
    if sig is None:
        return ctx.default_return_type
    items: list[Type] = []
    for index, typ in enumerate(sig.arg_types):
        proper = get_proper_type(typ)
        scalar = _scalar(ctx.api, proper) if isinstance(proper, Instance) else None
        passed = _passed_buffer(ctx, index)
        atomic = isinstance(proper, Instance) and proper.type.name == "AtomicTensor"
        info = lookup_class(ctx.api, *TENSOR) if atomic else None
        if info is not None and isinstance(proper, Instance):
            typ = Instance(info, [_element(proper)])
        items.append(scalar if scalar is not None else passed if passed is not None else typ)
    fallback = ctx.api.named_generic_type("builtins.tuple", [AnyType(TypeOfAny.special_form)])
    return default.copy_modified(args=[TupleType(items, fallback)])


def _passed_buffer(ctx: MethodContext, index: int) -> Type | None:
    """The `DeviceBuffer[...]` type of the argument passed for parameter `index`, if it is one: the launch hands
    back a fresh buffer handle in its place."""
    actual = ctx.arg_types[index] if index < len(ctx.arg_types) else []
    if len(actual) != 1:
        return None
    proper = get_proper_type(actual[0])
    if isinstance(proper, Instance) and proper.type.fullname.endswith(".DeviceBuffer"):
        return proper
    return None


def brand_of(typ: Type) -> str | None:
    """The kernel a `PreparedLaunch` type was prepared by, if the plugin branded it."""
    proper = get_proper_type(typ)
    if not isinstance(proper, Instance) or proper.extra_attrs is None:
        return None
    brand = get_proper_type(proper.extra_attrs.attrs.get(BRAND_ATTRIBUTE))
    return brand.value if isinstance(brand, LiteralType) and isinstance(brand.value, str) else None


def prepare_return(ctx: MethodContext) -> Type:
    """`vecadd.prepare(...)` -> `PreparedLaunch[SimtKernel]` carrying the brand `vecadd` (invisible to subtyping,
    so annotations like `PreparedLaunch[SimtKernel]` keep working)."""
    kernel = _kernel_of_call(ctx.api, ctx.context, receiver=True)
    default = get_proper_type(ctx.default_return_type)
    if kernel is None or not isinstance(default, Instance):
        return ctx.default_return_type
    brand = LiteralType(kernel.name, ctx.api.named_generic_type("builtins.str", []))
    extra = ExtraAttrs({BRAND_ATTRIBUTE: brand}, set(), None)
    return Instance(default.type, default.args, default.line, default.column, extra_attrs=extra)


#: Dual-use tile constructors (a tile inside a kernel, a lazy tensor on the host) typed `Any` by the library.
TILE_CONSTRUCTORS = frozenset({"zeros", "ones", "full", "arange", "from_numpy"})
TENSOR = ("safekernels.tile.tensor", "Tensor")


def _dtype_argument(ctx: FunctionContext) -> Type:
    """The element type named by a constructor's `dtype` argument (`f32` -> `f32`), else `Any`."""
    for name, types in zip(ctx.callee_arg_names, ctx.arg_types, strict=False):
        if name == "dtype" and types:
            proper = get_proper_type(types[0])
            if isinstance(proper, TypeType):
                return proper.item
            if isinstance(proper, FunctionLike) and proper.is_type_obj():
                return Instance(proper.type_object(), [])
    return AnyType(TypeOfAny.special_form)


def tile_constructor_return(ctx: FunctionContext) -> Type:
    """On the host, `tile.ones((n,), f32)` is a `DeviceOp[Tensor[f32]]`; inside a tile kernel it stays a tile."""
    if _inside_tile_kernel(ctx.api):
        return ctx.default_return_type
    tensor_info = lookup_class(ctx.api, *TENSOR)
    if tensor_info is None:
        return ctx.default_return_type
    try:
        return ctx.api.named_generic_type(DEVICE_OP, [Instance(tensor_info, [_dtype_argument(ctx)])])
    except (KeyError, AssertionError):
        return ctx.default_return_type


def _inside_tile_kernel(api: CheckerPluginInterface) -> bool:
    """Whether the call is in the body of a (module-level) tile kernel: its module symbol is the decorated
    function, and the decoration is `tile.kernel`."""
    stack = scope_stack(api)
    module = stack[0]
    for entry in stack[1:]:
        if isinstance(entry, FuncDef) and entry.is_decorated and isinstance(module, MypyFile):
            symbol = module.names.get(entry.name)
            node = symbol.node if symbol is not None else None
            if isinstance(node, Decorator) and node.func is entry:
                kernel = resolve.kernel_from_decorator(node)
                return kernel is not None and kernel.track == "tile"
    return False


def check_brand(ctx: MethodContext) -> list[Diagnostic]:
    """`E0308` from the types alone, for a launch whose prepared launch the flow analysis cannot trace (a module
    global, an attribute): the brand `prepare` put on its type names another kernel."""
    call = ctx.context
    kernel = _kernel_of_call(ctx.api, call, receiver=True)
    if kernel is None or kernel.track != "simt" or not isinstance(call, CallExpr):
        return []
    callee = call.callee
    if not isinstance(callee, MemberExpr) or callee.name not in ("launch", "launch_async"):
        return []
    if not ctx.arg_types or not ctx.arg_types[0] or not call.args:
        return []
    found = brand_of(ctx.arg_types[0][0])
    if found is None or found == kernel.name:
        return []
    prepared = call.args[0]
    name = prepared.name if isinstance(prepared, NameExpr | MemberExpr) else "prepared launch"
    diagnostic = messages.brand_mismatch(
        ctx.api.path, name, span_of(prepared), kernel.name, found, attr_span(callee)
    )
    if not suppressed(diagnostic, ctx.api.path):
        emit(ctx.api, diagnostic)
    return [diagnostic]


#: `DeviceOp[Tensor[T]].partition(...)` is a `DeviceOp[Partition[T]]` and back; `.first()` of a tuple-valued op is
#: its first element.  The library types these `DeviceOp[Any]`: one generic class cannot say it.
PARTITION = ("safekernels.tile.tensor", "Partition")


def device_op_method_return(ctx: MethodContext, method: str) -> Type:
    receiver = get_proper_type(ctx.type)
    default = get_proper_type(ctx.default_return_type)
    if not (isinstance(receiver, Instance) and isinstance(default, Instance) and receiver.args):
        return ctx.default_return_type
    value = get_proper_type(receiver.args[0])
    if method == "first" and isinstance(value, TupleType) and value.items:
        return default.copy_modified(args=[value.items[0]])
    if not isinstance(value, Instance) or not value.args:
        return ctx.default_return_type
    target = {"partition": ("Tensor", PARTITION), "unpartition": ("Partition", TENSOR)}.get(method)
    if target is None or value.type.name != target[0]:
        return ctx.default_return_type
    info = lookup_class(ctx.api, *target[1])
    if info is None:
        return ctx.default_return_type
    return default.copy_modified(args=[Instance(info, [value.args[0]])])
