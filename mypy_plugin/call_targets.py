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
    Statement,
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
        self._runs: dict[int, bool] = {}
        self._instances: dict[int, dict[str, ClassDef | None]] = {}

    def runs_when_called(self, func: FuncItem) -> bool:
        """`_runs_when_called`, once per function (a call site asks again for every call of it)."""
        known = self._runs.get(id(func))
        if known is None:
            known = self._runs[id(func)] = _runs_when_called(func)
        return known

    def instances(self, body_owner: Node, body: list[Statement]) -> dict[str, ClassDef | None]:
        """`_instance_classes` of one body, walked once however many method calls it makes."""
        known = self._instances.get(id(body_owner))
        if known is None:
            known = self._instances[id(body_owner)] = _instance_classes(body, self)
        return known

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
                return found if isinstance(found, FuncDef) and self.runs_when_called(found) else None
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


def _instance_classes(body: list[Statement], classes: ModuleClasses) -> dict[str, ClassDef | None]:
    """For every name the body binds, the class it is an instance of when the body binds it only by
    `name = Class(...)` (one class), else None: one walk answers every name."""
    found: dict[str, ClassDef | None] = {}
    poisoned: set[str] = set()
    for sub in tree.walk_many(body):
        if isinstance(sub, AssignmentStmt):
            value = sub.rvalue
            cls = (
                classes.classes.get(value.callee.name)
                if len(sub.lvalues) == 1 and isinstance(value, CallExpr) and isinstance(value.callee, NameExpr)
                else None
            )
            for t in sub.lvalues:
                if isinstance(t, NameExpr):
                    previous = found.get(t.name)
                    if cls is None or (previous is not None and previous.name != cls.name):
                        poisoned.add(t.name)
                    else:
                        found[t.name] = cls
                else:
                    poisoned.update(_stored(t))
        elif isinstance(sub, OperatorAssignmentStmt):
            poisoned.update(_stored(sub.lvalue))
        elif isinstance(sub, ForStmt):
            poisoned.update(_stored(sub.index))
        elif isinstance(sub, AssignmentExpr):
            poisoned.update(_stored(sub.target))
        elif isinstance(sub, DelStmt):
            poisoned.update(_stored(sub.expr))
        elif isinstance(sub, WithStmt):
            for item in sub.target:
                if item is not None:
                    poisoned.update(_stored(item))
        elif isinstance(sub, TryStmt):
            poisoned.update(v.name for v in sub.vars if v is not None)
        elif isinstance(sub, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
            poisoned.add(sub.name)
        elif isinstance(sub, Import | ImportFrom | ImportAll):
            poisoned.update(_imported(sub))
    return {name: (None if name in poisoned else cls) for name, cls in found.items()}


def _bound_only_to_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ClassDef | None:
    if not classes.classes:
        return None  # no class of this module to be an instance of: no need to walk the body
    node = lowerer.unit.node
    body = node.defs if isinstance(node, MypyFile) else node.body.body
    return classes.instances(node, list(body)).get(name)


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
        if found is None or not classes.runs_when_called(found):
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
