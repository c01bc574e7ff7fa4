"""What a statement does with the places it names, read off mypy's tree for `core.keyed_items` (the CLI reads the
same off Python's `ast`: `ownership_check.frontend.keyed_mentions`).

A place is only read (`bufs["a"]`, `bufs.get(k)`, `len(bufs)`, an attribute of it), is an assignment target, or is
handed on (a call argument, the receiver of another method, a store under a computed key, an alias taken).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mypy.nodes import (
    AssertStmt,
    AssertTypeExpr,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    CallExpr,
    CastExpr,
    ClassDef,
    ConditionalExpr,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    GlobalDecl,
    IfStmt,
    Import,
    ImportFrom,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    RaiseStmt,
    ReturnStmt,
    SetComprehension,
    SetExpr,
    StarExpr,
    Statement,
    StrExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    UnaryExpr,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)

from mypy_plugin import tree
from ownership_check.core.keyed_items import BOUND, HANDED, READ, READING_METHODS, Mention, param_key, reading_call

#: The lowering's builtin lookup: the builtin a callee names, or None (shadowed or not a builtin).
Builtin = Callable[[Expression], "str | None"]

_FUNCTIONS = (FuncDef, Decorator, OverloadedFuncDef, LambdaExpr)


def _key(expr: Node, params: frozenset[str] = frozenset()) -> int | str | None:
    """A subscript's literal key, or `keyed_items.param_key` of a parameter in `params` (the CLI's `_key`)."""
    if isinstance(expr, NameExpr) and expr.name in params:
        return param_key(expr.name)
    if isinstance(expr, StrExpr):
        return expr.value
    if isinstance(expr, IntExpr):
        return expr.value
    if isinstance(expr, UnaryExpr) and expr.op == "-" and isinstance(expr.expr, IntExpr):
        return -expr.expr.value
    return None


def read_keys(body: Sequence[Statement], params: frozenset[str] = frozenset()) -> dict[str, frozenset[int | str]]:
    """The literal keys this body reads or stores under, by container dotted text (`{"bufs": {"a", "b"}}`); a
    parameter in `params` is a key too (the CLI's)."""
    found: dict[str, set[int | str]] = {}
    for node in tree.walk_many(body):
        if isinstance(node, IndexExpr) and (key := _key(node.index, params)) is not None:
            text = tree.dotted(node.base)
            if text is not None:
                found.setdefault(text, set()).add(key)
    return {text: frozenset(keys) for text, keys in found.items()}


def captured_names(body: Sequence[Statement]) -> frozenset[str]:
    """Names a nested function or lambda of this body refers to (calling it later may change what they hold), and
    names it declares `global` or `nonlocal`."""
    names: set[str] = set()
    for node in tree.walk_many(body):
        if isinstance(node, GlobalDecl | NonlocalDecl):
            names.update(node.names)
        if isinstance(node, _FUNCTIONS):
            inner = node.func if isinstance(node, Decorator) else node
            funcs: list[FuncItem] = []
            if isinstance(inner, OverloadedFuncDef):
                funcs = [item.func if isinstance(item, Decorator) else item for item in inner.items]
            elif isinstance(inner, FuncDef | LambdaExpr):
                funcs = [inner]
            for func in funcs:
                own = _own_locals(func)
                names.update(
                    sub.name for sub in tree.walk(func.body, skip_scopes=False)
                    if isinstance(sub, NameExpr) and sub.name not in own
                )
    return frozenset(names)


def _own_locals(func: FuncItem) -> frozenset[str]:
    """The names local to the nested function `func` itself: its parameters and what its own body binds (not
    declared `nonlocal`/`global`); a mention of one there is never the caller's name.  A comprehension's targets
    are its own scope's: not counted (the CLI's `_own_locals`)."""
    found = {arg.variable.name for arg in func.arguments}
    declared: set[str] = set()
    for node in tree.walk(func.body):
        if isinstance(node, GlobalDecl | NonlocalDecl):
            declared.update(node.names)
        elif isinstance(node, TryStmt):
            found.update(v.name for v in node.vars if v is not None)
        elif isinstance(node, Import):
            found.update((alias or name).split(".")[0] for name, alias in node.ids)
        elif isinstance(node, ImportFrom):
            found.update(alias or name for name, alias in node.names)
        elif isinstance(node, FuncDef | Decorator | OverloadedFuncDef | ClassDef) and node is not func:
            found.add(node.name)
        elif not isinstance(node, GeneratorExpr | DictionaryComprehension):
            found.update(leaf.name for leaf in tree.stored_leaves(node) if isinstance(leaf, NameExpr))
    return frozenset(found - declared)


class _Mentions:
    def __init__(self, builtin: Builtin, reading: Callable[[CallExpr], frozenset[str] | None] | None = None) -> None:
        self.builtin = builtin
        self.reading = reading  # the receiver's attributes a method of the module's classes may change, if known
        self.found: list[Mention] = []

    def uses(self, node: Node | None, how: str) -> None:
        """`node` evaluated where its value is used `how` (read, or handed on)."""
        if node is None or isinstance(node, TempNode):
            return
        text = tree.dotted(node)
        if text is not None:
            self.found.append(Mention(text, how))
        elif isinstance(node, MemberExpr):
            self.uses(node.expr, READ)
        elif isinstance(node, IndexExpr):
            self.uses(node.base, READ)
            self.uses(node.index, READ)
        elif isinstance(node, CallExpr):
            self.call(node)
        elif isinstance(node, ConditionalExpr):
            self.uses(node.cond, READ)
            self.uses(node.if_expr, how)
            self.uses(node.else_expr, how)
        elif isinstance(node, OpExpr) and node.op in ("and", "or"):
            self.uses(node.left, how)
            self.uses(node.right, how)
        elif isinstance(node, TupleExpr | ListExpr | SetExpr):
            for item in node.items:
                self.uses(item, how)
        elif isinstance(node, StarExpr):
            self.uses(node.expr, how)
        elif isinstance(node, DictExpr):
            keys = [key for key, _ in node.items if key is not None]
            for child in (*keys, *(value for _, value in node.items)):
                self.uses(child, how)
        elif isinstance(node, AssignmentExpr):
            self.target(node.target)
            self.uses(node.value, HANDED)
        elif isinstance(node, LambdaExpr):
            self.uses(node.expr(), HANDED)
        elif isinstance(node, AwaitExpr | YieldExpr | YieldFromExpr | CastExpr | AssertTypeExpr):
            self.uses(node.expr, HANDED)
        elif isinstance(node, ListComprehension | SetComprehension):
            self.uses(node.generator, how)
        elif isinstance(node, GeneratorExpr | DictionaryComprehension):
            for index, sequence, conditions in zip(node.indices, node.sequences, node.condlists, strict=True):
                self.target(index)
                self.uses(sequence, READ)
                for test in conditions:
                    self.uses(test, READ)
            parts = (node.key, node.value) if isinstance(node, DictionaryComprehension) else (node.left_expr,)
            for part in parts:
                self.uses(part, HANDED)
        else:  # comparisons, arithmetic, slices: their operands are only read
            for operand in tree.children(node):
                self.uses(operand, READ)

    def target(self, node: Node | None, deleting: bool = False) -> None:
        """An assignment (or `del`) target, as the CLI reads one."""
        if node is None:
            return
        text = tree.dotted(node)
        if text is not None:
            self.found.append(Mention(text, BOUND))
        elif isinstance(node, IndexExpr):
            self.uses(node.base, READ if _key(node.index) is not None and not deleting else HANDED)
            self.uses(node.index, READ)
        elif isinstance(node, TupleExpr | ListExpr):
            for item in node.items:
                self.target(item, deleting)
        elif isinstance(node, StarExpr):
            self.target(node.expr, deleting)
        elif isinstance(node, MemberExpr):
            self.uses(node.expr, READ)

    def call(self, node: CallExpr) -> None:
        callee = node.callee
        name = self.builtin(callee) if isinstance(callee, NameExpr) else tree.dotted(callee)
        how = READ if reading_call(name) else HANDED
        if isinstance(callee, MemberExpr) and isinstance(callee.expr, StrExpr):
            how = READ  # `"{}".format(x)` (an f-string, as mypy reads it), `", ".join(names)`
        if isinstance(callee, MemberExpr):
            changed = self.reading(node) if self.reading is not None else None
            self.uses(callee.expr, READ if callee.name in READING_METHODS or changed is not None else HANDED)
            receiver = tree.dotted(callee.expr) if changed else None
            if receiver is not None:  # a method storing into some attributes of its receiver only (the CLI's)
                self.found.extend(Mention(f"{receiver}.{attr}", HANDED) for attr in sorted(changed or ()))
        else:
            self.uses(callee, READ)
        for arg in node.args:
            self.uses(arg, how)

    def statement(self, node: Statement) -> None:
        if isinstance(node, AssignmentStmt):
            for target in node.lvalues:
                self.target(target)
            self.uses(node.rvalue, HANDED)
        elif isinstance(node, OperatorAssignmentStmt):
            self.target(node.lvalue)
            self.uses(node.rvalue, HANDED)
        elif isinstance(node, ReturnStmt):
            self.uses(node.expr, HANDED)
        elif isinstance(node, DelStmt):
            self.target(node.expr, deleting=True)
        elif isinstance(node, ExpressionStmt):
            self.uses(node.expr, READ)
        elif isinstance(node, IfStmt | WhileStmt):
            for test in node.expr if isinstance(node, IfStmt) else [node.expr]:
                self.uses(test, READ)
        elif isinstance(node, ForStmt):
            self.target(node.index)
            self.uses(node.expr, READ)
        elif isinstance(node, WithStmt):
            for context, bound in zip(node.expr, node.target, strict=True):
                self.uses(context, HANDED)
                self.target(bound)
        elif isinstance(node, MatchStmt):
            self.uses(node.subject, READ)
        elif isinstance(node, RaiseStmt):
            self.uses(node.expr, READ)
            self.uses(node.from_expr, READ)
        elif isinstance(node, AssertStmt):
            self.uses(node.expr, READ)
            self.uses(node.msg, READ)


def mentions(
    node: Statement, builtin: Builtin, reading: Callable[[CallExpr], frozenset[str] | None] | None = None
) -> list[Mention]:
    """The places `node` names and how (`keyed_items.Mention`); for a compound statement, those of its header
    (the CLI's `mentions`)."""
    walker = _Mentions(builtin, reading)
    walker.statement(node)
    return walker.found


def compound(node: Statement) -> bool:
    """Whether `node` has a body of its own (its header's changes come before the body runs)."""
    return isinstance(node, IfStmt | WhileStmt | ForStmt | WithStmt | MatchStmt | TryStmt | Block)
