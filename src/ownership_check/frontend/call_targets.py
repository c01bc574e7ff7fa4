"""Which function or method of this module a call runs (CLI front end), and its call summary.

The rules are syntactic and the mypy plugin applies the same ones (`mypy_plugin/call_targets.py`), so both report
the same: a callee is a plain (undecorated, non-async, non-generator) function of this module or of the calling
body, called by its name; or a method of a class defined at the module's top level, called on a name that is
`self` in one of that class's methods, a parameter annotated with the class, or a local name bound only by
`name = Class(...)`; or a `@staticmethod` of such a class called on the class's name (`Ops.add_into(a, a, b)`).
A method is looked up in the class's body, then along a chain of single bases that are such classes.  Anything
else (calls through variables, callables from other modules, other decorated functions, `async def`, generators,
constructors) stays an ordinary call: see docs/checker.md.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ownership_check.core import calls
from ownership_check.core.call_effects import AppliedSummary, CallSummary, SummaryMemo, bind_parameters
from ownership_check.core.summarize import call_summary

if TYPE_CHECKING:
    from ownership_check.frontend.ast_lowering import FunctionLowerer

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _walk_body(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of a body, not entering nested functions, classes or lambdas."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _runs_when_called(node: ast.AST) -> bool:
    """A plain function whose body runs at the call (not `async def`, not a generator)."""
    if not isinstance(node, ast.FunctionDef) or node.decorator_list:
        return False
    return not any(isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await) for sub in _walk_body(node.body))


class ModuleClasses:
    """The module's top-level classes and the owner of each of their methods (built once per file)."""

    def __init__(self, module: ast.Module) -> None:
        self.classes: dict[str, ast.ClassDef] = {}
        self.owner: dict[int, ast.ClassDef] = {}
        for stmt in module.body:
            if isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
                for sub in stmt.body:
                    if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                        self.owner[id(sub)] = stmt
        self.memo = SummaryMemo()
        self._runs: dict[int, bool] = {}
        self._instances: dict[int, dict[str, ast.ClassDef | None]] = {}

    def runs_when_called(self, node: ast.AST) -> bool:
        """`_runs_when_called`, once per function (a call site asks again for every call of it)."""
        known = self._runs.get(id(node))
        if known is None:
            known = self._runs[id(node)] = _runs_when_called(node)
        return known

    def instances(self, body_owner: ast.AST, body: list[ast.stmt]) -> dict[str, ast.ClassDef | None]:
        """`_instance_classes` of one body, walked once however many method calls it makes."""
        known = self._instances.get(id(body_owner))
        if known is None:
            known = self._instances[id(body_owner)] = _instance_classes(body, self)
        return known

    def method(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        seen: set[str] = set()
        current: ast.ClassDef | None = cls
        while current is not None and current.name not in seen:
            seen.add(current.name)
            found: ast.AST | None = None
            for stmt in current.body:
                if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == name:
                    found = stmt
                elif isinstance(stmt, ast.Assign | ast.AnnAssign) and any(
                    isinstance(t, ast.Name) and t.id == name
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                ):
                    found = stmt
            if found is not None:
                return found if isinstance(found, ast.FunctionDef) and self.runs_when_called(found) else None
            bases = current.bases
            if len(bases) != 1 or current.keywords or not isinstance(bases[0], ast.Name):
                return None
            current = self.classes.get(bases[0].id)
        return None


def _static_method(lowerer: FunctionLowerer, owner: str, name: str, classes: ModuleClasses) -> ast.FunctionDef | None:
    """`Class.name` of a top-level class not shadowed here, when its body defines `name` as a plain function
    whose only decorator is `@staticmethod`: its body runs at the call, with no receiver."""
    cls = classes.classes.get(owner)
    if cls is None or (owner in lowerer.local_names and lowerer.unit.kind != "module"):
        return None
    found: ast.AST | None = None
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == name:
            found = stmt
    if not isinstance(found, ast.FunctionDef) or len(found.decorator_list) != 1:
        return None
    decorator = found.decorator_list[0]
    if not (isinstance(decorator, ast.Name) and decorator.id == "staticmethod"):
        return None
    suspends = any(isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await) for sub in _walk_body(found.body))
    return None if suspends else found


def _instance_classes(body: list[ast.stmt], classes: ModuleClasses) -> dict[str, ast.ClassDef | None]:
    """For every name the body binds, the class it is an instance of when the body binds it only by
    `name = Class(...)` (one class), else None: one walk answers every name."""
    found: dict[str, ast.ClassDef | None] = {}
    poisoned: set[str] = set()
    for sub in _walk_body(body):
        if isinstance(sub, ast.Assign | ast.AnnAssign):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            value = sub.value
            cls = (
                classes.classes.get(value.func.id)
                if len(targets) == 1 and isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                else None
            )
            for t in targets:
                if isinstance(t, ast.Name):
                    previous = found.get(t.id)
                    if cls is None or (previous is not None and previous.name != cls.name):
                        poisoned.add(t.id)
                    else:
                        found[t.id] = cls
                else:
                    poisoned.update(_stored(t))
        elif isinstance(sub, ast.AugAssign | ast.For | ast.AsyncFor | ast.NamedExpr | ast.Delete | ast.With):
            for bound in _binding_targets(sub):
                poisoned.update(_stored(bound))
        elif isinstance(sub, ast.ExceptHandler) and sub.name is not None:
            poisoned.add(sub.name)
        elif isinstance(sub, _SCOPES) and not isinstance(sub, ast.Lambda):
            poisoned.add(sub.name)
        elif isinstance(sub, ast.Import | ast.ImportFrom):
            poisoned.update(a.asname or a.name.split(".")[0] for a in sub.names)
    return {name: (None if name in poisoned else cls) for name, cls in found.items()}


def _bound_only_to_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ast.ClassDef | None:
    """The class `name` is an instance of when this body binds it only by `name = Class(...)`."""
    if not classes.classes:
        return None  # no class of this module to be an instance of: no need to walk the body
    node = lowerer.unit.node
    return classes.instances(node, node.body).get(name)


def _binding_targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.NamedExpr):
        return [node.target]
    if isinstance(node, ast.Delete):
        return list(node.targets)
    if isinstance(node, ast.With):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    return []


def _stored(target: ast.AST) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Tuple | ast.List):
        return set().union(*(_stored(e) for e in target.elts)) if target.elts else set()
    if isinstance(target, ast.Starred):
        return _stored(target.value)
    return set()


def _receiver_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ast.ClassDef | None:
    node = lowerer.unit.node
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        owner = classes.owner.get(id(node))
        if owner is not None and positional and positional[0].arg == name and not node.decorator_list:
            return owner
        for param in [*positional, *args.kwonlyargs]:
            if param.arg == name:
                note = param.annotation
                text = note.id if isinstance(note, ast.Name) else None
                if isinstance(note, ast.Constant) and isinstance(note.value, str):
                    text = note.value
                if text is not None and text in classes.classes:
                    return classes.classes[text]
                return None
        if args.vararg is not None and args.vararg.arg == name:
            return None
        if args.kwarg is not None and args.kwarg.arg == name:
            return None
    return _bound_only_to_class(lowerer, name, classes)


def applied_summary(
    lowerer: FunctionLowerer,
    node: ast.Call,
    method: calls.MethodCall[ast.expr] | None,
    args: tuple[calls.Operand[ast.expr], ...],
) -> AppliedSummary[ast.expr] | None:
    """The summary of the function or method `node` calls, with its parameters bound, when the checker sees it."""
    if lowerer.kernel_body:
        return None
    func = node.func
    classes = lowerer.ctx.classes
    receiver: calls.Operand[ast.expr] | None = None
    if isinstance(func, ast.Name):
        callee = lowerer.helper(func.id)
        if callee is None or not classes.runs_when_called(callee):
            return None
        nested = func.id in lowerer.helpers
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and method is not None:
        if method.receiver_kernel is not None or method.receiver_is_safekernels:
            return None
        static = _static_method(lowerer, func.value.id, func.attr, classes)
        if static is not None:
            callee, nested = static, False
            return _applied(lowerer, callee, None, nested, args)
        cls = _receiver_class(lowerer, func.value.id, classes)
        found = classes.method(cls, func.attr) if cls is not None else None
        if found is None:
            return None
        callee, receiver, nested = found, method.receiver, False
    else:
        return None
    return _applied(lowerer, callee, receiver, nested, args)


def _applied(
    lowerer: FunctionLowerer,
    callee: ast.AST,
    receiver: calls.Operand[ast.expr] | None,
    nested: bool,
    args: tuple[calls.Operand[ast.expr], ...],
) -> AppliedSummary[ast.expr] | None:
    """The summary of `callee`, with the call's operands bound to its parameters (`receiver` to the first)."""
    classes = lowerer.ctx.classes
    assert isinstance(callee, ast.FunctionDef)
    positional = [p.arg for p in (*callee.args.posonlyargs, *callee.args.args)]
    keyword_only = [p.arg for p in callee.args.kwonlyargs]
    receiver_param = positional[0] if receiver is not None and positional else None
    device = frozenset(lowerer.device) if nested else frozenset()
    kernels = dict(lowerer.kernels) if nested else {}

    def compute() -> CallSummary | None:
        # every parameter but the receiver counts as a device value (see `CallSummary`)
        plain = frozenset(p for p in (*positional, *keyword_only) if p != receiver_param)
        owner = classes.owner.get(id(callee)) if receiver is not None else None
        # a method starts, as when it is checked itself, with the prepared launches `__init__` stored on `self`
        brands = lowerer.init_brands(owner) if owner is not None and callee.name != "__init__" else {}
        name = f"{callee.name} (call summary)"
        unit = type(lowerer.unit)(name, callee, "function", device | plain, kernels, class_brands=brands)
        function = type(lowerer)(lowerer.ctx, unit).lower()
        return call_summary(function, [*positional, *keyword_only], receiver_param, callee.name)

    summary = classes.memo.get(id(callee), compute)
    if summary is None:
        return None
    return AppliedSummary(summary, bind_parameters(positional, keyword_only, args, receiver))
