"""Name resolution for the adapter: mypy already resolved every name, this module only reads its answers.

The questions, each answered from semantic information only (never from expression types, which do not exist
yet for statements after the hooked call):

- Is this fullname the safekernels API named `name` in the ownership table?  mypy reports the *defining*
  fullname (`safekernels.simt.kernel_decorator.kernel` for the public `safekernels.simt.kernel`), so a table entry
  `safekernels.simt.kernel` matches any definition named `kernel` inside the `safekernels.simt` package.
- Is this expression a kernel, and what are its parameter modes?  A `Decorator` node whose decorator resolves to a
  kernel decorator (same module, fresh analysis), or whose decorated type is an instance of a kernel class of the
  track's package (a module loaded from mypy's cache keeps types but drops decorator expressions).  Parameter modes
  come from the analyzed parameter types: real generic classes (`DisjointSlice[f32]`), which survive the cache,
  looked up in `safekernels.ownership_model.PARAM_MODES` by their class name.
- What does the code call this reference?  `sk.zip` is public `safekernels.zip` although mypy records its
  definition `safekernels.runtime.device_op.zip_ops`; the module's `from ... import ... as ...` statements and
  module attribute references give the public name (`public_name`), and a match on either name counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    GDEF,
    CallExpr,
    Decorator,
    Expression,
    ImportFrom,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    TypeInfo,
)
from mypy.types import CallableType, Instance, ProperType, Type, UnionType, get_proper_type
from mypy.util import correct_relative_import

from safekernels.ownership_model import KERNEL_DECORATORS, KERNEL_WRAPPERS, ParamMode, param_mode

PACKAGE = "safekernels"


def matches(fullname: str | None, table_name: str) -> bool:
    """Whether mypy's `fullname` denotes the public safekernels API `table_name` (see the module docstring)."""
    if not fullname:
        return False
    if fullname == table_name:
        return True
    package, _, short = table_name.rpartition(".")
    return fullname.startswith(package + ".") and fullname.rsplit(".", 1)[-1] == short


def fullname_of(expr: Expression) -> str | None:
    """The resolved (defining) fullname of a name or attribute reference (`simt.kernel`, `kernel`, `sk.zip`)."""
    if isinstance(expr, RefExpr):
        return expr.fullname or None
    return None


def import_table(module: MypyFile) -> dict[str, str]:
    """Local name -> public qualified name for the module's `from X import a as b` statements."""
    table: dict[str, str] = {}
    for imp in module.imports:
        if isinstance(imp, ImportFrom):
            base = correct_relative_import(module.fullname, imp.relative, imp.id, module.is_package_init_file())[0]
            for name, alias in imp.names:
                table[alias or name] = f"{base}.{name}" if base else name
    return table


def public_name(expr: Expression, imports: dict[str, str]) -> str | None:
    """How the code names what `expr` refers to, through its imports (`sk.zip` -> `safekernels.zip`)."""
    if isinstance(expr, MemberExpr):
        base = expr.expr
        if isinstance(base, RefExpr) and isinstance(base.node, MypyFile):
            return f"{base.node.fullname}.{expr.name}"
        if not fullname_of(expr) and isinstance(base, RefExpr) and isinstance(base.node, TypeInfo):
            # `itertools.chain.from_iterable`: a class's attribute, which mypy leaves without a fullname
            owner = public_name(base, imports)
            return f"{owner}.{expr.name}" if owner else None
        return fullname_of(expr)
    if isinstance(expr, NameExpr):
        if isinstance(expr.node, MypyFile):
            return expr.node.fullname
        if expr.kind == GDEF and expr.name in imports:
            return imports[expr.name]
        return fullname_of(expr)
    return None


def names(expr: Expression, imports: dict[str, str]) -> tuple[str, ...]:
    """The public name and the defining fullname of a reference (either may match an ownership-table entry)."""
    found = [n for n in (public_name(expr, imports), fullname_of(expr)) if n]
    return tuple(dict.fromkeys(found))


def refers_to(expr: Expression, imports: dict[str, str], table_name: str) -> bool:
    return any(matches(n, table_name) for n in names(expr, imports))


def refers_to_safekernels(expr: Expression, imports: dict[str, str]) -> bool:
    return any(is_safekernels(n) for n in names(expr, imports))


def is_safekernels(fullname: str | None) -> bool:
    return bool(fullname) and (fullname == PACKAGE or str(fullname).startswith(PACKAGE + "."))


@dataclass(frozen=True)
class KernelInfo:
    """What the adapter and the typed-launch hooks need to know about one kernel."""

    name: str  # the brand of its PreparedLaunch, and how diagnostics name it
    fullname: str
    track: str  # "simt" | "tile"
    params: tuple[tuple[str, ParamMode], ...]
    signature: CallableType | None  # the kernel function's own analyzed signature
    autotuned: bool = False  # wrapped by `@simt.autotune(...)` / `@tile.autotune(...)`

    def mode(self, index: int) -> ParamMode:
        return self.params[index][1] if index < len(self.params) else ParamMode.VALUE


def decorator_track(dec: Expression) -> str | None:
    target = dec.callee if isinstance(dec, CallExpr) else dec
    name = fullname_of(target)
    for table_name, track in KERNEL_DECORATORS.items():
        if matches(name, table_name):
            return track
    return None


def instance_track(typ: Type | None) -> str | None:
    """The track of a kernel object's type: an instance of a class defined in `safekernels.simt`/`.tile`
    that the kernel decorator returns (recognised by its package and its launch surface)."""
    proper = get_proper_type(typ) if typ is not None else None
    if not isinstance(proper, Instance):
        return None
    info = proper.type
    for table_name, track in KERNEL_DECORATORS.items():
        package = table_name.rpartition(".")[0]
        if info.fullname.startswith(package + "."):
            if track == "simt" and info.get("launch") is not None and info.get("prepare") is not None:
                return track
            if track == "tile" and info.get("__call__") is not None and "Kernel" in info.name:
                return track
    return None


def _unwrap_optional(typ: Type) -> ProperType:
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        items = [get_proper_type(t) for t in proper.items]
        rest = [t for t in items if not (isinstance(t, Instance) and t.type.fullname == "builtins.None")]
        rest = [t for t in rest if type(t).__name__ != "NoneType"]
        if len(rest) == 1:
            return rest[0]
    return proper


def type_mode(typ: Type | None) -> ParamMode:
    """Parameter mode of an analyzed parameter type: `DisjointSlice[f32]` -> MUT, `Tensor[f32]` -> MOVE, ..."""
    if typ is None:
        return ParamMode.VALUE
    proper = _unwrap_optional(typ)
    if isinstance(proper, Instance) and is_safekernels(proper.type.fullname):
        return param_mode(proper.type.name)
    return ParamMode.VALUE


def _wrapper(dec: Expression) -> bool:
    """Whether a decorator is an autotune wrapper: mypy names `simt.autotune` by its definition
    (`safekernels.autotune.simt_autotune.autotune`, reached through the package's lazy `__getattr__`)."""
    target = dec.callee if isinstance(dec, CallExpr) else dec
    name = fullname_of(target)
    if not name or not is_safekernels(name):
        return False
    short = name.rsplit(".", 1)[-1]
    return any(matches(name, wrapper) or short == wrapper.rsplit(".", 1)[-1] for wrapper in KERNEL_WRAPPERS)


#: The classes an autotune decorator returns (a module loaded from mypy's cache keeps only the decorated type).
AUTOTUNED_CLASSES: dict[str, str] = {"AutotunedSimtKernel": "simt", "AutotunedTileKernel": "tile"}


def kernel_from_decorator(node: Decorator) -> KernelInfo | None:
    track: str | None = None
    decorators = node.original_decorators or node.decorators
    for dec in decorators:
        track = decorator_track(dec)
        if track is not None:
            break
    autotuned = any(_wrapper(dec) for dec in decorators)
    if track is None:
        proper = get_proper_type(node.var.type) if node.var.type is not None else None
        if isinstance(proper, Instance) and is_safekernels(proper.type.fullname):
            track = AUTOTUNED_CLASSES.get(proper.type.name)
            autotuned = track is not None
    if track is None:
        track = instance_track(node.var.type)
    if track is None:
        return None
    func = node.func
    signature = func.type if isinstance(func.type, CallableType) else None
    # A function loaded from mypy's cache has no `arguments` (only names, kinds and its type): read those.
    names = signature.arg_names if signature is not None else func.arg_names
    kinds = signature.arg_kinds if signature is not None else func.arg_kinds
    params: list[tuple[str, ParamMode]] = []
    for index, (name, kind) in enumerate(zip(names, kinds, strict=False)):
        if kind in (ARG_STAR, ARG_STAR2) or name is None:
            continue
        typ = signature.arg_types[index] if signature is not None else None
        params.append((name, type_mode(typ)))
    return KernelInfo(func.name, func.fullname, track, tuple(params), signature, autotuned)


def kernel_of(expr: Expression) -> KernelInfo | None:
    """The kernel an expression refers to (`vecadd`, `kernels.vecadd`), or None."""
    if not isinstance(expr, RefExpr):
        return None
    node = expr.node
    if isinstance(node, Decorator):
        return kernel_from_decorator(node)
    return None
