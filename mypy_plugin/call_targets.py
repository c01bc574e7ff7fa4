"""Which function or method of this module a call runs (mypy plugin), and its call summary.

The same syntactic rules as the CLI front end (`ownership_check.frontend.call_targets`, where they are described),
read off mypy's tree, so both front ends apply the same summaries: a plain function of this module or of the
calling body called by its name, a method of a top-level class of this module called on `self`, on a parameter
annotated with the class, or on a local name bound only by `name = Class(...)`, or a `@staticmethod` of such a
class called on the class's name.  mypy knows more types than that
(`job = make_job()`), but a summary the CLI cannot apply would make the two report differently.

Summaries are memoized on the `FileContext`, which lives for one analysis within one checking pass: nothing is kept
across hooks (dmypy re-checks edited modules in the same process).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    CallExpr,
    ClassDef,
    Decorator,
    DelStmt,
    Expression,
    ForStmt,
    FuncDef,
    FuncItem,
    Import,
    ImportAll,
    ImportFrom,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    StarExpr,
    TryStmt,
    TupleExpr,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)

from mypy_plugin import tree
from ownership_check.core import calls
from ownership_check.core.call_effects import AppliedSummary, CallSummary, SummaryMemo, bind_parameters
from ownership_check.core.summarize import call_summary

if TYPE_CHECKING:
    from mypy_plugin.lowering import FunctionLowerer

_POSITIONAL = (ARG_POS, ARG_OPT)
_KEYWORD_ONLY = (ARG_NAMED, ARG_NAMED_OPT)


def _runs_when_called(func: FuncItem) -> bool:
    """A plain function whose body runs at the call (not `async def`, not a generator, not decorated)."""
    if not isinstance(func, FuncDef) or func.is_decorated or func.is_coroutine or func.is_generator:
        return False
    return not any(isinstance(n, AwaitExpr | YieldExpr | YieldFromExpr) for n in tree.walk_many(func.body.body))


class ModuleClasses:
    """The module's top-level classes, by name (built once per `FileContext`)."""

    def __init__(self, module: MypyFile) -> None:
        self.module = module
        self.classes: dict[str, ClassDef] = {d.name: d for d in module.defs if isinstance(d, ClassDef)}
        self.owner: dict[int, ClassDef] = {
            id(sub): cls for cls in self.classes.values() for sub in cls.defs.body if isinstance(sub, FuncDef)
        }
        self.memo = SummaryMemo()

    def method(self, cls: ClassDef, name: str) -> FuncDef | None:
        seen: set[str] = set()
        current: ClassDef | None = cls
        while current is not None and current.name not in seen:
            seen.add(current.name)
            found: Node | None = None
            for stmt in current.defs.body:
                if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef) and stmt.name == name:
                    found = stmt
                elif isinstance(stmt, AssignmentStmt) and any(
                    isinstance(t, NameExpr) and t.name == name for t in stmt.lvalues
                ):
                    found = stmt
            if found is not None:
                return found if isinstance(found, FuncDef) and _runs_when_called(found) else None
            bases = current.base_type_exprs + current.removed_base_type_exprs
            if len(bases) != 1 or current.keywords or not isinstance(bases[0], NameExpr):
                return None
            current = self.classes.get(bases[0].name)
        return None


def _stored(target: Expression) -> set[str]:
    if isinstance(target, NameExpr):
        return {target.name}
    if isinstance(target, TupleExpr | ListExpr):
        return set().union(*(_stored(e) for e in target.items)) if target.items else set()
    if isinstance(target, StarExpr):
        return _stored(target.expr)
    return set()


def _static_method(lowerer: FunctionLowerer, owner: NameExpr, name: str, classes: ModuleClasses) -> FuncDef | None:
    """`Class.name` of a top-level class not shadowed here, when its body defines `name` as a plain function whose
    only decorator is `@staticmethod` (the CLI's rule)."""
    cls = classes.classes.get(owner.name)
    if cls is None or owner.node is not cls.info:
        return None
    found: Node | None = None
    for stmt in cls.defs.body:
        if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef) and stmt.name == name:
            found = stmt
    if not isinstance(found, Decorator) or len(found.original_decorators) != 1:
        return None
    decorator = found.original_decorators[0]
    if not (isinstance(decorator, NameExpr) and decorator.name == "staticmethod"):
        return None
    func = found.func
    if func.is_coroutine or func.is_generator:
        return None
    suspends = any(isinstance(n, AwaitExpr | YieldExpr | YieldFromExpr) for n in tree.walk_many(func.body.body))
    return None if suspends else func


def _bound_only_to_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ClassDef | None:
    node = lowerer.unit.node
    body = node.defs if isinstance(node, MypyFile) else node.body.body
    found: ClassDef | None = None
    for sub in tree.walk_many(list(body)):
        if isinstance(sub, AssignmentStmt):
            if not any(isinstance(t, NameExpr) and t.name == name for t in sub.lvalues):
                if any(name in _stored(t) for t in sub.lvalues):
                    return None
                continue
            value = sub.rvalue
            if (
                len(sub.lvalues) != 1
                or not isinstance(value, CallExpr)
                or not isinstance(value.callee, NameExpr)
                or value.callee.name not in classes.classes
                or (found is not None and found.name != value.callee.name)
            ):
                return None
            found = classes.classes[value.callee.name]
        elif isinstance(sub, OperatorAssignmentStmt):
            if name in _stored(sub.lvalue):
                return None
        elif isinstance(sub, ForStmt):
            if name in _stored(sub.index):
                return None
        elif isinstance(sub, AssignmentExpr):
            if name in _stored(sub.target):
                return None
        elif isinstance(sub, DelStmt):
            if name in _stored(sub.expr):
                return None
        elif isinstance(sub, WithStmt):
            if any(t is not None and name in _stored(t) for t in sub.target):
                return None
        elif isinstance(sub, TryStmt):
            if any(v is not None and v.name == name for v in sub.vars):
                return None
        elif isinstance(sub, FuncDef | Decorator | OverloadedFuncDef | ClassDef) and sub.name == name:
            return None
        elif isinstance(sub, Import | ImportFrom | ImportAll) and name in _imported(sub):
            return None
    return found


def _imported(node: Import | ImportFrom | ImportAll) -> set[str]:
    if isinstance(node, Import):
        return {alias or module.split(".")[0] for module, alias in node.ids}
    if isinstance(node, ImportFrom):
        return {alias or original for original, alias in node.names}
    return set()


def _receiver_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ClassDef | None:
    node = lowerer.unit.node
    if isinstance(node, FuncDef):
        owner = classes.owner.get(id(node))
        arguments = node.arguments
        if (
            owner is not None
            and not node.is_decorated
            and arguments
            and arguments[0].kind in _POSITIONAL
            and arguments[0].variable.name == name
        ):
            return owner
        for arg in arguments:
            if arg.variable.name == name:
                note = arg.type_annotation
                if arg.kind in (*_POSITIONAL, *_KEYWORD_ONLY) and note is not None:
                    text = getattr(note, "name", None)
                    if isinstance(text, str) and text in classes.classes and not getattr(note, "args", ()):
                        return classes.classes[text]
                return None
    elif isinstance(node, LambdaExpr):
        return None
    return _bound_only_to_class(lowerer, name, classes)


def applied_summary(
    lowerer: FunctionLowerer,
    node: CallExpr,
    method: calls.MethodCall[Expression] | None,
    args: tuple[calls.Operand[Expression], ...],
) -> AppliedSummary[Expression] | None:
    """The summary of the function or method `node` calls, with its parameters bound, when the checker sees it."""
    if lowerer.kernel_body:
        return None
    func = node.callee
    classes = lowerer.ctx.classes
    receiver: calls.Operand[Expression] | None = None
    nested = False
    if isinstance(func, NameExpr):
        found = lowerer.helper(func)
        if found is None or not _runs_when_called(found):
            return None
        callee = found
        nested = id(found) in lowerer.helpers
    elif isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr) and method is not None:
        if method.receiver_kernel is not None or method.receiver_is_safekernels:
            return None
        static = _static_method(lowerer, func.expr, func.name, classes)
        if static is not None:
            return _applied(lowerer, static, None, False, args)
        cls = _receiver_class(lowerer, func.expr.name, classes)
        method_def = classes.method(cls, func.name) if cls is not None else None
        if method_def is None:
            return None
        callee, receiver = method_def, method.receiver
    else:
        return None
    return _applied(lowerer, callee, receiver, nested, args)


def _applied(
    lowerer: FunctionLowerer,
    callee: FuncDef,
    receiver: calls.Operand[Expression] | None,
    nested: bool,
    args: tuple[calls.Operand[Expression], ...],
) -> AppliedSummary[Expression] | None:
    """The summary of `callee`, with the call's operands bound to its parameters (`receiver` to the first)."""
    classes = lowerer.ctx.classes
    positional = [a.variable.name for a in callee.arguments if a.kind in _POSITIONAL]
    keyword_only = [a.variable.name for a in callee.arguments if a.kind in _KEYWORD_ONLY]
    receiver_param = positional[0] if receiver is not None and positional else None
    device = frozenset(lowerer.device) if nested else frozenset()

    def compute() -> CallSummary | None:
        # every parameter but the receiver counts as a device value (see `CallSummary`)
        plain = frozenset(p for p in (*positional, *keyword_only) if p != receiver_param)
        outer = device | plain
        unit = type(lowerer.unit)(callee, "function", lambda: outer, None, f"{callee.name} (call summary)")
        function = type(lowerer)(lowerer.ctx, unit).lower()
        return call_summary(function, [*positional, *keyword_only], receiver_param, callee.name)

    summary = classes.memo.get(id(callee), compute)
    if summary is None:
        return None
    return AppliedSummary(summary, bind_parameters(positional, keyword_only, args, receiver))
