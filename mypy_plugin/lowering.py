"""The adapter: mypy's semantically analyzed AST of one function (or module top level) -> the core's flow IR.

It lowers exactly as the CLI front end does (`ownership_check.frontend.ast_lowering`, same operations, same order,
same spans), because both front ends must report the same diagnostics on the same code: what calls, assignments and
`with` statements mean is decided once, in `ownership_check.core.calls`, from the neutral shapes both front ends
build (the two remaining differences are named by `calls.Dialect`); the front ends differ in how names are
resolved.  mypy already resolved every name, so the adapter reads its answers (`RefExpr.fullname`, `NameExpr.node`,
analyzed kernel signatures; see `resolve`) instead of an import table.  It never reads expression *types*: it runs
from inside a call hook, before the statements after that call have been type checked.

Compiled mypy forbids subclassing its AST visitors, so this is a plain `isinstance` walk in evaluation order.
Which call does what to ownership comes from `safekernels.ownership_model` through `core.calls`; whether that is an
error is the core's business.

Besides the IR, the adapter records which call (or subscript) expression produced each *cause* operation: a move,
a borrow, a brand check, an unsafe requirement, an element access.  The hook of a call reports exactly the
diagnostics caused there (see `reporting`), so each diagnostic has one owner, however many hooks fire in the
function and however often mypy re-checks it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeAlias

from mypy.nodes import (
    ARG_NAMED,
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    GDEF,
    ArgKind,
    AssertStmt,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    BreakStmt,
    BytesExpr,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ComplexExpr,
    ConditionalExpr,
    ContinueStmt,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    EllipsisExpr,
    Expression,
    ExpressionStmt,
    FloatExpr,
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
    MypyFile,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    PassStmt,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    SuperExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    UnaryExpr,
    Var,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.patterns import (
    AsPattern,
    ClassPattern,
    MappingPattern,
    Pattern,
    SequencePattern,
    StarredPattern,
    ValuePattern,
)
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    TupleType,
    Type,
    TypeAliasType,
    UnionType,
    get_proper_type,
)

from mypy_plugin import keyed_mentions, resolve, static_iterables, tree
from mypy_plugin.bump_shape import bump_buffer, bump_events
from mypy_plugin.call_targets import (
    PROPERTY_DECORATORS,
    ModuleClasses,
    applied_callee,
    applied_summary,
    attribute_registries,
    bound_targets,
    called_classes,
    class_kernel,
    constructor_summary,
    context_methods,
    generated_fields,
    held_accessors,
    held_object_method,
    method_summaries,
    module_registries,
    phase_summary,
    property_summary,
    receiver_accessors,
    receiver_class,
    receiver_classes,
    receiver_items,
    receiver_property,
    static_method,
    subclass_kernels,
    view_receiver_classes,
)
from mypy_plugin.computed_reads import dotted as computed_dotted
from mypy_plugin.computed_reads import index_form, item_statement
from mypy_plugin.item_changes import EVERY, changed_items
from mypy_plugin.kernel_choices import KernelTable, kernel_tables, keyed_rows, name_choices, subscript_choices
from mypy_plugin.memo_shape import MemoParams, cached_value, memo_params
from ownership_check.core import (
    callables,
    calls,
    init_state,
    ir,
    keyed_items,
    parameter_defaults,
    reentry,
    static_rows,
    stdlib_flow,
    throwing,
    view_bounds,
)
from ownership_check.core.bound_once import bound_once
from ownership_check.core.bump_alloc import bump_sequences
from ownership_check.core.call_effects import (
    AppliedSummary,
    Gathered,
    GeneratedInit,
    apply_summary,
    iterated_fields,
    one_line_site,
)
from ownership_check.core.checker import effect_names, nonlocal_effects
from ownership_check.core.computed_items import ComputedItems, one_place
from ownership_check.core.identity_memo import IdentityMemo
from ownership_check.core.memo import (
    MemoKey,
    MemoToken,
    earlier_runs,
    keyword_token,
    literal_token,
    memo_place,
    memo_result,
    memoizing_decorator,
    returns_shared,
    runs_again,
)
from ownership_check.diagnostics import Span
from safekernels.ownership_model import (
    ALIASING_FUNCTIONS,
    ALIASING_METHODS,
    CALLBACK_METHODS,
    DEVICE_ANNOTATIONS,
    DEVICE_DECORATOR,
    PREPARE_METHOD,
    SHARED_ARRAY_ANNOTATIONS,
    SHARED_ARRAY_CONSTRUCTOR,
    SHARED_OP_ANNOTATIONS,
    UNSAFE_CONTEXT,
    launch_form,
)

#: Statements that are one step for the exception edges inside a `try` or `with` body (`ir.step`).
_STEP_STATEMENTS = (ExpressionStmt, AssignmentStmt, OperatorAssignmentStmt)

#: How this front end lowered before the core owned call lowering (see `calls.Dialect`).
DIALECT = calls.Dialect(launch_move_events=calls.GROUP_LAUNCH_MOVES)

#: Units whose bodies are kernel code (never host code): no host moves, launches or borrows happen there.
KERNEL_UNIT_KINDS = ("simt", "tile", "device")

#: How deep an operand's expression is followed to the places it may evaluate to (nested conditionals, helpers).
_CHOICE_DEPTH = 6


def _substituted(value: Expression, names: Mapping[str, Expression], at: Expression) -> Expression | None:
    """`value`, a place expression of a callee, with the callee's names replaced by the caller's expressions and
    the caller's location (the CLI's `_substituted`)."""
    made: Expression
    if isinstance(value, NameExpr):
        return names.get(value.name)
    if isinstance(value, MemberExpr):
        base = _substituted(value.expr, names, at)
        if base is None:
            return None
        made = MemberExpr(base, value.name)
    elif isinstance(value, IndexExpr):
        base = _substituted(value.base, names, at)
        index = _substituted_key(value.index, names, at)
        if base is None or index is None:
            return None
        made = IndexExpr(base, index)
    else:
        return None
    made.set_line(at)
    return made


def _substituted_key(key: Expression, names: Mapping[str, Expression], at: Expression) -> Expression | None:
    """A callee's item key in the caller's terms (the CLI's `_substituted_key`): literals as they are, names and
    their attributes the caller's reads, arithmetic over them the same arithmetic."""
    if isinstance(key, StrExpr | IntExpr):
        return key
    if isinstance(key, NameExpr | MemberExpr):
        return _substituted(key, names, at)
    made: Expression | None
    if isinstance(key, OpExpr) and key.op not in ("and", "or"):
        left, right = _substituted_key(key.left, names, at), _substituted_key(key.right, names, at)
        made = OpExpr(key.op, left, right) if left is not None and right is not None else None
    elif isinstance(key, UnaryExpr):
        operand = _substituted_key(key.expr, names, at)
        made = UnaryExpr(key.op, operand) if operand is not None else None
    else:
        return None
    if made is not None:
        made.set_line(at)
    return made


def _receiver_changes(func: FuncItem, allocates: Callable[[Expression], bool]) -> frozenset[str] | None:
    """The attributes of its receiver a method may change (the CLI's `_receiver_changes`)."""
    if func.is_coroutine or not func.arguments:
        return None
    receiver = func.arguments[0].variable.name
    changed: set[str] = set()
    for node in tree.walk(func.body):
        builtin = node.callee.fullname if isinstance(node, CallExpr) and isinstance(node.callee, NameExpr) else ""
        if isinstance(node, CallExpr) and not allocates(node) and not (
            builtin.startswith("builtins.") and builtin.removeprefix("builtins.") in calls.READING_BUILTINS
        ):
            return None
        if isinstance(node, DelStmt | GlobalDecl | NonlocalDecl | YieldExpr | YieldFromExpr | AwaitExpr):
            return None
        if isinstance(node, AssignmentStmt | OperatorAssignmentStmt):
            targets = node.lvalues if isinstance(node, AssignmentStmt) else [node.lvalue]
            for target in _flat_stores(targets):
                path: list[str] = []
                cur: Expression = target
                while isinstance(cur, MemberExpr | IndexExpr):
                    if isinstance(cur, MemberExpr):
                        path.append(cur.name)
                    cur = cur.expr if isinstance(cur, MemberExpr) else cur.base
                if not (isinstance(cur, NameExpr) and cur.name == receiver and path):
                    return None
                changed.add(path[-1])
    return frozenset(changed)


def _flat_stores(targets: Sequence[Expression]) -> list[Expression]:
    """The attribute and item stores among assignment targets (tuple and starred targets flattened)."""
    out: list[Expression] = []
    for target in targets:
        if isinstance(target, TupleExpr | ListExpr):
            out.extend(_flat_stores(target.items))
        elif isinstance(target, StarExpr):
            out.extend(_flat_stores([target.expr]))
        elif isinstance(target, MemberExpr | IndexExpr):
            out.append(target)
    return out


def _literal_value(expr: Expression) -> bool:
    """Whether `expr` is a literal (the CLI's `ast.Constant`): a string, number, `...`, `None`, `True`, `False`."""
    return isinstance(expr, _LITERALS) or (isinstance(expr, NameExpr) and expr.name in calls.CONSTANT_NAMES)


def _constant_defaults(func: FuncItem) -> list[tuple[str, Expression]]:
    """The parameters whose default is a literal, with that default (the CLI's `_constant_defaults`)."""
    return [
        (arg.variable.name, arg.initializer)
        for arg in func.arguments
        if arg.initializer is not None and _literal_value(arg.initializer)
    ]


def _dead_none_returns(
    func: FuncItem, names: Mapping[str, Expression], never_none: Callable[[Expression], bool]
) -> set[int]:
    """The `return`s a top-level `if param is None: return ...` guard makes unreachable for a call passing a name
    for the parameter (the CLI's `_dead_none_returns`)."""
    dead: set[int] = set()
    for stmt in func.body.body:
        if not (isinstance(stmt, IfStmt) and stmt.else_body is None and len(stmt.body) == 1):
            continue
        test, block = stmt.expr[0], stmt.body[0]
        if len(block.body) != 1 or not isinstance(block.body[0], ReturnStmt) or len(stmt.expr) != 1:
            continue
        if not (isinstance(test, ComparisonExpr) and test.operators == ["is"]):
            continue
        if not isinstance(test.operands[0], NameExpr):
            continue
        right = test.operands[1]
        passed = names.get(test.operands[0].name)
        if isinstance(right, NameExpr) and right.name == "None" and passed is not None and never_none(passed):
            dead.add(id(block.body[0]))
    return dead


def _pure_argument(expr: Expression) -> bool:
    """Whether evaluating `expr` again has no effect (the CLI's `_pure_argument`)."""
    while isinstance(expr, MemberExpr):
        expr = expr.expr
    return isinstance(expr, NameExpr | StrExpr | IntExpr | FloatExpr)


def _reevaluable(expr: Expression) -> bool:
    """Whether reading `expr` again after a call gives the same objects (the CLI's `_reevaluable`)."""
    if _pure_argument(expr):
        return True
    if isinstance(expr, OpExpr):
        return _reevaluable(expr.left) and _reevaluable(expr.right)
    if isinstance(expr, ConditionalExpr):
        return _reevaluable(expr.cond) and _reevaluable(expr.if_expr) and _reevaluable(expr.else_expr)
    if isinstance(expr, UnaryExpr):
        return _reevaluable(expr.expr)
    if isinstance(expr, ComparisonExpr):
        return all(_reevaluable(o) for o in expr.operands)
    if isinstance(expr, IndexExpr):
        return _reevaluable(expr.base) and _reevaluable(expr.index)
    if isinstance(expr, TupleExpr):
        return all(_reevaluable(e) for e in expr.items)
    return False


def _may_be_none(expr: Expression) -> bool:
    """Whether a `_reevaluable` argument may evaluate to a literal `None` (the CLI's `_may_be_none`)."""
    if isinstance(expr, NameExpr):
        return expr.name == "None"
    if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
        return _may_be_none(expr.left) or _may_be_none(expr.right)
    if isinstance(expr, ConditionalExpr):
        return _may_be_none(expr.if_expr) or _may_be_none(expr.else_expr)
    if isinstance(expr, IndexExpr) and isinstance(expr.base, TupleExpr):
        return any(_may_be_none(e) for e in expr.base.items)
    return False


def _returned_params(
    func: FuncItem, yields: bool = False, allocates: Callable[[Expression], bool] | None = None
) -> tuple[str, ...] | None:
    """The parameters a plain function may return (`return y if c else x` -> `y, x`); None when some `return`
    gives anything else (or none returns): then its result is a fresh value to the checker.  With `yields`, the
    parameters a generator may yield; with `allocates`, a `return` of a new buffer adds `calls.NEW_VALUE` (the
    CLI's rule)."""
    params = {arg.variable.name for arg in func.arguments}
    found: list[str] = []
    returns = 0
    for node in tree.walk(func.body):
        if yields and isinstance(node, ReturnStmt) and node.expr is not None:
            return None
        if not isinstance(node, YieldExpr if yields else ReturnStmt):
            continue
        assert isinstance(node, YieldExpr | ReturnStmt)
        returns += 1
        stack: list[Expression | None] = [node.expr]
        while stack:
            value = stack.pop()
            if isinstance(value, NameExpr) and value.name in params:
                found.append(value.name)
            elif isinstance(value, ConditionalExpr):
                stack.extend((value.else_expr, value.if_expr))
            elif isinstance(value, OpExpr) and value.op in ("and", "or"):
                stack.extend((value.right, value.left))
            elif allocates is not None and value is not None and allocates(value):
                found.append(calls.NEW_VALUE)
            else:
                return None
    if not returns:
        return None
    # a parameter the body binds again may be returned as that new value (the CLI's rule)
    return None if _rebound_names(func).intersection(found) else tuple(dict.fromkeys(found))


def _returned_function(func: FuncItem) -> FuncItem | None:
    """The plain function a *function factory* returns (the CLI's `_returned_function`): every `return` gives one
    function defined in its body (`return step`, or `return lambda ...`), the same on every path; else None."""
    defined = {s.name: s for s in func.body.body if isinstance(s, FuncDef)}
    found: FuncItem | None = None
    for ret in tree.walk(func.body):
        if not isinstance(ret, ReturnStmt):
            continue
        value = ret.expr
        one: FuncItem
        if isinstance(value, NameExpr) and value.name in defined:
            one = defined[value.name]
        elif isinstance(value, LambdaExpr):
            one = value
        else:
            return None
        if found is not None and found is not one:
            return None
        found = one
    bound = {n for node in tree.walk(func.body) if isinstance(node, AssignmentStmt) for t in node.lvalues
             for n in _target_names(t)}
    if isinstance(found, FuncDef) and found.name in bound:
        return None  # the name is rebound in the factory: which function it returns is not known
    return found


def throwing_names(module: MypyFile) -> frozenset[str] | None:
    """The CLI's `throwing_names`, read from mypy's tree of the module (`throwing.throwing_names`)."""
    nodes = list(tree.walk(module, skip_scopes=False))
    owners: dict[int, str] = {}
    for cls in nodes:
        if isinstance(cls, ClassDef):
            for stmt in cls.defs.body:
                func = stmt.func if isinstance(stmt, Decorator) else stmt
                if isinstance(func, FuncDef):
                    owners[id(func)] = cls.name
    facts = []
    for node in nodes:
        if isinstance(node, FuncDef):
            inside = list(tree.walk(node, skip_scopes=False))
            facts.append(throwing.FunctionFacts(
                node.name, owners.get(id(node)),
                any(isinstance(n, RaiseStmt) for n in inside),
                any(isinstance(n, YieldExpr | YieldFromExpr) for n in inside),
                frozenset(name for _, name in _named_mentions(node)),
            ))
    callees = {id(n.callee) for n in nodes if isinstance(n, CallExpr)}
    return throwing.throwing_names(facts, ((name, id(node) in callees) for node, name in _named_mentions(module)))


def _named_mentions(root: Node) -> Iterator[tuple[Node, str]]:
    """The names and attribute names read below `root`, except a parameter of the function it is read in (the
    CLI's `_named_mentions`)."""
    stack: list[tuple[Node, frozenset[str]]] = [(root, frozenset())]
    while stack:
        node, params = stack.pop()
        if isinstance(node, FuncItem):
            params = frozenset(arg.variable.name for arg in node.arguments)
        elif isinstance(node, NameExpr) and node.name not in params:
            yield node, node.name
        elif isinstance(node, MemberExpr):
            yield node, node.name
        stack.extend((child, params) for child in tree.children(node))


def _returned_values(func: FuncItem) -> list[Expression | None]:
    """What the `return`s of `func` may give, a conditional expression's arms apart (the CLI's
    `_returned_values`): `return (hi, lo) if flip else (lo, hi)` gives both tuples (None: a bare `return`)."""
    found: list[Expression | None] = []
    for node in tree.walk(func.body):
        if not isinstance(node, ReturnStmt):
            continue
        stack: list[Expression | None] = [node.expr]
        while stack:
            value = stack.pop()
            if isinstance(value, ConditionalExpr):
                stack.extend((value.else_expr, value.if_expr))
            else:
                found.append(value)
    return found


def _returned_tuples(func: FuncItem) -> list[tuple[str | None, ...]] | None:
    """The items of each `return` of a plain function when every one is a tuple display of the same length
    without starred items (`return x, x` / `return x, y`): each item's name, None for anything but a name; None
    when some `return` is no such display (or none returns)."""
    found: list[tuple[str | None, ...]] = []
    for value in _returned_values(func):
        if not isinstance(value, TupleExpr) or any(isinstance(el, StarExpr) for el in value.items):
            return None
        found.append(tuple(el.name if isinstance(el, NameExpr) else None for el in value.items))
    if not found or len({len(items) for items in found}) != 1:
        return None
    # a parameter the body rebinds (`z, x = scale(z, x).sync_on(s)`) is no longer the caller's argument
    rebound = _rebound_names(func)
    params = {arg.variable.name for arg in func.arguments}
    return [tuple(f"{n}$local" if n in rebound and n in params else n for n in items) for items in found]


def _binds_names(node: Node) -> set[str]:
    """The names one node binds (the CLI's stored names and `_binds_name`, for `with_alias`): assignment, `for`,
    `with`, `del` and walrus targets, comprehension indices, `except ... as`, `match` captures, imports, `global` /
    `nonlocal` declarations."""
    targets: list[Expression] = []
    if isinstance(node, ListComprehension | SetComprehension):
        targets = list(node.generator.indices)
    elif isinstance(node, TryStmt):
        return {v.name for v in node.vars if v is not None}
    elif isinstance(node, AsPattern | StarredPattern):
        found = node.name if isinstance(node, AsPattern) else node.capture
        return {found.name} if found is not None else set()
    elif isinstance(node, MappingPattern):
        return {node.rest.name} if node.rest is not None else set()
    elif isinstance(node, Import | ImportFrom):
        pairs = node.ids if isinstance(node, Import) else node.names
        return {(alias or name).split(".")[0] for name, alias in pairs}
    elif isinstance(node, GlobalDecl | NonlocalDecl):
        return set(node.names)
    else:
        targets = tree.stored_targets(node)
    return {n for t in targets for n in _target_names(t)}


def _block_keeps(body: Block, names: set[str]) -> bool:
    """Whether a `with` block leaves each of `names` bound to what it was at its start (the CLI's `_block_keeps`)."""
    for sub in tree.walk(body, skip_scopes=False):
        if isinstance(sub, FuncItem | ClassDef | Decorator) or _binds_names(sub) & names:
            return False
    return True


def _stored_exprs(target: Expression) -> Iterator[Expression]:
    """The expressions a store target binds (the items of a tuple or list target, a starred one's expression)."""
    if isinstance(target, TupleExpr | ListExpr):
        for item in target.items:
            yield from _stored_exprs(item)
    elif isinstance(target, StarExpr):
        yield from _stored_exprs(target.expr)
    else:
        yield target


def _repeated_parts(nodes: Sequence[Node]) -> Iterator[list[Node]]:
    """The nodes that may run more than once per run of the code around them, one list per loop of `nodes` (the
    CLI's `_repeated_parts`): a `for` / `while` body, a comprehension's element, conditions and inner iterables."""
    for sub in nodes:
        if isinstance(sub, ForStmt | WhileStmt):
            yield list(tree.walk(sub.body, skip_scopes=False))
        elif isinstance(sub, GeneratorExpr | DictionaryComprehension):
            elts = [sub.key, sub.value] if isinstance(sub, DictionaryComprehension) else [sub.left_expr]
            inner = [*sub.sequences[1:], *(c for conds in sub.condlists for c in conds)]
            yield [n for part in (*elts, *inner) for n in tree.walk(part, skip_scopes=False)]


def _is_yield_statement(stmt: Statement) -> bool:
    """`yield x` as a statement (the CLI's `_is_yield_statement`)."""
    return isinstance(stmt, ExpressionStmt) and isinstance(stmt.expr, YieldExpr)


def _try_parts(stmt: Statement) -> tuple[list[Statement], list[Statement], list[Statement]] | None:
    """A `try` statement's body, `else` and `finally` (the CLI's `_try_parts`), else None."""
    if not isinstance(stmt, TryStmt):
        return None
    orelse = stmt.else_body.body if stmt.else_body is not None else []
    final = stmt.finally_body.body if stmt.finally_body is not None else []
    return stmt.body.body, orelse, final


def _phase_def(func: FuncDef, body: list[Statement], after: list[Statement] | None = None) -> FuncDef:
    """A function of `func`'s parameters whose body is one part of `func`'s body (the CLI's `_phase_def`: the part
    before the `yield` returns what it keeps across it for `after`)."""
    kept = _kept_across_yield(func, body, after) if after is not None else []
    if kept:
        value: Expression = kept[0] if len(kept) == 1 else TupleExpr(list(kept))
        if len(kept) > 1:  # (a new node; the names are `after`'s own, whose positions stay theirs)
            value.set_line(body[-1] if body else func)
        returned = ReturnStmt(value)
        returned.set_line(body[-1] if body else func)
        body = [*body, returned]
    typ = func.type if isinstance(func.type, FunctionLike) else None
    made = FuncDef(func.name, func.arguments, Block(body or [PassStmt()]), typ)
    made.set_line(func)
    return made


def _kept_across_yield(func: FuncDef, before: list[Statement], after: list[Statement]) -> list[NameExpr]:
    """The locals `before` binds to a call's result that `after` reads (the CLI's `_kept_across_yield`), as the
    name expressions `after` reads them by, in name order."""
    params = {a.variable.name for a in func.arguments}
    bound = {
        lv.name
        for stmt in before
        for node in tree.walk(stmt)
        if isinstance(node, AssignmentStmt) and isinstance(node.rvalue, CallExpr)
        for lv in node.lvalues
        if isinstance(lv, NameExpr)
    }
    read: dict[str, NameExpr] = {}
    for stmt in after:
        for node in tree.walk(stmt):
            if isinstance(node, NameExpr) and node.name in bound and node.name not in params:
                read.setdefault(node.name, node)
    return [read[name] for name in sorted(read)]


def _rebound_names(func: FuncItem) -> set[str]:
    """The names a function's own body binds or deletes (the CLI's `Store`/`Del` names): a parameter among them
    is no longer the caller's argument after that point."""
    rebound: set[str] = set()
    for node in tree.walk(func.body):
        if isinstance(node, AssignmentStmt):
            rebound.update(n for lv in node.lvalues for n in _target_names(lv))
        elif isinstance(node, OperatorAssignmentStmt | ForStmt | DelStmt | AssignmentExpr):
            target = (
                node.lvalue if isinstance(node, OperatorAssignmentStmt)
                else node.index if isinstance(node, ForStmt)
                else node.expr if isinstance(node, DelStmt)
                else node.target
            )
            rebound.update(_target_names(target))
        elif isinstance(node, WithStmt):
            rebound.update(n for t in node.target if t is not None for n in _target_names(t))
    return rebound


def _stores_attributes(func: FuncItem) -> bool:
    """Whether a function's own body binds or deletes any attribute (the CLI's `Store`/`Del` attributes)."""
    return any(isinstance(t, MemberExpr) for node in tree.walk(func.body) for t in tree.stored_leaves(node))


def _binding_names(func: FuncItem) -> list[str]:
    """`_rebound_names`, once per binding (a name bound twice is there twice)."""
    bound: list[str] = []
    for node in tree.walk(func.body):
        if isinstance(node, AssignmentStmt):
            bound.extend(n for lv in node.lvalues for n in _target_names(lv))
        elif isinstance(node, OperatorAssignmentStmt | ForStmt | DelStmt | AssignmentExpr):
            target = (
                node.lvalue if isinstance(node, OperatorAssignmentStmt)
                else node.index if isinstance(node, ForStmt)
                else node.expr if isinstance(node, DelStmt)
                else node.target
            )
            bound.extend(_target_names(target))
        elif isinstance(node, WithStmt):
            bound.extend(n for t in node.target if t is not None for n in _target_names(t))
    return bound


def _rebinding_declarations(body: Sequence[Statement]) -> set[str]:
    """The names a `global`/`nonlocal` declaration of a scope's `body` names that the scope (or a scope nested in
    it) also assigns, loops over, deletes or binds by a walrus or a comprehension (the CLI's
    `_rebinding_declarations`), for `FileContext.declared`."""
    declared = {n for node in tree.walk_many(body) if isinstance(node, GlobalDecl | NonlocalDecl) for n in node.names}
    if not declared:
        return set()
    stored: set[str] = set()
    for node in tree.walk_many(body, skip_scopes=False):
        if isinstance(node, GeneratorExpr | DictionaryComprehension):
            targets: Iterable[Node] = (t for index in node.indices for t in tree.walk(index))
        else:
            targets = bound_targets(node)
        stored.update(t.name for t in targets if isinstance(t, NameExpr))
    return declared & stored


def _kept_by_closures(node: FuncItem) -> frozenset[str]:
    """The names of `node` that a function nested in it declares `nonlocal` and lets escape (the CLI's
    `_kept_by_closures`)."""
    return frozenset(
        name
        for nested in tree.walk_many(node.body.body)
        if isinstance(nested, FuncDef | Decorator)
        for func in ([nested.func] if isinstance(nested, Decorator) else [nested])
        if _escapes(func, node)
        for sub in tree.walk_many(func.body.body)
        if isinstance(sub, NonlocalDecl)
        for name in sub.names
    )


def _captured(node: FuncItem, enclosing: FuncItem) -> list[str]:
    """The names of `enclosing` that the function `node` nested in it reads without binding them (the CLI's
    `_captured`)."""
    def bound(func: FuncItem) -> set[str]:
        return {name for sub in tree.walk(func.body) for name in _binds_names(sub)} | set(_params(func))

    own, outer = bound(node), bound(enclosing)
    # a name bound to a shared op (`anchor = t.shared()`) is read by launches, never moved
    shared = {
        target.name
        for sub in tree.walk(enclosing.body)
        if isinstance(sub, AssignmentStmt) and isinstance(sub.rvalue, CallExpr)
        and isinstance(sub.rvalue.callee, MemberExpr) and sub.rvalue.callee.name == "shared"
        for target in sub.lvalues
        if isinstance(target, NameExpr)
    }
    read = (sub.name for sub in tree.walk(node.body) if isinstance(sub, NameExpr))
    return sorted({name for name in read if name not in own and name in outer and name not in shared})


def _escapes(node: FuncDef, enclosing: FuncItem) -> bool:
    """Whether the nested function `node` may be called where `enclosing` cannot see it: it is decorated, or
    `enclosing` mentions its name other than as the callee of a call (the CLI's `_escapes`)."""
    if node.is_decorated:
        return True
    nodes = list(tree.walk_many(enclosing.body.body, skip_scopes=False))
    callees = {id(sub.callee) for sub in nodes if isinstance(sub, CallExpr)}
    return any(isinstance(sub, NameExpr) and sub.name == node.name and id(sub) not in callees for sub in nodes)


def _returned_calls(func: FuncItem) -> list[CallExpr | None]:
    """The value of each `return` of a plain function when it is a call (None for anything else)."""
    return [
        node.expr if isinstance(node.expr, CallExpr) else None
        for node in tree.walk(func.body)
        if isinstance(node, ReturnStmt)
    ]


def _gives_shared_op(func: FuncItem) -> bool:
    """Whether every `return` of `func` gives a `.shared()` op (the CLI's `_gives_shared_op`)."""
    return returns_shared(
        [c.callee.name if c is not None and isinstance(c.callee, MemberExpr) else None for c in _returned_calls(func)]
    )


def _returned_displays(func: FuncItem) -> list[tuple[list[tuple[calls.ContainerKey, Expression]], bool]] | None:
    """The keyed items of each `return` of a plain function when every one is a display of one kind (the CLI's
    `_returned_displays`): dict displays of literal keys or tuple/list displays of one length."""
    if func.is_coroutine or any(isinstance(n, YieldExpr | YieldFromExpr) for n in tree.walk(func.body)):
        return None
    found: list[tuple[list[tuple[calls.ContainerKey, Expression]], bool]] = []
    for value in _returned_values(func):
        shown = _display_items(value) if value is not None else None
        if shown is None:
            return None
        found.append(shown)
    if not found or len({mapping for _, mapping in found}) != 1:
        return None
    if not found[0][1] and len({len(items) for items, _ in found}) != 1:
        return None
    return found


def _built_return(func: FuncItem) -> tuple[str, list[tuple[calls.ContainerKey, Expression]]] | None:
    """A plain function whose one `return`, its last statement, returns a local name one statement of its body
    binds to a dict display of literal keys and later statements of its body only store into under literal keys,
    the name read nowhere but under literal keys: the name and the steps that built it (the CLI's
    `_built_return`, `calls.built_entries`)."""
    body = func.body.body
    if func.is_coroutine or not body or not isinstance(body[-1], ReturnStmt):
        return None
    returned = body[-1].expr
    if not isinstance(returned, NameExpr) or returned.name in {arg.variable.name for arg in func.arguments}:
        return None
    name = returned.name
    if sum(isinstance(n, ReturnStmt) for n in tree.walk(func.body)) != 1 or any(
        isinstance(n, YieldExpr | YieldFromExpr | GlobalDecl | NonlocalDecl) for n in tree.walk(func.body)
    ):
        return None
    steps: list[tuple[calls.ContainerKey, Expression]] | None = None
    allowed: set[int] = {id(returned)}
    stored: set[int] = set()  # subscripts stored into or deleted anywhere (`tree.stored_targets`)
    for node in tree.walk(func.body, skip_scopes=False):
        for target in tree.stored_targets(node):
            stored.update(id(e) for e in _stored_exprs(target))
    for stmt in body[:-1]:
        if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1):
            continue
        target = stmt.lvalues[0]
        if steps is None and isinstance(target, NameExpr) and target.name == name:
            shown = _display_items(stmt.rvalue)
            if shown is None or not shown[1]:
                return None
            steps = list(shown[0])
            allowed.add(id(target))
        elif steps is not None and isinstance(target, IndexExpr) and isinstance(target.base, NameExpr):
            key = _key_literal(target.index)
            if target.base.name == name and key is not None:
                steps.append((key, stmt.rvalue))
                allowed.add(id(target.base))
    if steps is None:
        return None
    for node in tree.walk(func.body, skip_scopes=False):
        if isinstance(node, IndexExpr) and id(node) not in stored and _key_literal(node.index) is not None:
            allowed.add(id(node.base))  # a read under a literal key
        elif isinstance(node, NameExpr) and node.name == name and id(node) not in allowed:
            return None
    return name, steps


def _loop_targets(body: Sequence[Statement], builtin: Callable[[Expression], str | None]) -> dict[str, str]:
    """Names bound only by one `for` statement of `body` to the items of a name it iterates directly, through
    `enumerate(name)` or as one operand of `zip(...)` (the CLI's `_loop_targets`): target -> iterated name."""
    found: dict[str, str] = {}
    stores: dict[str, int] = {}
    for node in tree.walk_many(list(body)):
        for stored in tree.stored_targets(node):
            for part in _stored_exprs(stored):
                if isinstance(part, NameExpr):
                    stores[part.name] = stores.get(part.name, 0) + 1
        if isinstance(node, TryStmt):
            for var in node.vars:
                if var is not None:
                    stores[var.name] = stores.get(var.name, 0) + 2  # `except E as name` binds (and deletes) it
        if not isinstance(node, ForStmt) or node.is_async:
            continue
        it, target = node.expr, node.index
        pairs: list[tuple[Expression, Expression]] = [(target, it)]
        if isinstance(it, CallExpr) and all(kind in (ARG_POS, ARG_NAMED) for kind in it.arg_kinds):
            unpacked = target.items if isinstance(target, TupleExpr) else []
            positional = [arg for arg, kind in zip(it.args, it.arg_kinds, strict=True) if kind == ARG_POS]
            keywords = {name for name in it.arg_names if name is not None}  # `zip(xs, ys, strict=True)`
            if builtin(it.callee) == "enumerate" and len(it.args) == 1 and not keywords and len(unpacked) == 2:
                pairs = [(unpacked[1], it.args[0])]
            elif builtin(it.callee) == "zip" and keywords <= {"strict"} and 0 < len(unpacked) == len(positional):
                pairs = list(zip(unpacked, positional, strict=True))
        for named, iterated in pairs:
            if isinstance(named, NameExpr) and isinstance(iterated, NameExpr):
                found[named.name] = iterated.name
    return {target: listed for target, listed in found.items() if stores.get(target) == 1}


def _returned_name(func: FuncItem, node: Expression) -> str | None:
    """How `_returned_tuples` names an item a function returns (the CLI's `_returned_name`)."""
    if not isinstance(node, NameExpr):
        return None
    params = {arg.variable.name for arg in func.arguments}
    return f"{node.name}$local" if node.name in _rebound_names(func) and node.name in params else node.name


def _bound_once(func: FuncItem, name: str) -> Expression | None:
    """The value of the one plain assignment that binds `name` in a function's body, when nothing else there binds
    or deletes it (the CLI's `_bound_once`)."""
    found: list[Expression] = []
    for node in tree.walk(func.body):
        if isinstance(node, AssignmentStmt):
            bound = [n for lv in node.lvalues for n in _target_names(lv)]
            if name in bound:
                if len(node.lvalues) != 1 or not isinstance(node.lvalues[0], NameExpr):
                    return None
                found.append(node.rvalue)
        elif isinstance(node, OperatorAssignmentStmt | ForStmt | DelStmt | AssignmentExpr | WithStmt):
            target = (
                [node.lvalue] if isinstance(node, OperatorAssignmentStmt)
                else [node.index] if isinstance(node, ForStmt)
                else [node.expr] if isinstance(node, DelStmt)
                else [node.target] if isinstance(node, AssignmentExpr)
                else [t for t in node.target if t is not None]
            )
            if any(name in _target_names(t) for t in target):
                return None
    return found[0] if len(found) == 1 else None


def _options(expr: Expression) -> list[Expression]:
    """The expressions a value may be: each arm of a conditional expression or operand of `and`/`or`."""
    if isinstance(expr, ConditionalExpr):
        return [*_options(expr.if_expr), *_options(expr.else_expr)]
    if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
        return [*_options(expr.left), *_options(expr.right)]
    return [expr]


def _registry_form(expr: Expression | None) -> tuple[DictionaryComprehension, str] | None:
    """`{n: f(k) for n, k in REG.items()}` (one `for`, no `if`, the key its target's first name; the CLI's
    `_registry_form`): the comprehension and the registry's name."""
    if not isinstance(expr, DictionaryComprehension) or len(expr.indices) != 1:
        return None
    target, it = expr.indices[0], expr.sequences[0]
    if expr.condlists[0] or expr.is_async[0] or not isinstance(target, TupleExpr) or len(target.items) != 2:
        return None
    key, value = target.items
    if not (isinstance(key, NameExpr) and isinstance(value, NameExpr) and key.name != value.name):
        return None
    if not (isinstance(expr.key, NameExpr) and expr.key.name == key.name):
        return None
    if not (isinstance(it, CallExpr) and isinstance(it.callee, MemberExpr) and it.callee.name == "items"):
        return None
    if it.args or not isinstance(it.callee.expr, NameExpr):
        return None
    return expr, it.callee.expr.name


#: What a dict display's entries a name it is bound to stays: reading it (`REG.items()`, `REG.get(k)`).
_REGISTRY_READS: Final[frozenset[str]] = frozenset({"items", "keys", "values", "get"})

#: The items of each `return` of a helper's result, by key, each lowered when called (`returned_displays`).
ReturnedEntries: TypeAlias = "list[tuple[calls.ContainerKey, Callable[[], calls.ReturnedItem]]]"


def _registry_binding(body: Sequence[Statement], name: str) -> list[tuple[calls.ContainerKey, Expression]] | None:
    """The entries of the dict display of literal keys one statement of `body` binds `name` to, when nothing below
    binds it again, deletes it, declares it `global`/`nonlocal`, stores into it or calls a method of it but a
    reading one (the CLI's `_registry_binding`)."""
    found: list[tuple[calls.ContainerKey, Expression]] | None = None
    for stmt in body:
        if isinstance(stmt, AssignmentStmt) and any(isinstance(t, NameExpr) and t.name == name for t in stmt.lvalues):
            shown = _display_items(stmt.rvalue) if len(stmt.lvalues) == 1 else None
            if found is not None or shown is None or not shown[1]:
                return None
            found = shown[0]
    if found is None:
        return None
    stores = 0
    for node in tree.walk_many(body, skip_scopes=False):
        if isinstance(node, GlobalDecl | NonlocalDecl) and name in node.names:
            return None
        if isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr) and node.expr.name == name:
            if node.name not in _REGISTRY_READS:
                return None
        for target in (t for each in tree.stored_targets(node) for t in tree.flat_targets(each)):
            if isinstance(target, NameExpr) and target.name == name:
                stores += 1
            elif isinstance(target, IndexExpr) and isinstance(target.base, NameExpr) and target.base.name == name:
                return None
    return found if stores == 1 else None


def _plain_arguments(call: CallExpr) -> tuple[list[Expression], list[tuple[str, Expression]]] | None:
    """A call's positional arguments and its keyword ones, `(name, value)`, when it has no `*`/`**` and no positional
    argument after a keyword one; else None."""
    if any(k not in (ARG_POS, ARG_NAMED) for k in call.arg_kinds):
        return None
    positional = [a for a, k in zip(call.args, call.arg_kinds, strict=True) if k == ARG_POS]
    if positional != call.args[: len(positional)]:
        return None
    keywords = [
        (n, a) for a, k, n in zip(call.args, call.arg_kinds, call.arg_names, strict=True)
        if k == ARG_NAMED and n is not None
    ]
    return positional, keywords


def _in_caller_terms(arg: Expression, passed: dict[str, Expression], params: set[str]) -> Expression | None:
    """An argument a forwarding function passes on, in its caller's terms (the CLI's `_in_caller_terms`)."""
    if isinstance(arg, IntExpr | FloatExpr | StrExpr):
        return arg
    if isinstance(arg, OpExpr):
        left, right = _in_caller_terms(arg.left, passed, params), _in_caller_terms(arg.right, passed, params)
        if left is None or right is None:
            return None
        made: Expression = OpExpr(arg.op, left, right)
        made.set_line(arg)
        return made
    if isinstance(arg, UnaryExpr):
        operand = _in_caller_terms(arg.expr, passed, params)
        if operand is None:
            return None
        made = UnaryExpr(arg.op, operand)
        made.set_line(arg)
        return made
    return passed.get(arg.name) if isinstance(arg, NameExpr) and arg.name in params else None


def _bind_call(func: FuncItem, call: CallExpr, method: bool = False) -> dict[str, Expression]:
    """Parameter name -> argument expression, for the arguments a call binds plainly (no `*`/`**`); for a
    `method` called on an instance, the first parameter is the receiver and binds no argument, and neither does a
    `@classmethod`'s (the CLI's `_bind_call`)."""
    kinds = func.arg_kinds
    names = [arg.variable.name for arg, kind in zip(func.arguments, kinds, strict=False) if kind.is_positional()]
    names = names[1 if method or func.is_class else 0 :]
    bound: dict[str, Expression] = {}
    for position, (arg, kind, keyword) in enumerate(zip(call.args, call.arg_kinds, call.arg_names, strict=True)):
        if kind in (ARG_STAR, ARG_STAR2):
            break
        if kind == ARG_NAMED and keyword is not None:
            bound[keyword] = arg
        elif position < len(names):
            bound[names[position]] = arg
    return bound

_LITERALS = (StrExpr, BytesExpr, IntExpr, FloatExpr, ComplexExpr, EllipsisExpr)


def _attribute_device(lowerer: FunctionLowerer, receiver: str, attr: str) -> bool:
    """Whether a method knows its receiver's attribute `attr` is a device value (`init_state.method_start`; the
    CLI's `_attribute_device`)."""
    return lowerer.is_device_text(f"{receiver}.{attr}")


def span_of(node: Node) -> Span:
    """mypy positions (1-based lines, 0-based columns, exclusive end) as the diagnostics model's 1-based span."""
    # Hot (once per operand of every lowered call): plain comparisons instead of max() and tuple compares.
    line = node.line
    if line < 1:
        line = 1
    column = node.column
    column = column + 1 if column > 0 else 1
    end_line = node.end_line
    if end_line is None:
        end_line = line
    end_column = node.end_column
    end_column = end_column + 1 if end_column is not None else column + 1
    if end_line < line or (end_line == line and end_column <= column):
        end_line, end_column = line, column + 1
    return Span(line, column, end_line, end_column)


def subject_span(subject: Expression) -> Span:
    """Where a `match` subject is: a tuple display's items, from the first to the last (the CLI's rule: mypy
    keeps no parentheses), else the expression's span."""
    if isinstance(subject, TupleExpr) and subject.items:
        first, last = span_of(subject.items[0]), span_of(subject.items[-1])
        return Span(first.line, first.column, last.end_line, last.end_column)
    return span_of(subject)


def _view_base(expr: Expression) -> str | None:
    """The place a view expression views (`buf` of `buf.view(a, b)`, `buf.split_at(k)`, `buf[a:b]`), or whose
    partition it is (`t` of `t.partition(s)`), or None."""
    callee = expr.callee if isinstance(expr, CallExpr) else None
    if isinstance(callee, MemberExpr) and callee.name in calls.DEVICE_PROVING_METHODS:
        return tree.dotted(callee.expr)
    if isinstance(expr, IndexExpr) and isinstance(expr.index, SliceExpr):
        return tree.dotted(expr.base)
    return None


def attr_span(expr: MemberExpr) -> Span:
    """The span of the attribute name of `a.b` (mypy keeps no node for it)."""
    full = span_of(expr)
    start = max(full.end_column - len(expr.name), 1)
    return Span(full.end_line, start, full.end_line, full.end_column)


def _no_outer() -> frozenset[str]:
    return frozenset()


@dataclass
class Unit:
    """What to lower: a function (or lambda) body or a module's top level, and what its context knows.

    `outer_device` computes the device-like names the enclosing unit hands down (the libcst front end's
    `outer_device`); it is only called when the body mentions one of `outer_candidates` (None: always), because
    names the body never mentions cannot change its lowering.
    """

    node: FuncItem | MypyFile
    kind: str  # "module" | "function" | "simt" | "tile" | "device"
    outer_device: Callable[[], frozenset[str]] = _no_outer
    outer_candidates: frozenset[str] | None = frozenset()
    name: str | None = None  # the IR function's name, when not the definition's (a call summary's lowering)
    # For the effects of a call of a nested function: the enclosing function's containers it may read by item.
    outer_containers: Mapping[str, calls.Container] = field(default_factory=dict)
    # ... and what calls of the enclosing function's other nested functions do (the CLI's `outer_closures`)
    outer_closures: Mapping[str, calls.NonlocalEffects] = field(default_factory=dict)
    # ... and the enclosing functions' local names (the CLI's `outer_names`)
    outer_names: frozenset[str] = frozenset()
    # A method's summary for a call on an object of this class (a subclass of its own): `self` is one of it, so
    # `self.target()` runs the subclass's override (`call_targets.receiver_class`)
    receiver_class: str | None = None
    # A call summary's lowering for a call passing this many items to the `*args` parameter (the CLI's)
    star_items: int = 0
    # ... and passing these keywords into the `**kwargs` parameter (the CLI's `spread_keys`)
    spread_keys: tuple[str, ...] = ()
    # A function nested in another: the enclosing function, which may let it escape (the CLI's `enclosing`)
    enclosing: FuncItem | None = None


@dataclass
class Lowered:
    """One unit's IR plus, for each cause span, the call (or subscript) expression that produced it."""

    function: ir.Function
    origins: dict[Span, Node] = field(default_factory=dict)


#: The names of the literals `calls.literal_kind` tells apart (mypy's tree spells them as names).
_LITERAL_NAMES: dict[str, object] = {"None": None, "True": True, "False": False}


class FileContext:
    """Name resolution for one module (mypy did the work; this only reads it through the module's imports)."""

    def __init__(self, module: MypyFile, path: str) -> None:
        self.module = module
        self.path = path
        self.imports = resolve.import_table(module)
        # Answers for the nodes of this one lowering (a context lives for one analysis within one checking pass,
        # so nothing here can outlive an edit).  Values keep their key node alive, so an id is never reused.
        self._kernels: dict[int, tuple[Node, resolve.KernelInfo | None]] = {}
        self._names: dict[int, tuple[Expression, tuple[str, ...]]] = {}
        self._aliases: dict[str, Decorator] | None = None
        # Local names bound once by a call of a kernel factory, by the id of their `Var` (`find_factory_kernels`).
        self.factory_vars: dict[int, tuple[Var, Decorator]] = {}
        self.classes = ModuleClasses(module)  # top-level classes, whose methods' call summaries apply at calls
        self._registries: dict[str, tuple[FuncDef, ...]] | None = None
        self._attribute_registries: dict[tuple[str, str], tuple[FuncDef, ...]] | None = None
        self._declared: frozenset[str] | None = None
        self.unfixed: frozenset[str] | None = None  # `_unfixed_attributes`, found when a view bound first asks
        self._memo_params: dict[tuple[int, bool], MemoParams | None] = {}  # `memo_params`
        self.uniform_attributes: dict[int, frozenset[str]] = {}  # `FunctionLowerer.uniform_attributes`, by class
        self._module_bound: set[str] | None = None
        # the kernel a launch on a receiver chosen among several is lowered for, by the receiver's id
        self.forced_kernels: dict[int, resolve.KernelInfo] = {}
        self._kernel_tables: dict[str, KernelTable] | None = None  # `kernel_tables`
        self._module_tables: dict[str, Expression] | None = None  # `module_tables`
        self._module_stable: frozenset[str] | None = None  # `module_stable`
        self._module_numbers: dict[str, int] | None = None  # `module_numbers`
        self._raising: frozenset[str] | None = None  # `raising_functions`
        self._throwing: tuple[frozenset[str] | None] | None = None  # `throwing_names`
        self._handed_out: frozenset[str] | None = None  # `exceptions_handed_out`
        self._shared_getters: dict[str, tuple[Decorator, ...]] | None = None  # `shared_getters`
        self._shared_positions: dict[str, frozenset[int]] | None = None  # `shared_array_positions`
        self._changed_attributes: frozenset[str] | None = None
        self._class_tables: IdentityMemo[Node, dict[str, Expression]] = IdentityMemo()  # `class_tables`, by class

    def module_stable(self) -> frozenset[str]:
        """The names the module binds once and nothing rebinds (the CLI's `module_stable`)."""
        if self._module_stable is None:
            self._module_stable = _stable_names(self.module.defs, ())
        return self._module_stable

    def shared_getters(self) -> dict[str, tuple[Decorator, ...]]:
        """For each property name, the module's getters of that name giving a `.shared()` op at every `return`
        (the CLI's `shared_getters`)."""
        if self._shared_getters is None:
            found: dict[str, list[Decorator]] = {}
            for cls in self.classes.classes.values():
                for stmt in cls.defs.body:
                    if (
                        isinstance(stmt, Decorator) and len(stmt.original_decorators) == 1
                        and tree.dotted(stmt.original_decorators[0]) in PROPERTY_DECORATORS
                        and _gives_shared_op(stmt.func)
                    ):
                        found.setdefault(stmt.name, []).append(stmt)
            self._shared_getters = {name: tuple(getters) for name, getters in found.items()}
        return self._shared_getters

    def exceptions_handed_out(self) -> frozenset[str]:
        """The module's class names read other than where a `raise` raises one, an `except` names one or a class
        statement derives from one (the CLI's `exceptions_handed_out`)."""
        if self._handed_out is None:
            allowed: set[int] = set()
            nodes = list(tree.walk(self.module, skip_scopes=False))
            for node in nodes:
                if isinstance(node, RaiseStmt) and node.expr is not None:
                    allowed.add(id(node.expr.callee if isinstance(node.expr, CallExpr) else node.expr))
                elif isinstance(node, TryStmt):
                    for t in node.types:
                        if t is not None:
                            allowed.update(id(e) for e in (t.items if isinstance(t, TupleExpr) else [t]))
                elif isinstance(node, ClassDef):
                    allowed.update(id(b) for b in node.base_type_exprs + node.removed_base_type_exprs)
            names = self.classes.classes
            self._handed_out = frozenset(
                n.name for n in nodes if isinstance(n, NameExpr) and n.name in names and id(n) not in allowed
            )
        return self._handed_out

    def throwing_names(self) -> frozenset[str] | None:
        """The names of the module's functions that may raise an exception of a class of the module (the CLI's
        `throwing_names`)."""
        if self._throwing is None:
            self._throwing = (throwing_names(self.module),)
        return self._throwing[0]

    def raising_functions(self) -> frozenset[str]:
        """The names of the module's functions and methods whose body raises or asserts (the CLI's)."""
        if self._raising is None:
            self._raising = frozenset(
                node.name for node in tree.walk(self.module, skip_scopes=False)
                if isinstance(node, FuncDef)
                and any(isinstance(n, RaiseStmt | AssertStmt) for n in tree.walk(node, skip_scopes=False))
            )
        return self._raising

    def module_numbers(self) -> dict[str, int]:
        """The integer constants of the module (the CLI's `module_numbers`)."""
        if self._module_numbers is None:
            found: dict[str, int] = {}
            stable = self.module_stable()
            for stmt in self.module.defs:
                if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1:
                    target, number = stmt.lvalues[0], _int_literal(stmt.rvalue)
                    if isinstance(target, NameExpr) and number is not None and target.name in stable:
                        found[target.name] = number
            self._module_numbers = found
        return self._module_numbers

    def module_tables(self) -> dict[str, Expression]:
        """The module's top-level displays bound once and never changed (`static_iterables.module_tables`)."""
        if self._module_tables is None:
            self._module_tables = static_iterables.module_tables(self.module, self.module_stable())
        return self._module_tables

    def class_tables(self, cls: ClassDef) -> dict[str, Expression]:
        """A class body's displays bound once and never changed (`static_iterables.class_tables`), once per class."""
        if self._changed_attributes is None:
            self._changed_attributes = static_iterables.changed_attributes(self.module)
        found = self._class_tables.get(cls)
        if found is None:
            found = self._class_tables[cls] = static_iterables.class_tables(cls, self._changed_attributes)
        return found

    def kernel_tables(self) -> dict[str, KernelTable]:
        """The module's dict displays of kernels (`kernel_choices.kernel_tables`), by name (once per module)."""
        if self._kernel_tables is None:
            self._kernel_tables = kernel_tables(self.module, self.kernel)
        return self._kernel_tables

    def memo_params(self, func: FuncDef, method: bool) -> MemoParams | None:
        """`memo_shape.memo_params` of a function of the module (once per function; the CLI's `memo_params`)."""
        key = (id(func), method)
        if key not in self._memo_params:
            self._memo_params[key] = memo_params(func, method, self.module_bound())
        return self._memo_params[key]

    def module_bound(self) -> set[str]:
        """The names the module's top-level assignments bind (the CLI's `module_bound`)."""
        if self._module_bound is None:
            self._module_bound = {
                n.name
                for stmt in self.module.defs
                if isinstance(stmt, AssignmentStmt)
                for lvalue in stmt.lvalues
                for n in tree.walk(lvalue)
                if isinstance(n, NameExpr)
            }
        return self._module_bound

    def returned_calls(self, func: FuncItem, method: bool) -> list[CallExpr | None]:
        """The calls a function's `return`s give; of a hand-written cache, the call it stores on a miss (the CLI's
        `returned_calls`)."""
        if isinstance(func, FuncDef) and self.memo_params(func, method) is not None:
            stored = cached_value(func, method, self.module_bound())
            return [stored if isinstance(stored, CallExpr) else None]
        return _returned_calls(func)

    def declared(self) -> frozenset[str]:
        """Names a `global`/`nonlocal` declaration of a scope that rebinds them, an import, an `except ... as`, a
        match capture, an augmented assignment or a `def`/`class` anywhere in the module binds: no branch facts
        about them (`calls.branch_tests`; the CLI front end's rule)."""
        if self._declared is None:
            names: set[str] = set(_rebinding_declarations(self.module.defs))
            for node in tree.walk(self.module, skip_scopes=False):
                if isinstance(node, FuncItem):
                    names.update(_rebinding_declarations(node.body.body))
                elif isinstance(node, ClassDef):
                    names.update(_rebinding_declarations(node.defs.body))
                if isinstance(node, Import):
                    names.update((alias or name).split(".")[0] for name, alias in node.ids)
                elif isinstance(node, ImportFrom):
                    names.update(alias or name for name, alias in node.names)
                elif isinstance(node, TryStmt):
                    names.update(v.name for v in node.vars if v is not None)
                elif isinstance(node, AsPattern | StarredPattern):
                    name = node.name if isinstance(node, AsPattern) else node.capture
                    if name is not None:
                        names.add(name.name)
                elif isinstance(node, MappingPattern) and node.rest is not None:
                    names.add(node.rest.name)
                elif isinstance(node, OperatorAssignmentStmt) and isinstance(node.lvalue, NameExpr):
                    names.add(node.lvalue.name)  # `flag += 1` rebinds it without a `Bind`
                elif isinstance(node, FuncDef | ClassDef | Decorator | OverloadedFuncDef):
                    names.add(node.name)
            self._declared = frozenset(names)
        return self._declared

    @property
    def attribute_registries(self) -> dict[tuple[str, str], tuple[FuncDef, ...]]:
        """The module's attributes holding only its functions (`call_targets.attribute_registries`), by (class,
        attribute)."""
        if self._attribute_registries is None:
            self._attribute_registries = attribute_registries(self.module, self.classes)
        return self._attribute_registries

    @property
    def registries(self) -> dict[str, tuple[FuncDef, ...]]:
        """The module's registries of functions (`call_targets.module_registries`), by name."""
        if self._registries is None:
            self._registries = module_registries(self.module, self.classes)
        return self._registries

    def kernel(self, expr: Expression) -> resolve.KernelInfo | None:
        forced = self.forced_kernels.get(id(expr)) if self.forced_kernels else None
        if forced is not None:
            return forced  # a launch on a receiver chosen among several, lowered for this kernel
        node = expr.node if isinstance(expr, RefExpr) else None
        if isinstance(node, Var):
            made = self.factory_vars.get(id(node))
            node = made[1] if made is not None and made[0] is node else self.kernel_aliases().get(node.fullname)
        if not isinstance(node, Decorator):
            return None
        found = self._kernels.get(id(node))
        if found is None or found[0] is not node:
            found = (node, resolve.kernel_from_decorator(node))
            self._kernels[id(node)] = found
        return found[1]

    def kernel_aliases(self) -> dict[str, Decorator]:
        """Module-level aliases of this module's kernels (`fast_add = vecadd`, a name bound once at the top level
        to a kernel defined in this module, or to another such alias), by the alias's full name."""
        if self._aliases is None:
            assigned: dict[str, list[Expression]] = {}
            for stmt in self.module.defs:
                if isinstance(stmt, AssignmentStmt):
                    for lvalue in stmt.lvalues:
                        if isinstance(lvalue, NameExpr):
                            assigned.setdefault(lvalue.name, []).append(stmt.rvalue)
            prefix = self.module.fullname + "."
            self._aliases = {}
            for name, values in assigned.items():
                value = values[0]
                if len(values) == 1 and isinstance(value, NameExpr):
                    target = value.node
                    if isinstance(target, Var):
                        target = self._aliases.get(target.fullname)
                    if isinstance(target, Decorator) and target.fullname == prefix + target.name:
                        self._aliases[prefix + name] = target
        return self._aliases

    def names(self, expr: Expression) -> tuple[str, ...]:
        found = self._names.get(id(expr))
        if found is None or found[0] is not expr:
            found = (expr, resolve.names(expr, self.imports))
            self._names[id(expr)] = found
        return found[1]

    def shared_array_positions(self, name: str) -> frozenset[int]:
        """The positions at which some call `name(...)` in the module's functions passes a name its function binds
        to `simt.shared_array(...)` (the CLI's)."""
        if self._shared_positions is None:
            found: dict[str, set[int]] = {}
            for func in tree.walk_many(self.module.defs, skip_scopes=False):
                if not isinstance(func, FuncDef):
                    continue
                body = list(tree.walk_many(func.body.body))
                shared = {
                    lv.name for n in body if isinstance(n, AssignmentStmt) and isinstance(n.rvalue, CallExpr)
                    and self.refers_to(n.rvalue.callee, SHARED_ARRAY_CONSTRUCTOR)
                    for lv in n.lvalues if isinstance(lv, NameExpr)
                }
                for call in body if shared else ():
                    if isinstance(call, CallExpr) and isinstance(call.callee, NameExpr):
                        positional = 0
                        for arg, kind in zip(call.args, call.arg_kinds, strict=True):
                            if kind == ARG_STAR:
                                break
                            if kind != ARG_POS:
                                continue
                            if isinstance(arg, NameExpr) and arg.name in shared:
                                found.setdefault(call.callee.name, set()).add(positional)
                            positional += 1
            self._shared_positions = {k: frozenset(v) for k, v in found.items()}
        return self._shared_positions.get(name, frozenset())

    def refers_to(self, expr: Expression, table_name: str) -> bool:
        return any(resolve.matches(n, table_name) for n in self.names(expr))

    def is_safekernels(self, expr: Expression) -> bool:
        return any(resolve.is_safekernels(n) for n in self.names(expr))

    def decorator_kind(self, decorators: Sequence[Expression]) -> str:
        for dec in decorators:
            track = resolve.decorator_track(dec)
            if track is not None:
                return track
            target = dec.callee if isinstance(dec, CallExpr) else dec
            if self.refers_to(target, DEVICE_DECORATOR):
                return "device"
        return "function"


def _type_is_device(typ: Type | None, module: str) -> bool:
    """Whether an analyzed annotation mentions one of the device classes (as the libcst front end reads text): a
    class of that name from safekernels or defined in `module` itself; one of another library (`torch.Tensor`)
    is not a safekernels value, so its `.to(...)` does not move it."""
    if typ is None:
        return False
    stack: list[Type] = [typ]
    seen = 0
    while stack and seen < 64:
        seen += 1
        current = stack.pop()
        if isinstance(current, TypeAliasType):
            current = get_proper_type(current)
        if isinstance(current, Instance):
            info = current.type
            own = resolve.is_safekernels(info.fullname) or info.module_name == module
            if info.name in DEVICE_ANNOTATIONS and own:
                return True
            stack.extend(current.args)
        elif isinstance(current, UnionType):
            stack.extend(current.items)
    return False


def _item_roots(expr: Expression) -> Iterator[str]:
    """The names a display item of places starts with (`a` of `a.b`, each of `(a, c)`)."""
    if isinstance(expr, NameExpr):
        yield expr.name
    elif isinstance(expr, MemberExpr):
        yield from _item_roots(expr.expr)
    elif isinstance(expr, TupleExpr | ListExpr):
        for item in expr.items:
            yield from _item_roots(item)


def _setdefault_parts(expr: Expression) -> tuple[Expression, Expression, Expression] | None:
    """(container, key, default) of `container.setdefault(key, default)` (the CLI's `_setdefault_parts`)."""
    if not (isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name == "setdefault"):
        return None
    if len(expr.args) != 2 or any(kind != ARG_POS for kind in expr.arg_kinds):
        return None
    container: Expression = expr.callee.expr
    while isinstance(container, MemberExpr):
        container = container.expr
    return (expr.callee.expr, expr.args[0], expr.args[1]) if isinstance(container, NameExpr) else None


def _loop_target_names(target: Expression) -> list[str]:
    """The names a `for` target binds as a whole or by plain unpacking (the CLI's `_loop_target_names`)."""
    if isinstance(target, NameExpr):
        return [target.name]
    if isinstance(target, TupleExpr | ListExpr):
        return [name for item in target.items for name in _loop_target_names(item)]
    return []


def _loop_keys(func: FuncItem) -> frozenset[str]:
    """The names `func` binds only as the target of one `for` statement of its own body (the CLI's `loop_keys`):
    bound nowhere else (a comprehension's targets are its own scope's), not parameters, not `global`/`nonlocal`."""
    targets: dict[str, int] = {}
    bound: dict[str, int] = {}
    declared: set[str] = set()

    def count(names: Iterable[str]) -> None:
        for name in names:
            bound[name] = bound.get(name, 0) + 1

    for node in tree.walk(func.body):
        if isinstance(node, ForStmt):
            for name in _loop_target_names(node.index):
                targets[name] = targets.get(name, 0) + 1
            count(_target_names(node.index))
        elif isinstance(node, AssignmentStmt):
            count(n for lv in node.lvalues for n in _target_names(lv))
        elif isinstance(node, OperatorAssignmentStmt):
            count(_target_names(node.lvalue))
        elif isinstance(node, DelStmt):
            count(_target_names(node.expr))
        elif isinstance(node, AssignmentExpr):
            count(_target_names(node.target))
        elif isinstance(node, WithStmt):
            count(n for t in node.target if t is not None for n in _target_names(t))
        elif isinstance(node, GlobalDecl | NonlocalDecl):
            declared.update(node.names)
    params = set(_params(func))
    return frozenset(
        name for name, number in targets.items()
        if number == 1 and bound.get(name) == 1 and name not in params and name not in declared
    )


def _target_names(target: Expression) -> Iterator[str]:
    if isinstance(target, NameExpr):
        yield target.name
    elif isinstance(target, TupleExpr | ListExpr):
        for item in target.items:
            yield from _target_names(item)
    elif isinstance(target, StarExpr):
        yield from _target_names(target.expr)


def _target_texts(target: Expression) -> Iterator[str]:
    if isinstance(target, NameExpr | MemberExpr):
        text = tree.dotted(target)
        if text:
            yield text
    elif isinstance(target, TupleExpr | ListExpr):
        for item in target.items:
            yield from _target_texts(item)
    elif isinstance(target, StarExpr):
        yield from _target_texts(target.expr)


def _zero_literal(expr: Expression) -> bool:
    """A literal `0` or `0.0` (the CLI's `_zero_literal`)."""
    return isinstance(expr, IntExpr | FloatExpr) and expr.value == 0


def _int_literal(expr: Expression | None) -> int | None:
    if isinstance(expr, IntExpr):
        return expr.value
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        inner = _int_literal(expr.expr)
        return -inner if inner is not None else None
    return None


#: The arithmetic a view bound may use (`view_bounds.BoundForm`).
_BOUND_OPERATORS: Final[dict[str, str]] = {"+": "add", "-": "sub", "*": "mul", "//": "floordiv", "%": "mod"}


def _count_text(expr: Expression) -> str | None:
    """A name, an attribute path or `len(path)` as text (the CLI's `_count_text`), else None."""
    if isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr) and expr.callee.name == "len" and (
        len(expr.args) == 1 and expr.arg_kinds == [ARG_POS]
    ):
        inner = tree.dotted(expr.args[0])
        return None if inner is None else f"len({inner})"
    return tree.dotted(expr)


def _offset_form(expr: Expression) -> calls.OffsetForm | None:
    """`x`, `x + 1`, `1 + x`, `x - 1` of a `_count_text` operand (the CLI's `_offset_form`), else None."""
    if isinstance(expr, OpExpr) and expr.op in ("+", "-"):
        if isinstance(expr.right, IntExpr):
            text = _count_text(expr.left)
            return None if text is None else (text, expr.right.value if expr.op == "+" else -expr.right.value)
        if expr.op == "+" and isinstance(expr.left, IntExpr):
            text = _count_text(expr.right)
            return None if text is None else (text, expr.left.value)
        return None
    text = _count_text(expr)
    return None if text is None else (text, 0)


def _counter_locals(unit: Node, body: Sequence[Statement], counter: str) -> dict[str, tuple[Expression, int]]:
    """The names a counting loop's body binds once at its top level, bound nowhere else in `unit` (the CLI's
    `_counter_locals`)."""
    stores: dict[str, int] = {}
    for n in tree.walk(unit, skip_scopes=False):
        for t in bound_targets(n):
            if isinstance(t, NameExpr):
                stores[t.name] = stores.get(t.name, 0) + 1
        if isinstance(n, GlobalDecl | NonlocalDecl):
            for declared in n.names:
                stores[declared] = 2
        extra: list[Node] = []
        if isinstance(n, WithStmt):
            extra = [t for t in n.target if t is not None]
        elif isinstance(n, GeneratorExpr | DictionaryComprehension):
            extra = list(n.indices)
        for lvalue in extra:
            for t in tree.walk(lvalue):
                if isinstance(t, NameExpr):
                    stores[t.name] = stores.get(t.name, 0) + 1
    found: dict[str, tuple[Expression, int]] = {}
    for stmt in body:
        if not isinstance(stmt, AssignmentStmt) or len(stmt.lvalues) != 1:
            continue
        target, value = stmt.lvalues[0], stmt.rvalue
        pairs: list[tuple[Expression, Expression]] = [(target, value)]
        if isinstance(target, TupleExpr) and isinstance(value, TupleExpr) and len(target.items) == len(value.items):
            pairs = list(zip(target.items, value.items, strict=True))
        for t, v in pairs:
            if isinstance(t, NameExpr) and t.name != counter and stores.get(t.name) == 1:
                found[t.name] = (v, stmt.line)
    return found


def _bound_form(expr: Expression) -> view_bounds.BoundForm | None:
    """A view bound expression in the core's neutral form (the CLI's `_bound_form`)."""
    if isinstance(expr, IntExpr):
        return ("int", expr.value)
    if isinstance(expr, NameExpr | MemberExpr):
        parts: list[str] = []
        cur: Expression = expr
        while isinstance(cur, MemberExpr):
            parts.append(cur.name)
            cur = cur.expr
        return ("name", ".".join((cur.name, *reversed(parts)))) if isinstance(cur, NameExpr) else None
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        inner = _bound_form(expr.expr)
        return ("neg", inner) if inner is not None else None
    if isinstance(expr, OpExpr) and expr.op in _BOUND_OPERATORS:
        left, right = _bound_form(expr.left), _bound_form(expr.right)
        return (_BOUND_OPERATORS[expr.op], left, right) if left is not None and right is not None else None
    return None


def _stored_members(node: Node) -> Iterator[MemberExpr]:
    """The attribute expressions a statement or comprehension stores to or deletes."""
    for target in tree.stored_targets(node):
        for stored in _stored_exprs(target):
            if isinstance(stored, MemberExpr):
                yield stored


def _unfixed_attributes(module: MypyFile) -> frozenset[str]:
    """Attribute names the module stores other than on the receiver of an `__init__`/`__post_init__`, or `*`
    when it calls `setattr` (the CLI's `_unfixed_attributes`; kept on the file's context, `FileContext.unfixed`)."""
    nodes = list(tree.walk(module, skip_scopes=False))
    constructing: set[int] = set()
    for node in nodes:
        if isinstance(node, FuncDef) and node.name in ("__init__", "__post_init__") and node.arguments:
            me = node.arguments[0].variable.name
            constructing.update(
                id(member) for sub in tree.walk(node, skip_scopes=False) for member in _stored_members(sub)
                if isinstance(member.expr, NameExpr) and member.expr.name == me
            )
    unfixed: set[str] = set()
    for node in nodes:
        unfixed.update(member.name for member in _stored_members(node) if id(member) not in constructing)
        if isinstance(node, NameExpr) and node.name in ("setattr", "delattr"):
            unfixed.add("*")
    return frozenset(unfixed)


_LOOPS = (ForStmt, WhileStmt, GeneratorExpr, ListComprehension, SetComprehension, DictionaryComprehension)


def _task_calls(
    body: Sequence[Statement], params: Sequence[str], names: Callable[[Expression], tuple[str, ...]]
) -> dict[str, CallExpr]:
    """The tasks a function body awaits once (the CLI's `_task_calls`): a name bound once by `name =
    asyncio.create_task(f(...))` and read nowhere but in one `await name` outside any loop -> that coroutine call."""
    stable = _stable_names(body, params)
    made: dict[str, CallExpr] = {}
    targets: set[int] = set()
    reads: dict[str, int] = {}
    awaited: dict[str, int] = {}
    looped: set[int] = set()
    nodes = list(tree.walk_many(list(body)))
    for node in nodes:
        if isinstance(node, ForStmt | WhileStmt):
            inner = list(node.body.body) + (list(node.else_body.body) if node.else_body is not None else [])
            looped.update(id(n) for n in tree.walk_many(inner))
        elif isinstance(node, AssignmentStmt) and len(node.lvalues) == 1 and isinstance(node.lvalues[0], NameExpr):
            targets.add(id(node.lvalues[0]))
            value = node.rvalue
            positional = [a for a, kind in zip(value.args, value.arg_kinds, strict=True) if kind == ARG_POS] if (
                isinstance(value, CallExpr)
            ) else []
            if (
                isinstance(value, CallExpr)
                and len(positional) == 1
                and value.arg_kinds[0] == ARG_POS
                and isinstance(positional[0], CallExpr)
                and any(name in callables.TASK_FUNCTIONS for name in names(value.callee))
            ):
                made[node.lvalues[0].name] = positional[0]
        elif isinstance(node, AwaitExpr) and isinstance(node.expr, NameExpr) and id(node) not in looped:
            awaited[node.expr.name] = awaited.get(node.expr.name, 0) + 1
    for node in nodes:
        if isinstance(node, NameExpr) and id(node) not in targets:
            reads[node.name] = reads.get(node.name, 0) + 1
    return {
        name: call
        for name, call in made.items()
        if name in stable and reads.get(name) == 1 and awaited.get(name) == 1
    }


def _stable_names(body: Sequence[Statement], params: Sequence[str]) -> frozenset[str]:
    """Names with one value wherever a function reads them: a parameter never rebound, or a name bound exactly
    once (an assignment, an import, a `def`...) outside any loop or comprehension, never deleted nor declared
    `global`/`nonlocal` (nested functions' bindings of the name count too, conservatively); the same rule as the
    CLI front end's."""
    counts: dict[str, int] = dict.fromkeys(params, 1)
    unstable: set[str] = set()

    def bound(names: Iterable[str], in_loop: bool) -> None:
        for name in names:
            counts[name] = counts.get(name, 0) + 1
            if in_loop:
                unstable.add(name)

    stack: list[tuple[Node, bool]] = [(stmt, False) for stmt in body]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, AssignmentStmt):
            for lvalue in node.lvalues:
                bound(_target_names(lvalue), in_loop)
        elif isinstance(node, OperatorAssignmentStmt):
            bound(_target_names(node.lvalue), in_loop)
        elif isinstance(node, ForStmt):
            bound(_target_names(node.index), True)
        elif isinstance(node, WithStmt):
            for target in node.target:
                if target is not None:
                    bound(_target_names(target), in_loop)
        elif isinstance(node, AssignmentExpr):
            bound(_target_names(node.target), in_loop)
        elif isinstance(node, DelStmt):
            unstable.update(_target_names(node.expr))
        elif isinstance(node, TryStmt):
            bound((v.name for v in node.vars if v is not None), in_loop)
        elif isinstance(node, AsPattern | StarredPattern):
            name = node.name if isinstance(node, AsPattern) else node.capture
            bound([name.name] if name is not None else [], in_loop)
        elif isinstance(node, MappingPattern):
            bound([node.rest.name] if node.rest is not None else [], in_loop)
        elif isinstance(node, Import):
            bound(((alias or name).split(".")[0] for name, alias in node.ids), in_loop)
        elif isinstance(node, ImportFrom):
            bound((alias or name for name, alias in node.names), in_loop)
        elif isinstance(node, GlobalDecl | NonlocalDecl):
            unstable.update(node.names)
        elif isinstance(node, FuncDef | ClassDef | Decorator | OverloadedFuncDef):
            bound([node.name], in_loop)
        elif isinstance(node, GeneratorExpr | DictionaryComprehension):
            for index in node.indices:
                bound(_target_names(index), True)
        inner = in_loop or isinstance(node, _LOOPS)
        children = list(tree.children(node))
        if isinstance(node, Decorator):  # one binding: the decorated function's own name is not another
            children = [c for c in children if c is not node.func] + list(tree.children(node.func))
        stack.extend((child, inner) for child in children)
    return frozenset(n for n, c in counts.items() if c == 1 and n not in unstable)


def _display_length(expr: Expression) -> int | None:
    """How many items a tuple/list display without starred items holds (a loop over it runs exactly that many
    times), else None."""
    if isinstance(expr, TupleExpr | ListExpr) and expr.items and not any(isinstance(e, StarExpr) for e in expr.items):
        return len(expr.items)
    return None


def _values_receiver(expr: Expression, method: str = "values") -> str | None:
    """`name` of `name.values()` (`name.items()` with `method` "items"; no arguments), else None."""
    if (
        isinstance(expr, CallExpr) and not expr.args
        and isinstance(expr.callee, MemberExpr) and expr.callee.name == method
        and isinstance(expr.callee.expr, NameExpr)
    ):
        return expr.callee.expr.name
    return None


def _literal_keys(expr: Expression) -> tuple[calls.ContainerKey, ...] | None:
    """The keys of a dict display when every one is a string or integer literal (the CLI's `_literal_keys`)."""
    if not isinstance(expr, DictExpr) or not expr.items:
        return None
    keys = [_key_literal(k) if k is not None else None for k, _ in expr.items]
    return tuple(k for k in keys if k is not None) if all(k is not None for k in keys) else None


def _arm_read(expr: IndexExpr, arm: Expression) -> IndexExpr:
    """`expr`'s container read under one arm of its conditional key (the CLI's `_arm_read`)."""
    reads: dict[int, IndexExpr] = _ARM_READS.setdefault(id(expr), {})
    if id(arm) not in reads:
        read = IndexExpr(expr.base, arm)
        read.set_line(expr)
        reads[id(arm)] = read
    return reads[id(arm)]


#: The synthetic reads `_arm_read` made, per subscript node (mypy nodes take no new attributes).
_ARM_READS: dict[int, dict[int, IndexExpr]] = {}


def _get_read(expr: CallExpr, mapping: Expression, key: Expression) -> IndexExpr:
    """`mapping[key]`, the item `mapping.get(key, ...)` reads when the key is there (the CLI's `_get_read`)."""
    reads = _ARM_READS.setdefault(id(expr), {})
    if id(key) not in reads:
        read = IndexExpr(mapping, key)
        read.set_line(expr)
        reads[id(key)] = read
    return reads[id(key)]


def _changes_container(unit: Node, name: str, attr: str) -> bool:
    """The CLI's `_changes_container`: whether the unit stores into, deletes from or calls a method of `name.attr`,
    or binds `name.attr` itself."""

    def is_it(node: Node) -> bool:
        return (isinstance(node, MemberExpr) and node.name == attr and isinstance(node.expr, NameExpr)
                and node.expr.name == name)

    for sub in tree.walk(unit):
        for target in tree.stored_targets(sub):
            for flat in tree.flat_targets(target):
                if is_it(flat) or (isinstance(flat, IndexExpr) and is_it(flat.base)):
                    return True
        if isinstance(sub, CallExpr) and isinstance(sub.callee, MemberExpr) and is_it(sub.callee.expr):
            return True
    return False


def _attribute_stores(classes: Sequence[ClassDef]) -> dict[str, int]:
    """How many times the methods of `classes` (a class and its bases) bind each attribute name, any receiver's."""
    stores: dict[str, int] = {}
    for sub in (s for current in classes for s in current.defs.body):
        method = sub.func if isinstance(sub, Decorator) else sub
        if isinstance(method, FuncDef):
            for node in tree.walk(method, skip_scopes=False):
                for lvalue in tree.stored_leaves(node):
                    if isinstance(lvalue, MemberExpr):
                        stores[lvalue.name] = stores.get(lvalue.name, 0) + 1
    return stores


def _stores_on(func: FuncItem, receiver: str) -> bool:
    """Whether `func` assigns or deletes an attribute of its `receiver` parameter (the CLI's `_stores_on`)."""
    return any(
        isinstance(leaf, MemberExpr) and _root_of(leaf) == receiver
        for node in tree.walk(func.body)
        for leaf in tree.stored_leaves(node)
    )


def _root_of(expr: Expression) -> str | None:
    while isinstance(expr, MemberExpr | IndexExpr):
        expr = expr.expr if isinstance(expr, MemberExpr) else expr.base
    return expr.name if isinstance(expr, NameExpr) else None


def _key_literal(expr: Expression | None) -> calls.ContainerKey | None:
    """A subscript's literal key: an integer (`pair[-1]`) or a string (`bufs["out"]`)."""
    if isinstance(expr, StrExpr):
        return expr.value
    return _int_literal(expr)


def _display_items(expr: Expression) -> tuple[list[tuple[calls.ContainerKey, Expression]], bool] | None:
    """The keyed items of a container display and whether it is a mapping: a tuple/list display without starred
    items (keys `0..n-1`) or a dict display whose keys are all integer or string literals; else None."""
    if isinstance(expr, TupleExpr | ListExpr):
        if any(isinstance(item, StarExpr) for item in expr.items):
            return None
        return list(enumerate(expr.items)), False
    if isinstance(expr, DictExpr):
        keyed: list[tuple[calls.ContainerKey, Expression]] = []
        for key, value in expr.items:
            literal = _key_literal(key)
            if literal is None:
                return None  # `**more` or a computed key
            keyed.append((literal, value))
        return keyed, True
    return None


def _repeated_display(expr: Expression) -> calls.RepeatedDisplay[Expression] | None:
    """A list/tuple built from displays by repetition by an integer and concatenation (`[c] * 3`, `3 * [c]`,
    `[a] + [c] * 2`; `calls.RepeatedDisplay`; the CLI's `_repeated_display`), else None."""
    if not isinstance(expr, OpExpr):
        return None

    def operand(part: Expression) -> calls.RepeatedDisplay[Expression] | None:
        if isinstance(part, TupleExpr | ListExpr) and not any(isinstance(i, StarExpr) for i in part.items):
            return calls.display_sequence(part.items)
        return _repeated_display(part)

    if expr.op == "*":
        for sequence, count in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(sequence, TupleExpr | ListExpr | OpExpr) and (found := operand(sequence)) is not None:
                return calls.repeat_display(found, _int_literal(count))
        return None
    if expr.op == "+":
        return calls.join_displays(operand(expr.left), operand(expr.right))
    return None


def _getter_value(value: Expression) -> CallExpr | None:
    """A call that may make a getter (`getter_call` checks what it calls), for `bound_once`."""
    return value if isinstance(value, CallExpr) and value.args else None


@functools.lru_cache(maxsize=4)  # the modules being lowered now
def _module_getters(module: MypyFile) -> dict[str, CallExpr]:
    """Names the module's top level binds once, and nothing else binds (`_stable_names`), to a call that may make
    a getter (`io_of = attrgetter("raw", "out")`; the CLI's `_module_getters`)."""
    stable = _stable_names(module.defs, ())
    pairs = [
        ([stmt.lvalues[0].name], stmt.rvalue)
        for stmt in module.defs
        if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr)
    ]
    return {name: call for name, call in bound_once(pairs, (), _getter_value).items() if name in stable}


@functools.lru_cache(maxsize=4)  # the modules being lowered now
def _module_key_tables(module: MypyFile) -> dict[str, Expression]:
    """Names the module's top level binds once, and nothing else binds, to a tuple/list or dict display that no code
    changes in place (the CLI's `_module_key_tables`): no store into, `del` of, or attribute of the name."""
    stable = _stable_names(module.defs, ())
    changed: set[str] = set()
    for node in tree.walk_many(module.defs, skip_scopes=False):
        if isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr):
            changed.add(node.expr.name)
        targets: list[Expression] = []
        if isinstance(node, AssignmentStmt):
            targets = list(node.lvalues)
        elif isinstance(node, OperatorAssignmentStmt):
            targets = [node.lvalue]
        elif isinstance(node, DelStmt):
            targets = [node.expr]
        while targets:
            target = targets.pop()
            if isinstance(target, TupleExpr | ListExpr):
                targets.extend(target.items)
            elif isinstance(target, StarExpr):
                targets.append(target.expr)
            elif isinstance(target, IndexExpr) and isinstance(target.base, NameExpr):
                changed.add(target.base.name)
    pairs = [
        ([stmt.lvalues[0].name], stmt.rvalue)
        for stmt in module.defs
        if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr)
    ]
    shown = bound_once(pairs, (), lambda v: v if isinstance(v, TupleExpr | ListExpr | DictExpr) else None)
    return {name: value for name, value in shown.items() if name in stable and name not in changed}


def _repeated_length(expr: Expression) -> int | None:
    """The length of a counted `_repeated_display` (`[c] * 3`: 3), else None."""
    found = _repeated_display(expr)
    return len(found.order) if found is not None and found.counted else None


def _grown_lists(
    body: Sequence[Statement], built_length: Callable[[Expression], int | None]
) -> tuple[dict[int, tuple[str, int, tuple[Expression, ...]]], dict[str, list[int]]]:
    """Lists built step by step in one statement list (the CLI front end's `_grown_lists`): `args = [a, b]`
    followed, in the same list, by `args.append(c)` / `args.extend([c, d])` expression statements."""
    appends: dict[int, tuple[str, int, tuple[Expression, ...]]] = {}
    finals: dict[str, list[int]] = {}
    lists: list[Sequence[Statement]] = [body]
    for node in tree.walk_many(list(body)):
        if isinstance(node, Block) and node.body:
            lists.append(node.body)
    for stmts in lists:
        current: dict[str, int] = {}
        fixed: set[str] = set()  # bound to a tuple display: it has no `append`
        for stmt in stmts:
            if (
                isinstance(stmt, AssignmentStmt)
                and len(stmt.lvalues) == 1
                and isinstance(stmt.lvalues[0], NameExpr)
                and isinstance(stmt.rvalue, ListExpr | TupleExpr)
                and not any(isinstance(el, StarExpr) for el in stmt.rvalue.items)
            ):
                name = stmt.lvalues[0].name
                if name in current:
                    finals.setdefault(name, []).append(current[name])
                current[name] = len(stmt.rvalue.items)
                if isinstance(stmt.rvalue, TupleExpr):
                    fixed.add(name)
                else:
                    fixed.discard(name)
                continue
            taken = _starred_take(stmt.lvalues, stmt.rvalue) if isinstance(stmt, AssignmentStmt) else None
            if (
                isinstance(stmt, AssignmentStmt)
                and len(stmt.lvalues) == 1
                and isinstance(stmt.lvalues[0], NameExpr)
                and (built := built_length(stmt.rvalue)) is not None
            ):
                taken = stmt.lvalues[0].name, built
            if taken is not None:
                # a list of known length: a comprehension's, or the starred target's of `first, *rest = [a, b]`
                name = taken[0]
                if name in current:
                    finals.setdefault(name, []).append(current[name])
                current[name] = taken[1]
                fixed.discard(name)
                continue
            if not (isinstance(stmt, ExpressionStmt) and isinstance(stmt.expr, CallExpr)):
                continue
            call = stmt.expr
            callee = call.callee
            if not (isinstance(callee, MemberExpr) and isinstance(callee.expr, NameExpr)):
                continue
            if call.arg_kinds != [ARG_POS]:
                continue
            name = callee.expr.name
            if name not in current or name in fixed:
                continue
            items: tuple[Expression, ...] | None = None
            if callee.name == "append":
                items = (call.args[0],)
            elif callee.name == "extend" and (display := _display_items(call.args[0])) is not None and not display[1]:
                items = tuple(item for _, item in display[0])
            if items is not None and any(isinstance(i, TupleExpr | ListExpr | DictExpr | SetExpr) for i in items):
                items = None  # the CLI's rule: a display item is followed as a stored item (`calls.store_into`)
            if items is not None:
                appends[id(call)] = (name, current[name], items)
                current[name] += len(items)
        for name, length in current.items():
            finals.setdefault(name, []).append(length)
    return appends, finals


def _literal_subscripts(body: Sequence[Statement]) -> dict[str, list[calls.ContainerKey]]:
    """The literal keys each name is subscripted with in `body`, in order of first use (the CLI's rule)."""
    found: dict[str, list[calls.ContainerKey]] = {}
    for node in tree.walk_many(list(body)):
        if isinstance(node, IndexExpr) and isinstance(node.base, NameExpr):
            key = _key_literal(node.index)
            if key is not None and key not in (keys := found.setdefault(node.base.name, [])):
                keys.append(key)
    return found


def _display_options(expr: Expression) -> list[Expression] | None:
    """The container displays a conditional expression of displays may give (the CLI front end's rule)."""
    if isinstance(expr, ConditionalExpr):
        body, orelse = _display_options(expr.if_expr), _display_options(expr.else_expr)
        return body + orelse if body is not None and orelse is not None else None
    return [expr] if _display_items(expr) is not None else None


def _nested_display(expr: Expression) -> tuple[Expression, ...] | None:
    """The items of a tuple/list display without starred items nested in a container display (the CLI's rule)."""
    if isinstance(expr, TupleExpr | ListExpr) and not any(isinstance(item, StarExpr) for item in expr.items):
        return tuple(expr.items)
    return None


def _starred_take(targets: Sequence[Expression], value: Expression) -> tuple[str, int] | None:
    """`first, *rest = [a, b, a]`: the starred name and how many display items it collects (the CLI's rule)."""
    if len(targets) != 1 or not isinstance(targets[0], TupleExpr | ListExpr):
        return None
    if not isinstance(value, TupleExpr | ListExpr) or any(isinstance(item, StarExpr) for item in value.items):
        return None
    stars = [item for item in targets[0].items if isinstance(item, StarExpr)]
    if len(stars) != 1 or not isinstance(stars[0].expr, NameExpr):
        return None
    count = len(value.items) - (len(targets[0].items) - 1)
    return (stars[0].expr.name, count) if count >= 0 else None


def _ring_store(node: CallExpr) -> bool:
    """`name.append(x)` / `name.appendleft(x)` (`calls.RING_STORES`): one positional argument, no keyword."""
    return (
        isinstance(node.callee, MemberExpr)
        and node.callee.name in calls.RING_STORES
        and node.arg_kinds == [ARG_POS]
    )


def _changed_container(node: Node) -> str | None:
    """The name a statement or call changes in place, if it is a container's (`bufs["out"] = c`, `del
    bufs[0]`, `bufs += [c]`, `bufs.update(...)`)."""
    if isinstance(node, IndexExpr) and isinstance(node.base, NameExpr):
        return node.base.name
    if isinstance(node, NameExpr):
        return node.name
    if (
        isinstance(node, CallExpr)
        and isinstance(node.callee, MemberExpr)
        and node.callee.name in calls.MUTATING_CONTAINER_METHODS
        and isinstance(node.callee.expr, NameExpr)
    ):
        return node.callee.expr.name
    return None


def _params(func: FuncItem) -> list[str]:
    return [arg.variable.name for arg in func.arguments]


def _annotated_device(func: FuncItem, index: int, module: str) -> bool:
    """Whether the function's parameter at `index` is annotated with a device type (`buf: sk.DeviceBuffer`)."""
    arg_types = getattr(func.type, "arg_types", None)
    typ = arg_types[index] if arg_types is not None and index < len(arg_types) else None
    return func.arguments[index].type_annotation is not None and _type_is_device(typ, module)


class FunctionLowerer(calls.PlaceNaming):
    def __init__(self, ctx: FileContext, unit: Unit) -> None:
        super().__init__()
        self.ctx = ctx
        self.unit = unit
        self.kernel_body = unit.kind in KERNEL_UNIT_KINDS
        #: The statement of this body being lowered (`suite`), where a name's class is read (`receiver_classes`).
        self.current_statement: Statement | None = None
        # the statement before `current_statement` in the same block (None for a block's first)
        self.previous_statement: Statement | None = None
        self.dialect = DIALECT
        self.scopes: list[list[ir.Op]] = [[]]
        self.computed = ComputedItems()  # equal reads at computed indices (`core.computed_items`)
        self.local_names: set[str] = set()
        self.host_arrays: set[str] = set()  # names bound once to a numpy call (the CLI's)
        # the literal keys read under, by container (`keyed_mentions.read_keys`), and the names whose items are
        # never kept by key (globals, names nested functions use): the CLI's
        self.keyed_reads: dict[str, frozenset[calls.ContainerKey]] = {}
        self._keyed_blocked: frozenset[str] | None = None  # `keyed_blocked`, found when a keyed item first asks
        self._stored_targets: frozenset[int] | None = None  # `stored_target`, found when first asked
        self.device: set[str] = set()
        # the parameters (and paths below them) the function's annotations declare device values
        # (`ir.Function.declared_device`)
        self.declared_device: set[str] = set()
        # the device-like names each nested function or lambda inherits: this body's, as they stand where it is
        # defined (the CLI's `Unit.outer_device`), read by `device_names` for a hook inside the nested body
        self.def_device: dict[int, frozenset[str]] = {}
        self.origins: dict[Span, Node] = {}
        self.helpers: set[int] = set()  # ids of the functions defined in this body
        self.awaited: set[int] = set()  # calls an `await` runs (the CLI's `awaited`)
        self.gathered: dict[int, Gathered[Expression]] = {}  # coroutines `asyncio.gather` runs (the CLI's)
        self.tasks: dict[str, CallExpr] | None = None  # `_task_calls`, found at the first `await` of a name
        self.iterated: set[int] = set()  # generator calls an item is taken from (the CLI's `iterated`)
        self.loop_items: set[int] = set()  # of those, the ones a `for` takes every item of (the CLI's `loop_items`)
        self.loop_moves: dict[int, AppliedSummary[Expression] | None] = {}  # ... and their moves (the CLI's)
        # the enclosing `for i in range(n)` loops and the indices an `if` tested (the CLI's `counted_loops`)
        self.counted_loops: list[tuple[str, str]] = []
        self.tested_indices: set[str] = set()
        self._bump_calls: dict[int, tuple[ir.Place, int, int]] | None = None  # `bump_calls`
        self._kernel_names: dict[str, tuple[resolve.KernelInfo, ...]] | None = None  # `kernel_choices`
        self.closures: dict[str, calls.NonlocalEffects] = {}  # nested functions that rebind or move `nonlocal`s
        self.defaults: dict[str, parameter_defaults.ParameterDefaults] = {}  # their place defaults (the CLI's)
        self.containers: dict[str, calls.Container] = {}  # names only ever bound to displays (`calls.Container`)
        # names bound once to a dict display of literal keys (`KERNELS = {"add": add}`): what a dict comprehension
        # over `KERNELS.items()` iterates (`registry_comprehension`, the CLI's rule)
        self.registries: dict[str, list[tuple[calls.ContainerKey, Expression]]] = {}
        self.item_reads: dict[tuple[int, calls.ContainerKey], tuple[NameExpr, IndexExpr]] = {}  # `item_read`
        self.ordered: set[str] = set()  # dict displays bound once, maybe stored into under their keys
        # names bound once to a call keeping its operands' items (`pool = itertools.cycle([c])`, the CLI's rule)
        self.iterators: dict[str, CallExpr] = {}
        # names bound once to `defaultdict(lambda: buf)` and never changed in place: the factory's body (`buf`)
        self.factories: dict[str, Expression] = {}
        self.rings: set[str] = set()  # names bound once to a bounded deque as long as its display (`ring_call`)
        self.getters: dict[str, CallExpr] = {}  # names bound once here to a call that may make a getter
        self.generators: dict[str, CallExpr] = {}  # names bound once to a generator call (`gen.send(x)`)
        self.uniform: set[str] = set()  # names bound once to a display of one place (`uniform_display`)
        # names a `for` binds to the items of a list display of mappings sharing a registry's item under a key: that
        # key's read (the CLI's rule, `shared_item_reads`)
        self.loop_item_reads: dict[str, dict[calls.ContainerKey, Expression]] = {}
        # `self.attr` holding a display of prepared launches `__init__` stored: attribute -> its item count
        self.stored: dict[str, int] = {}
        self.plain_stored: set[str] = set()  # those of them that are list (tuple) displays of other values
        self.stored_keys: dict[str, tuple[object, ...]] = {}  # the keys of those that are dict displays
        # names bound once to a tuple/list display of literals: the keys of `dict(zip(names, values))` (the CLI's)
        self.key_lists: dict[str, Expression] = {}
        # `args.append(c)` of a list display grown in one statement list: (name, first index, items)
        self.appends: dict[int, tuple[str, int, tuple[Expression, ...]]] = {}
        self.splat_lengths: dict[str, int] = {}  # the one length every binding of a container list ends with
        self.lengths: dict[str, int] = {}  # a container list's length where lowering is now (display + appends)
        self.stable: frozenset[str] | None = None  # `_stable_names`, found when a view bound first asks
        self.stepping = 0  # inside a `try` or `with` body (`guarded_suite`)
        self.narrow = False  # that body's handlers catch only the module's exception classes (`narrow_handlers`)
        self.loop_nesting = 0  # loops enclosing what is being lowered (`counted_body`)
        self.loop_counter: tuple[str, int] | None = None  # the counting loop whose body is lowered (the CLI's)
        self.counter_locals: dict[str, tuple[Expression, int]] = {}
        self.constants: dict[str, int] = {}  # names an unrolled iteration binds to a number (`unpacked_comprehension`)
        self.literal_keys: dict[str, calls.ContainerKey] = {}  # names an unrolled iteration binds to a literal key
        # callables bound once to a name in this body (`find_callables`): a lambda's name by the lambda's id, the
        # function a name calls (a lambda, or what a factory of this module returns), a `functools.partial` call
        # (and its name by the call's id)
        self.lambdas: dict[int, str] = {}
        self.named: dict[str, FuncItem] = {}
        self.factory_calls: dict[str, CallExpr] = {}  # the factory call that made a function (`call_targets`)
        self.partials: dict[str, CallExpr] = {}
        self.partial_names: dict[int, str] = {}
        self.partial_slots: dict[str, str] = {}  # a loop target taking partials: the list whose slots they use
        self.slot_uses: dict[int, calls.Operand[Expression]] = {}  # a partial's bound argument, read from its slot
        self.read_properties: set[int] = set()  # attribute operands of the call being lowered, getters already run
        self.getter_calls: dict[int, CallExpr] = {}  # `getter_call_node`, by the read's node
        self.forwarded_calls: dict[int, CallExpr] = {}  # `returning_call`, by the call's node
        self.spread_items: dict[int, tuple[Expression, ...] | None] = {}  # `spread_display`, by the display's node
        self.spread_subscripts: set[int] = set()  # the items `spread_display` made
        # names bound only to functions of the module, and names bound once to a dict display of them under literal
        # keys: what a call through them may run (the CLI's `find_function_values`)
        self.function_choices: dict[str, tuple[FuncItem, ...]] = {}
        self.function_registries: dict[str, dict[object, FuncItem]] = {}
        # a `for` over a registry of the module's functions: the display it iterates like (`registry_items`)
        self._registry_items: IdentityMemo[Node, tuple[Expression, ...]] = IdentityMemo()
        self._registry_nodes: list[Expression] = []

    # --- plumbing --------------------------------------------------------------------------------------------


    @property
    def peeked(self) -> frozenset[str]:
        """The attribute names an accessor of the module peeks at (`calls.peeked_path`, `ModuleClasses.peeked`)."""
        return self.ctx.classes.peeked
    def emit(self, op: ir.Op, origin: Node | None = None) -> None:
        if type(op) is ir.Use and self.host_arrays and self.is_host_array(op.place):
            return  # a read of a numpy array is no use to check (the CLI's `emit`)
        if origin is not None:
            span = getattr(op, "span", None)
            if isinstance(span, Span):
                self.origins.setdefault(span, origin)
        self.scopes[-1].append(op)

    def lower_expr(self, expr: Expression) -> None:
        slot = self.slot_uses.get(id(expr))
        if slot is not None and slot.place is not None:  # a partial's bound argument: the call reads its slot
            self.emit(ir.Use(slot.place, slot.span))
            return
        self.expr(expr)

    def block(self, build: Callable[[], None]) -> ir.Block:
        self.scopes.append([])
        try:
            build()
        finally:
            ops = self.scopes.pop()
        return tuple(ops)

    def place(self, expr: Expression) -> ir.Place | None:
        parts: list[str] = []
        cur: Expression = expr
        while isinstance(cur, MemberExpr):
            parts.append(cur.name)
            cur = cur.expr
        if isinstance(cur, NameExpr) and not (cur.name in calls.CONSTANT_NAMES and not parts):
            attrs = tuple(reversed(parts))
            if attrs and self.ctx.classes.with_views:
                cls = receiver_class(self, cur.name)
                path = self.ctx.classes.attribute_view(cls, attrs[0]) if cls is not None else None
                if path is not None:
                    # `layer.output` of a property returning `self._out` is the place `layer._out`
                    return ir.Place(self.name(cur.name), (*path, *attrs[1:]), ".".join((cur.name, *attrs)))
                if receiver_property(self, cur.name, attrs[0]) is not None:
                    return None  # one of several places (`choices`)
            if len(attrs) == 1 and self.ctx.classes.has_getters and self.inlined_returns(expr) is not None:
                return None  # a property returning `self._launches["demand"]` (the CLI's `choices`)
            if isinstance(expr, MemberExpr) and self.getter_views(expr) is not None:
                return None  # a property returning a view: no place of its own (`value`)
            if len(attrs) == 1 and attrs[0] in self.ctx.shared_getters() and self.shared_getter_read(expr):
                return None  # a property giving a `.shared()` op: a shared op (`value`)
            return self.dotted_place(cur.name, attrs)
        return None

    def shared_getter_read(self, expr: Expression) -> bool:
        """Whether `expr` reads a property giving a `.shared()` op on every class its receiver may be (the CLI's
        `shared_getter_read`)."""
        if not (isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr)):
            return False
        getters = self.ctx.shared_getters().get(expr.name)
        candidates = receiver_classes(self, expr.expr.name) if getters else None
        if not candidates or getters is None:
            return False
        classes = self.ctx.classes
        return all(any(g is classes.definition(cls, expr.name) for g in getters) for cls in candidates)

    def getter_call(self, callee: Expression) -> tuple[tuple[calls.ContainerKey, ...], bool] | None:
        """The names a getter callee gives (`stdlib_flow.getter_keys`): a direct call, or a name bound once to one
        here or at the module's top level (the CLI's `getter_call`)."""
        call: Expression | None = callee
        if isinstance(callee, NameExpr):
            call = self.getters.get(callee.name)
            if call is None and callee.fullname == f"{self.ctx.module.fullname}.{callee.name}":
                call = _module_getters(self.ctx.module).get(callee.name)
        if not isinstance(call, CallExpr) or any(k not in (ARG_POS, ARG_STAR) for k in call.arg_kinds):
            return None
        keys: list[calls.ContainerKey | None] = []
        for arg, kind in zip(call.args, call.arg_kinds, strict=True):
            spread = self.spread_keys(arg) if kind == ARG_STAR else [_key_literal(arg)]
            if spread is None:
                return None
            keys.extend(spread)
        return next((k for n in self.ctx.names(call.callee) if (k := stdlib_flow.getter_keys(n, keys)) is not None),
                    None)

    def spread_keys(self, expr: Expression) -> list[calls.ContainerKey | None] | None:
        """The keys `*expr` spreads into a getter's operands (the CLI's `spread_keys`)."""
        shown: Expression | None = expr
        tables = _module_key_tables(self.ctx.module)
        module = self.ctx.module.fullname
        if isinstance(expr, NameExpr):
            shown = self.key_lists.get(expr.name)
            if shown is None and expr.fullname == f"{module}.{expr.name}":
                shown = tables.get(expr.name)
        elif isinstance(expr, IndexExpr) and isinstance(expr.base, NameExpr):
            base = expr.base
            table = tables.get(base.name) if base.fullname == f"{module}.{base.name}" else None
            entries = _display_items(table) if table is not None else None
            key = _key_literal(expr.index)
            shown = dict(entries[0]).get(key) if entries is not None and entries[1] and key is not None else None
        listed = self.literal_display(shown) if shown is not None else None
        return [_key_literal(k) for k in listed] if listed is not None else None

    def getter_places(self, expr: Expression) -> tuple[tuple[ir.Place, ...], bool] | None:
        """`getter(operand)` on a place: the places it gives and whether a tuple of them (the CLI's rule)."""
        if not isinstance(expr, CallExpr) or expr.arg_kinds != [ARG_POS]:
            return None
        operand = expr.args[0]
        base = self.place(operand)
        found = self.getter_call(expr.callee) if base is not None else None
        if found is None or base is None:
            return None
        keys, attribute = found
        container = None
        if isinstance(operand, NameExpr) and (held := self.containers.get(operand.name)) is not None:
            container = (self.name(operand.name), operand.name, held)
        places = stdlib_flow.getter_places(keys, attribute, base, container)
        return (places, len(keys) > 1) if places is not None else None

    def iterated_places(self, expr: Expression) -> tuple[ir.Place, ...] | None:
        """The places unpacking `expr` gives, in order, when it names an instance of a class whose `__iter__`
        gives its own attributes, or of a `NamedTuple` class of the module that defines no `__iter__` (its fields,
        `call_effects.iterated_fields`): the CLI front end's rule."""
        classes = self.ctx.classes
        if not (isinstance(expr, NameExpr) and classes.classes):
            return None
        cls = receiver_class(self, expr.name)
        if cls is None:
            return None
        paths = classes.iterated(cls) if classes.with_views else None
        if paths is None and not classes.own_iter(cls):
            paths = iterated_fields(self.generated_init(cls))
        return tuple(self.dotted_place(expr.name, path) for path in paths) if paths is not None else None

    def literal_items(self, expr: Expression) -> tuple[Expression, ...] | None:
        """The elements of a tuple/list display of places and literals (`((x, y), (y, x))`), else None."""
        if not isinstance(expr, TupleExpr | ListExpr) or not expr.items:
            return None
        items: tuple[Expression, ...] | None = tuple(expr.items)
        if any(isinstance(item, StarExpr) for item in expr.items):
            items = self.spread_display(expr)
        return items if items is not None and all(self._plain_item(item) for item in items) else None

    def spread_display(self, expr: TupleExpr | ListExpr) -> tuple[Expression, ...] | None:
        """A display with starred names of container lists of known length, each splat written out as its items
        (the CLI's `spread_display`)."""
        if id(expr) in self.spread_items:
            return self.spread_items[id(expr)]
        items: list[Expression] = []
        found: tuple[Expression, ...] | None = None
        for element in expr.items:
            if not isinstance(element, StarExpr):
                items.append(element)
                continue
            spread = self.star_elements(element.expr) if isinstance(element.expr, NameExpr) else None
            if spread is None:
                break
            for index in range(len(spread)):
                number = IntExpr(index)
                number.set_line(element)
                item = IndexExpr(element.expr, number)
                item.set_line(element)
                self.spread_subscripts.add(id(item))
                items.append(item)
        else:
            found = tuple(items)
        self.spread_items[id(expr)] = found
        return found

    def table_items(self, expr: Expression) -> tuple[Expression, ...] | None:
        """What a `for` over an iterable the source lists takes, each item as the display it unpacks (the CLI's
        `table_items`)."""
        rows = static_iterables.iteration(static_iterables.scope_of(self), expr)
        if not rows or len(rows) > calls.MAX_CONTAINER_ITEMS:
            return None
        items: list[Expression] = []
        for row in rows:
            item = row[0] if len(row) == 1 else TupleExpr(list(row))
            for part in (item, *(item.items if isinstance(item, TupleExpr) else ())):
                if part.line < 0:
                    part.set_line(expr)  # a key `sorted` gave, a row `zip` made: at the iterable
            items.append(item)
        return tuple(items) if all(self._plain_item(item) for item in items) else None

    def _plain_item(self, expr: Expression) -> bool:
        if isinstance(expr, TupleExpr | ListExpr):
            return all(self._plain_item(item) for item in expr.items)
        if isinstance(expr, NameExpr | MemberExpr):
            return self.place(expr) is not None or isinstance(expr, NameExpr)
        return isinstance(expr, StrExpr | IntExpr | FloatExpr | BytesExpr) or id(expr) in self.spread_subscripts

    # --- device-likeness (a cheap flow-insensitive pre-pass) -----------------------------------------------

    def expr_is_device(self, expr: Expression) -> bool:
        if isinstance(expr, NameExpr):
            return expr.name in self.device
        if isinstance(expr, MemberExpr):
            text = tree.dotted(expr)
            return text is not None and (text in self.device or text.split(".")[0] in self.device)
        if isinstance(expr, CallExpr):
            func = expr.callee
            if self.ctx.kernel(func) is not None or self.ctx.is_safekernels(func):
                return True
            if (flow := self.stdlib_flow_of(func)) is not None:
                # `itertools.pairwise(stages)`, `max(pool)`: device items when its item operands hold them
                positional = [a for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS]
                taken = stdlib_flow.item_operands(flow, len(positional)) or ()
                return any(self.expr_is_device(positional[i]) for i in taken)
            got = self.mapping_get(expr, local=False) if isinstance(func, MemberExpr) else None
            if got is not None:  # `bufs.get("c", c)`: its item or its fallback (the CLI's rule)
                return any(self.expr_is_device(option) for option in got)
            if isinstance(func, MemberExpr):
                receiver = func.expr
                return calls.method_result_is_device(
                    func.name, self.ctx.kernel(receiver) is not None, lambda: self.expr_is_device(receiver)
                )
            # `with lend(bufs[2]) as lo:` of a context manager yielding its parameter: `lo` is that argument
            entered = self.entered_arguments(expr)
            return entered is not None and any(self.expr_is_device(arg) for arg in entered)
        if isinstance(expr, IndexExpr):
            return self.expr_is_device(expr.base)
        if isinstance(expr, TupleExpr | ListExpr):
            return any(self.expr_is_device(i.expr if isinstance(i, StarExpr) else i) for i in expr.items)
        if isinstance(expr, ConditionalExpr):
            return self.expr_is_device(expr.if_expr) or self.expr_is_device(expr.else_expr)
        if isinstance(expr, AssignmentExpr):
            return self.expr_is_device(expr.value)
        if isinstance(expr, OpExpr) and expr.op == "+":  # `[first] + rest` of lists
            return self.expr_is_device(expr.left) or self.expr_is_device(expr.right)
        if isinstance(expr, ListComprehension):
            return self.expr_is_device(expr.generator.left_expr)
        if isinstance(expr, DictExpr):  # `{"u": buf}` (the CLI's rule)
            return any(self.expr_is_device(v) for _, v in expr.items)
        if isinstance(expr, DictionaryComprehension):
            return self.expr_is_device(expr.value)
        return False

    def display_items(self, expr: Expression) -> tuple[list[tuple[calls.ContainerKey, Expression]], bool] | None:
        """`_display_items`, and a `dict(...)` call whose entries are known (the CLI's `display_items`)."""
        found = _display_items(expr)
        if found is not None or not isinstance(expr, CallExpr):
            return found
        if any(stdlib_flow.chains_mappings(n) for n in self.ctx.names(expr.callee)):
            return self.chained_items(expr)
        if any(n in calls.SEQUENCE_CONSTRUCTORS for n in self.ctx.names(expr.callee)):
            # `deque([a, c])`, `deque([a, c], maxlen=2)`: the list display's items (the CLI's rule)
            if not expr.args or expr.arg_kinds[0] != ARG_POS or not isinstance(expr.args[0], TupleExpr | ListExpr):
                return None
            if any(kind != ARG_NAMED for kind in expr.arg_kinds[1:]):
                return None
            keywords = [(name, _int_literal(arg)) for arg, name in zip(expr.args[1:], expr.arg_names[1:], strict=True)]
            if calls.deque_bound(len(expr.args[0].items), keywords) is None:
                return None
            return _display_items(expr.args[0])
        flow = self.stdlib_flow_of(expr.callee)
        if any(k not in (ARG_POS, ARG_NAMED) for k in expr.arg_kinds):
            return None
        positional = [a for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS]
        named = [(n, a) for a, k, n in zip(expr.args, expr.arg_kinds, expr.arg_names, strict=True) if k == ARG_NAMED]
        filled = stdlib_flow.filled_entries(flow, positional, len(named))
        if filled is not None:  # `dict.fromkeys(ids, buf)`: every key's value is `buf` (the CLI's rule)
            return filled, True
        if flow is None or flow.relation != "mapping":
            return None
        if len(positional) > 1:
            return None
        keys: list[calls.ContainerKey | None] | None = None
        values: tuple[Expression, ...] | None = None
        if positional and isinstance(arg := positional[0], DictExpr):
            inner = _display_items(arg)  # `dict({"scale": a}, shift=b)`
            if inner is None:
                return None
            keys, values = [k for k, _ in inner[0]], tuple(v for _, v in inner[0])
        elif positional:
            zipped = positional[0]
            if (
                not isinstance(zipped, CallExpr)
                or self.builtin(zipped.callee) != "zip"
                or zipped.arg_kinds.count(ARG_POS) != 2
                or zipped.arg_kinds[:2] != [ARG_POS, ARG_POS]
                or any(n != "strict" for n in zipped.arg_names[2:])
            ):
                return None
            shown = zipped.args[0]
            if isinstance(shown, NameExpr):
                shown = self.key_lists.get(shown.name, shown)
            listed = self.literal_display(shown)
            keys = [_key_literal(k) for k in listed] if listed is not None else None
            values = self.literal_display(zipped.args[1])
        entries = stdlib_flow.dict_entries(named, keys, values)
        return (entries, True) if entries is not None else None

    def chained_items(self, expr: CallExpr) -> tuple[list[tuple[calls.ContainerKey, Expression]], bool] | None:
        """`ChainMap(m1, m2, ...)` of dict displays and names bound once to one: the dict display of the items its
        lookups find, a name's item read as `name["key"]` (the CLI's `chained_items`)."""
        if any(kind != ARG_POS for kind in expr.arg_kinds):
            return None
        maps: list[tuple[list[tuple[calls.ContainerKey, Expression]], bool] | None] = []
        for arg in expr.args:
            if isinstance(arg, DictExpr):
                shown = _display_items(arg)
                maps.append((shown[0], True) if shown is not None and shown[1] else None)
            elif isinstance(arg, NameExpr) and (held := self.registries.get(arg.name)) is not None:
                maps.append(([(key, self.item_read(arg, key)) for key, _ in held], False))
            else:
                maps.append(None)
        entries = stdlib_flow.chained_entries(maps)
        return (entries, True) if entries is not None else None

    def item_read(self, name: NameExpr, key: calls.ContainerKey) -> IndexExpr:
        """`name[key]`, spelled where `name` is (the CLI's `_item_read`): one node per name node and key, kept
        while this body is lowered."""
        found = self.item_reads.get((id(name), key))
        if found is not None and found[0] is name:
            return found[1]
        base = NameExpr(name.name)
        base.node, base.fullname, base.kind = name.node, name.fullname, name.kind
        index: Expression = StrExpr(key) if isinstance(key, str) else IntExpr(key)
        read = IndexExpr(base, index)
        for node in (base, index, read):
            node.set_line(name)
        self.item_reads[(id(name), key)] = (name, read)
        return read

    def factory_body(self, expr: Expression) -> Expression | None:
        """`defaultdict(lambda: buf)`: its factory's body (the CLI's `factory_body`)."""
        if not isinstance(expr, CallExpr) or any(kind != ARG_POS for kind in expr.arg_kinds):
            return None
        names = self.ctx.names(expr.callee)
        if not any(stdlib_flow.factory_mapping(n, len(expr.args), 0) for n in names):
            return None
        factory = expr.args[0]
        if not isinstance(factory, LambdaExpr) or factory.arguments:
            return None
        return factory.expr()

    def ring_call(self, expr: Expression) -> CallExpr | None:
        """`deque([a, c], maxlen=2)`: a bounded deque as long as its display (the CLI's `ring_call`), else None."""
        if not (isinstance(expr, CallExpr) and expr.args and isinstance(expr.args[0], TupleExpr | ListExpr)):
            return None
        if expr.arg_kinds[0] != ARG_POS or any(kind != ARG_NAMED for kind in expr.arg_kinds[1:]):
            return None
        if not any(n in calls.SEQUENCE_CONSTRUCTORS for n in self.ctx.names(expr.callee)):
            return None
        keywords = [(name, _int_literal(arg)) for arg, name in zip(expr.args[1:], expr.arg_names[1:], strict=True)]
        return expr if calls.deque_bound(len(expr.args[0].items), keywords) else None

    def namespace(self, call: CallExpr) -> tuple[str, GeneratedInit] | None:
        """The qualified name of a `namespace` entry `call` builds an object of with keywords only
        (`types.SimpleNamespace(src=a, dst=a)`), with the initializer `stdlib_flow.namespace_init` gives it (the
        CLI's `namespace`)."""
        positional = sum(1 for kind in call.arg_kinds if kind == ARG_POS)
        keywords = [n if k == ARG_NAMED else None for n, k in zip(call.arg_names, call.arg_kinds, strict=True)
                    if k != ARG_POS]
        return next(((n, g) for n in self.ctx.names(call.callee)
                     if (g := stdlib_flow.namespace_init(n, positional, keywords)) is not None), None)

    def stdlib_flow_of(self, callee: Expression) -> stdlib_flow.StdlibFlow | None:
        """The `stdlib_flow` entry of the callable a callee names (a builtin unless shadowed), else None."""
        return next((f for n in self.ctx.names(callee) if (f := stdlib_flow.stdlib_flow(n)) is not None), None)

    def prepass(self, body: Sequence[Statement], func: FuncItem | None) -> None:
        self.appends, finals = _grown_lists(
            body, lambda v: built[1] if (built := self.built_list(v)) else _repeated_length(v)
        )
        if func is not None:
            arg_types = getattr(func.type, "arg_types", None)
            for index, param in enumerate(_params(func)):
                self.local_names.add(param)
                typ = arg_types[index] if arg_types is not None and index < len(arg_types) else None
                annotated = func.arguments[index].type_annotation is not None
                if _annotated_device(func, index, self.ctx.module.fullname):
                    self.device.add(param)
                    self.declared_device.add(param)
                elif annotated and (holder := self.type_class(typ)) is not None:
                    # `def step(param: Param)`: its fields declared with device types (the CLI's `field_devices`)
                    fields = (*self.field_devices(holder, param), *self.method_devices(holder, param))
                    self.device.update(fields)
                    self.declared_device.update(fields)
        pairs: list[tuple[list[str], Expression]] = []
        starred: dict[int, tuple[str, int]] = {}  # pair index -> `_starred_take` of its assignment
        mentioned: set[str] = set()
        unsure: set[str] = set()
        ring_stores: set[str] = set()  # names `append`ed / `appendleft`ed to: a change in place unless a ring's
        keyed: dict[str, list[calls.ContainerKey]] = {}  # names stored into under literal keys (`heads["k"] = v`)
        launched: list[CallExpr] = []
        made: list[tuple[str, Var, FuncDef | Decorator]] = []  # `name = factory()` / `name = kernel` candidates
        for node in tree.walk_many(list(body)):
            if isinstance(node, NameExpr):
                mentioned.add(node.name)
            elif isinstance(node, CallExpr):
                launched.append(node)
                if (changed := _changed_container(node)) is not None and id(node) not in self.appends:
                    if _ring_store(node):
                        ring_stores.add(changed)
                    else:
                        unsure.add(changed)
            elif isinstance(node, OperatorAssignmentStmt):
                unsure.update(_target_names(node.lvalue))
                if (changed := _changed_container(node.lvalue)) is not None:
                    unsure.add(changed)
            elif isinstance(node, DelStmt):
                unsure.update(_target_names(node.expr))
                for deleted in node.expr.items if isinstance(node.expr, TupleExpr) else [node.expr]:
                    if (changed := _changed_container(deleted)) is not None:
                        unsure.add(changed)
            elif isinstance(node, AssignmentStmt):
                for lvalue in node.lvalues:
                    if isinstance(lvalue, IndexExpr) and (changed := _changed_container(lvalue)) is not None:
                        key = _key_literal(lvalue.index)
                        if key is not None and not isinstance(node.rvalue, CallExpr | AwaitExpr):
                            # a strong update (`calls.stored_element`); a call's result may be a pending op (the
                            # CLI's rule)
                            keyed.setdefault(changed, []).append(key)
                        else:
                            unsure.add(changed)
                lvalue = node.lvalues[0]
                if (
                    len(node.lvalues) == 1
                    and isinstance(lvalue, NameExpr)
                    and isinstance(lvalue.node, Var)
                    and isinstance(node.rvalue, CallExpr)
                    and isinstance(node.rvalue.callee, NameExpr)
                    and isinstance(node.rvalue.callee.node, FuncDef)
                ):
                    made.append((lvalue.name, lvalue.node, node.rvalue.callee.node))
                elif (
                    len(node.lvalues) == 1
                    and isinstance(lvalue, NameExpr)
                    and isinstance(lvalue.node, Var)
                    and isinstance(node.rvalue, NameExpr)
                    and isinstance(node.rvalue.node, Decorator)
                    and self.ctx.module.names.get(node.rvalue.name) is not None
                    and self.ctx.module.names[node.rvalue.name].node is node.rvalue.node
                    and self.ctx.kernel(node.rvalue) is not None
                ):
                    # `kernel = shift`: a local alias of a kernel of the module (the CLI's `find_factory_kernels`)
                    made.append((lvalue.name, lvalue.node, node.rvalue.node))
                names = [n for t in node.lvalues for n in _target_texts(t)]
                if node.unanalyzed_type is not None and _type_is_device(node.type, self.ctx.module.fullname):
                    self.device.update(names)
                if not isinstance(node.rvalue, TempNode):
                    pairs.append((names, node.rvalue))
                    if (taken := _starred_take(node.lvalues, node.rvalue)) is not None:
                        starred[len(pairs) - 1] = taken
            elif isinstance(node, AssignmentExpr):
                pairs.append((list(_target_texts(node.target)), node.value))
            elif isinstance(node, ForStmt):
                pairs.append((list(_target_texts(node.index)), node.expr))
            elif isinstance(node, WithStmt):
                for item, target in zip(node.expr, node.target, strict=True):
                    if target is not None:
                        pairs.append((list(_target_texts(target)), item))
            elif isinstance(node, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
                self.local_names.add(node.name)
                if isinstance(node, FuncDef):
                    self.helpers.add(id(node))
                elif isinstance(node, Decorator) and (plain := self.ctx.classes.plain(node)) is not None:
                    self.helpers.add(id(plain))  # wrapped by a decorator that forwards its calls
        for names, _ in pairs:
            self.local_names.update(n for n in names if "." not in n)
        # a container changed only by literal-key stores stays one (`find_containers`, the CLI's rule)
        changed_otherwise = unsure | ring_stores
        unsure.update(keyed)
        # `history.append(x)` of `history = deque([a, b], maxlen=2)` keeps it a container (the CLI's rule)
        self.rings = set(bound_once(pairs, unsure, self.ring_call))
        unsure.update(ring_stores - self.rings)
        stored = {name: keys for name, keys in keyed.items() if name not in changed_otherwise}
        self.find_callables(body, pairs, unsure)
        self.find_function_values(body, pairs, unsure | set(_params(func) if func is not None else ()))
        self.find_containers(pairs, unsure, starred, body, stored, finals)
        for name, lengths in finals.items():
            container = self.containers.get(name)
            if container is None or container.mapping:
                continue
            longest = max(*lengths, len(container.keys))
            if longest <= calls.MAX_CONTAINER_ITEMS:
                self.containers[name] = replace(container, keys=tuple(range(longest)))
                bindings = sum(1 for names, _ in pairs if name in names)
                if len(set(lengths)) == 1 and bindings == len(lengths):
                    self.splat_lengths[name] = longest
        star = next((a.variable.name for a in func.arguments if a.kind == ARG_STAR), None) if func else None
        if self.unit.star_items and star is not None and star not in unsure and all(
            star not in names for names, _ in pairs
        ):
            # the `*args` tuple of a call summary's call (`Unit.star_items`): `*args` and `args[i]` are its items
            self.containers[star] = calls.Container(tuple(range(self.unit.star_items)), False)
            self.splat_lengths[star] = self.lengths[star] = self.unit.star_items
        spread = next((a.variable.name for a in func.arguments if a.kind == ARG_STAR2), None) if func else None
        if self.unit.spread_keys and spread is not None and spread not in unsure and all(
            spread not in names for names, _ in pairs
        ):
            # the `**kwargs` dict of a call summary's call (`Unit.spread_keys`): `kwargs["dry"]` is the item the
            # caller passed as `dry=`
            self.containers[spread] = calls.Container(self.unit.spread_keys, True)
        self.find_factory_kernels(pairs, unsure | set(_params(func) if func is not None else ()), made)
        for call in launched:
            # A place passed to a kernel is a device value (the launch refuses anything else).
            if self.launched_kernel(call.callee) is not None:
                for arg, kind in zip(call.args, call.arg_kinds, strict=True):
                    text = tree.dotted(arg)
                    if text is not None and kind not in (ARG_STAR, ARG_STAR2):
                        self.device.add(text)
                    elif kind not in (ARG_STAR, ARG_STAR2) and (base := _view_base(arg)) is not None:
                        # `k(u.partition((128,)))`: what is viewed or partitioned inline is one too (the CLI's rule)
                        self.device.add(base)
        candidates = self.unit.outer_candidates
        if candidates is None or (candidates and not candidates.isdisjoint(mentioned | self.local_names)):
            self.device.update(self.unit.outer_device())
        device = self.device
        for _ in range(4):
            before = len(device)
            for names, value in pairs:
                # A pair whose names are all device-like already cannot add anything: skip its (recursive) test.
                if not device.issuperset(names) and self.expr_is_device(value):
                    device.update(names)
                elif not device.isdisjoint(names) and (base := _view_base(value)) is not None:
                    # `lower = buf.view(...)` passed to a kernel: the buffer it views is a device value too
                    device.add(base)
            if len(device) == before:
                break

    def find_callables(
        self, body: Sequence[Statement], pairs: Sequence[tuple[list[str], Expression]], unsure: set[str]
    ) -> None:
        """Names this body binds once, by `name = value`, to a callable the checker follows at a call of `name`
        (the CLI's `find_callables`, `ownership_check.core.callables`)."""
        counts: dict[str, int] = {}
        for names, _ in pairs:
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        excluded = set(unsure)
        candidates: list[tuple[str, Expression]] = []
        loops: list[tuple[callables.LoopTarget, callables.LoopSource]] = []
        for node in tree.walk_many(list(body)):
            if isinstance(node, AssignmentStmt):
                if len(node.lvalues) == 1 and isinstance(target := node.lvalues[0], NameExpr):
                    if counts.get(target.name) == 1 and isinstance(
                        node.rvalue, LambdaExpr | CallExpr | ListComprehension | IndexExpr | ListExpr | TupleExpr
                    ):
                        candidates.append((target.name, node.rvalue))
            elif isinstance(node, ForStmt):
                loops.append((_loop_target(node.index), self.loop_source(node.expr)))
            elif isinstance(node, GlobalDecl | NonlocalDecl):
                excluded.update(node.names)
            elif isinstance(node, Import):
                excluded.update(alias or module.split(".")[0] for module, alias in node.ids)
            elif isinstance(node, ImportFrom):
                excluded.update(alias or original for original, alias in node.names)
            elif isinstance(node, TryStmt):
                excluded.update(v.name for v in node.vars if v is not None)
            elif isinstance(node, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
                excluded.add(node.name)
        built: dict[str, CallExpr] = {}  # a list comprehension of partials: its element, by the list's name
        for name, value in candidates:
            if name in excluded:
                continue
            if isinstance(value, LambdaExpr):
                self.named[name] = value
                self.lambdas[id(value)] = name
            elif isinstance(value, ListComprehension):
                element = value.generator.left_expr
                if isinstance(element, CallExpr) and self.partial_call(element):
                    built[name] = element
            elif not isinstance(value, CallExpr):
                continue
            elif self.partial_call(value):
                self.partials[name] = value
                self.partial_names[id(value)] = name
            elif isinstance(value.callee, NameExpr) and (factory := self.helper(value.callee)) is not None:
                made = _returned_function(factory)
                if made is not None:
                    self.named[name] = made
                    self.factory_calls[name] = value
        once_bound = {name: value for name, value in candidates if name not in excluded}
        for name, value in once_bound.items():
            if isinstance(value, IndexExpr) and name not in self.partials:
                self.partial_of_item(name, value, once_bound)
        self.host_arrays = {
            name for name, value in once_bound.items()
            if isinstance(value, CallExpr) and isinstance(value.callee, RefExpr)
            and value.callee.fullname.startswith("numpy.")
        }

        def once(name: str) -> bool:
            return counts.get(name) == 1 and name not in excluded and name not in self.partials

        for name, (call, owner) in callables.partial_items(loops, built, once).items():
            # a loop target taking the partials a list comprehension builds (the CLI's `find_callables`)
            self.partials[name] = call
            self.partial_slots[name] = owner
            self.partial_names[id(call)] = owner

    def partial_of_item(self, name: str, value: IndexExpr, once_bound: Mapping[str, Expression]) -> None:
        """`name = seq[i]` of a name bound once to a display of partials here, or to a call of a helper whose one
        `return` is one: `name` is that item's partial (the CLI's `partial_of_item`)."""
        seq, index = value.base, _int_literal(value.index)
        source = once_bound.get(seq.name) if isinstance(seq, NameExpr) else None
        items: list[Expression] = []
        helper: FuncItem | None = None
        if isinstance(source, ListExpr | TupleExpr):
            items = source.items
        elif isinstance(source, CallExpr) and isinstance(source.callee, NameExpr):
            helper = self.helper(source.callee)
            found = _returned_displays(helper) if helper is not None else None
            if found is None or len(found) != 1 or found[0][1]:
                return
            items = [item for _, item in found[0][0]]
        if isinstance(seq, NameExpr) and any(isinstance(item, StarExpr) for item in items):
            return
        taken = callables.partial_of_item(
            [i if isinstance(i, CallExpr) and self.partial_call(i) else None for i in items], index
        )
        if taken is None or not isinstance(seq, NameExpr):
            return
        call, position = taken
        if helper is not None:
            root = (tree.dotted(call.args[0]) or "").split(".")[0]
            if not root or root in _rebound_names(helper) | set(_params(helper)) or root in self.local_names:
                return
            self.partials[name] = call  # its slots, under `name`, are never bound here: objects of the helper's
            return
        owner = f"{seq.name}$e{position}"
        self.partials[name] = call
        self.partial_slots[name] = owner
        self.partial_names[id(call)] = owner  # the display binds the item's slots where it is evaluated

    def partial_call(self, value: CallExpr) -> bool:
        """A `functools.partial(target, ...)` call the checker follows (the CLI's `partial_call`)."""
        return (
            any(resolve.matches(n, "functools.partial") for n in self.ctx.names(value.callee))
            and bool(value.args)
            and all(k in (ARG_POS, ARG_NAMED) for k in value.arg_kinds)
            and value.arg_kinds[0] == ARG_POS
        )

    def loop_source(self, expr: Expression) -> callables.LoopSource:
        """What a `for` iterates, as `callables.item_sources` reads it (the CLI's `loop_source`)."""
        if isinstance(expr, NameExpr):
            return expr.name
        if not isinstance(expr, CallExpr) or ARG_STAR in expr.arg_kinds or ARG_STAR2 in expr.arg_kinds:
            return None
        builtin = self.builtin(expr.callee)
        positional = [a for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS]
        names = [n for n, k in zip(expr.arg_names, expr.arg_kinds, strict=True) if k == ARG_NAMED]
        if builtin == "zip" and all(n == "strict" for n in names):
            return "zip", tuple(self.loop_source(a) for a in positional)
        if builtin == "enumerate" and len(positional) == 1 and all(n == "start" for n in names):
            return "enumerate", (self.loop_source(positional[0]),)
        return None

    def function_value(self, expr: Expression) -> list[FuncItem | None] | None:
        """The functions of the module an expression bound to a name may be (the CLI's `function_value`)."""
        if isinstance(expr, ConditionalExpr):
            body, orelse = self.function_value(expr.if_expr), self.function_value(expr.else_expr)
            return None if body is None or orelse is None else body + orelse
        if not isinstance(expr, NameExpr):
            return None
        found = self.helper(expr)
        return [found if found is not None and self.ctx.classes.runs_when_called(found) else None]

    def registered_functions(self, expr: Expression, targets: int) -> tuple[FuncDef, ...] | None:
        """The functions a `for` over a registry of the module takes its last target from (the CLI's
        `registered_functions`)."""
        method = None
        if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and not expr.args:
            method, expr = expr.callee.name, expr.callee.expr
        if (method, targets) not in ((None, 1), ("values", 1), ("items", 2)):
            return None
        if isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr):
            # `for hook in self.hooks` of an attribute registry of the receiver's class
            cls = receiver_class(self, expr.expr.name)
            return self.ctx.attribute_registries.get((cls.name, expr.name)) if cls is not None else None
        if not isinstance(expr, NameExpr) or expr.name in self.local_names:
            return None
        symbol = self.ctx.module.names.get(expr.name)
        if symbol is None or symbol.node is not expr.node:
            return None
        return self.ctx.registries.get(expr.name)

    def registry_items(self, expr: Expression, target: Expression) -> tuple[Expression, ...] | None:
        """A `for` over a registry of the module's functions as the display of them it iterates like (the CLI's
        `registry_items`), made once per loop and kept."""
        made = self._registry_items.get(expr)
        if made is not None:
            return made
        count = len(target.items) if isinstance(target, TupleExpr | ListExpr) else 1
        functions = self.registered_functions(expr, count)
        if functions is None or any(f.name in self.local_names for f in functions):
            return None

        def item(function: FuncDef) -> Expression:
            name = NameExpr(function.name)
            symbol = self.ctx.module.names.get(function.name)
            name.node = symbol.node if symbol is not None else function
            name.kind = GDEF
            name.fullname = f"{self.ctx.module.fullname}.{function.name}"
            name.set_line(expr)
            if count == 1:
                return name
            key = StrExpr("")
            key.set_line(expr)
            pair = TupleExpr([key, name])
            pair.set_line(expr)
            return pair

        made = self._registry_items[expr] = tuple(item(f) for f in functions)
        self._registry_nodes.append(expr)  # keeps `id(expr)` this loop's
        return made

    def find_function_values(
        self, body: Sequence[Statement], pairs: Sequence[tuple[list[str], Expression]], unsure: set[str]
    ) -> None:
        """Names bound only to functions of the module, and names bound once to a dict display of them under
        literal keys (the CLI's `find_function_values`, `callables.bound_functions`)."""
        loops = {id(n.expr) for n in tree.walk_many(list(body)) if isinstance(n, ForStmt) and not n.is_async}
        bindings: dict[str, list[list[FuncItem | None] | None]] = {}
        registries: dict[str, list[dict[object, FuncItem] | None]] = {}
        for names, value in pairs:
            options: list[FuncItem | None] | None = None
            registry: dict[object, FuncItem] | None = None
            registered = self.registered_functions(value, len(names)) if id(value) in loops else None
            if registered is not None:
                # `for name, fn in PASSES.items()` of a registry of the module's functions (the CLI's rule)
                for name in names[:-1]:
                    bindings.setdefault(name, []).append(None)
                    registries.setdefault(name, []).append(None)
                bindings.setdefault(names[-1], []).append(list(registered))
                registries.setdefault(names[-1], []).append(None)
                continue
            if len(names) == 1 and id(value) in loops:
                if isinstance(value, TupleExpr | ListExpr | SetExpr) and value.items:
                    found = [self.function_value(e) for e in value.items]
                    options = None if any(f is None or len(f) != 1 for f in found) else [f[0] for f in found if f]
            elif len(names) == 1:
                options = self.function_value(value)
                if isinstance(value, DictExpr) and all(k is not None for k, _ in value.items):
                    keys = [_key_literal(k) for k, _ in value.items]
                    found = [self.function_value(v) for _, v in value.items]
                    if all(k is not None for k in keys) and all(f is not None and len(f) == 1 for f in found):
                        registry = callables.registry_functions(
                            [(k, f[0]) for k, f in zip(keys, found, strict=True) if f]
                        )
            for name in names:
                bindings.setdefault(name, []).append(options)
                registries.setdefault(name, []).append(registry)
        for name, options_list in bindings.items():
            if name in unsure or "." in name or name in self.named:
                continue
            functions = callables.bound_functions(options_list)
            if functions is not None:
                self.function_choices[name] = functions
            held = registries[name]
            if len(held) == 1 and held[0] is not None:
                self.function_registries[name] = held[0]

    def find_containers(
        self,
        pairs: Sequence[tuple[list[str], Expression]],
        unsure: set[str],
        starred: Mapping[int, tuple[str, int]] | None = None,
        body: Sequence[Statement] = (),
        stored: Mapping[str, Sequence[calls.ContainerKey]] | None = None,
        grown: Mapping[str, Sequence[int]] | None = None,
    ) -> None:
        """Names bound only by plain assignments of displays and never changed in place (`pair = (a, c)`,
        `bufs = {"out": c}`): `pair[1]` is `c`, `bufs["out"]` is `c` (`calls.Container`); also by a list
        comprehension of known length, as the starred target of unpacking a display (`starred`), or by a dict
        comprehension (new values under the literal keys `body` subscripts the name with; the CLI's rule).
        `stored`: names changed only by literal-key stores, containers still when they hold those keys (the CLI's
        rule, `calls.keeps_stores`).  `grown`: the lengths lists reach by appends (`calls.find_container`)."""
        kept = dict(stored or {})
        grown = grown or {}
        subscripted: dict[str, list[calls.ContainerKey]] | None = None
        displays: dict[str, list[tuple[tuple[calls.ContainerKey, ...], bool] | None]] = {}
        inner: dict[str, list[dict[calls.ContainerKey, int]]] = {}  # per binding: nested display lengths by key

        def keyed_list(value: Expression) -> TupleExpr | ListExpr | None:
            keyed = isinstance(value, TupleExpr | ListExpr) and all(_key_literal(i) is not None for i in value.items)
            return value if keyed and isinstance(value, TupleExpr | ListExpr) else None

        def display_registry(value: Expression) -> list[tuple[calls.ContainerKey, Expression]] | None:
            found = self.display_items(value)
            return found[0] if found is not None and found[1] else None

        def kept_iterator(value: Expression) -> CallExpr | None:
            flow = self.stdlib_flow_of(value.callee) if isinstance(value, CallExpr) else None
            return value if isinstance(value, CallExpr) and flow is not None and flow.relation == "items" else None

        # names bound once to a value of each kind (`bound_once`, the CLI's rule too)
        self.key_lists = bound_once(pairs, unsure, keyed_list)
        self.registries = bound_once(pairs, unsure, display_registry)
        # a dict display bound once whose items keep their order: also through literal-key stores (`mapping_items`),
        # or a dict comprehension over literal keys (`comprehension_keys`)
        self.ordered = set(bound_once(
            pairs, unsure - kept.keys(), lambda v: display_registry(v) or self.comprehension_keys(v)
        ))
        self.iterators = bound_once(pairs, unsure, kept_iterator)
        self.factories = {
            name: body
            for name, body in bound_once(pairs, unsure, self.factory_body).items()
            # a name bound at most once here: the object the factory gives stays one
            if isinstance(body, NameExpr) and sum(body.name in names for names, _ in pairs) <= 1
        }
        self.generators = bound_once(pairs, unsure, self.generator_call)
        self.getters = bound_once(pairs, unsure, _getter_value)
        # a sequence display of one place bound once, never changed (`bufs = [buf, buf]`): any item is that place
        self.uniform = set(bound_once(pairs, unsure, self.uniform_display))
        shared = bound_once(pairs, unsure, self.shared_item_reads)
        self.loop_item_reads = {
            target: shared[listed] for target, listed in _loop_targets(body, self.builtin).items() if listed in shared
        }
        for index, (names, value) in enumerate(pairs):
            star = starred.get(index) if starred is not None else None
            if star is not None:
                displays.setdefault(star[0], []).append((tuple(range(star[1])), False))
            for option in _display_options(value) or (value,):
                found = self.display_items(option)
                shape = (tuple(k for k, _ in found[0]), found[1]) if found is not None else None
                if shape is None and (built := self.built_list(option)) is not None:
                    shape = (tuple(range(built[1])), False)
                if shape is None and (repeated := _repeated_display(option)) is not None:
                    shape = (tuple(range(len(repeated.order))), False)  # `[c] * 3`: one item per index
                if shape is None and (returned := self.returned_displays(option)) is not None:
                    # `params = init_params(w)` of a helper returning `{"gamma": ..., "beta": ...}`
                    shape = (tuple(dict.fromkeys(k for items in returned[0] for k, _ in items)), returned[1])
                for name in names:
                    if star is not None and name == star[0]:
                        continue
                    if len(names) != 1 or "." in name:
                        unsure.add(name)
                        kept.pop(name, None)
                    else:
                        if shape is None and (registry := self.registry_comprehension(option)) is not None:
                            shape = (tuple(registry[1]), True)  # one item per registry key
                        if shape is None and (in_order := self.comprehension_keys(option)) is not None:
                            shape = (in_order, True)  # `{name: make(name) for name in "qkv"}`: its keys in order
                        if shape is None and isinstance(option, DictionaryComprehension):
                            if subscripted is None:
                                subscripted = _literal_subscripts(body)
                            keys = subscripted.get(name)
                            shape = (tuple(keys), True) if keys else None
                        displays.setdefault(name, []).append(shape)
                        inner.setdefault(name, []).append(
                            {k: len(sub) for k, item in found[0] if (sub := _nested_display(item)) is not None}
                            if found is not None
                            else {}
                        )
        self.containers = {
            n: calls.find_inner(c, inner.get(n, []))
            for n, d in displays.items()
            if (n not in unsure or n in kept) and (plain := calls.find_container(d, grown.get(n, ()))) is not None
            and (c := calls.with_stores(plain, kept.get(n, ()))) is not None
        }
        for name, container in self.unit.outer_containers.items():
            # a captured container (`bufs[2]` in a nested function): its items are the caller's values
            if name not in self.local_names and name not in unsure:
                self.containers.setdefault(name, container)

    def shared_item_reads(self, expr: Expression) -> dict[calls.ContainerKey, Expression] | None:
        """A list/tuple display whose items are all mappings, by each key whose item in every one reads one
        registry under that key: that read (the CLI's `shared_item_reads`); None when no key is so shared."""
        if not isinstance(expr, ListExpr | TupleExpr) or not expr.items:
            return None
        per_item: list[dict[calls.ContainerKey, Expression]] = []
        for item in expr.items:
            shown = self.display_items(item) if not isinstance(item, StarExpr) else None
            if shown is None or not shown[1]:
                return None
            per_item.append(dict(shown[0]))
        shared: dict[calls.ContainerKey, Expression] = {}
        for key, read in per_item[0].items():
            reads = [entries.get(key) for entries in per_item]
            registry = {
                r.base.name if isinstance(r, IndexExpr) and isinstance(r.base, NameExpr)
                and _key_literal(r.index) == key and r.base.name in self.registries else None
                for r in reads
            }
            if len(registry) == 1 and None not in registry:
                shared[key] = read
        return shared or None

    def comprehension_keys(self, expr: Expression) -> tuple[calls.ContainerKey, ...] | None:
        """The keys of a dict comprehension keyed by its one loop target over literal keys, without `if` (the CLI's
        rule, `calls.comprehension_keys`); else None."""
        if not isinstance(expr, DictionaryComprehension) or len(expr.sequences) != 1:
            return None
        target, source = expr.indices[0], expr.sequences[0]
        if expr.condlists[0] or expr.is_async[0] or not isinstance(target, NameExpr):
            return None
        if isinstance(source, NameExpr):
            source = self.key_lists.get(source.name, source)
        iterated: list[calls.ContainerKey | None] | None = None
        if isinstance(source, StrExpr):
            iterated = list(source.value)
        elif (items := self.literal_display(source)) is not None:
            iterated = [_key_literal(item) for item in items]
        keyed = isinstance(expr.key, NameExpr) and expr.key.name == target.name
        return calls.comprehension_keys(keyed, iterated)

    def built_list(self, expr: Expression) -> tuple[ListComprehension, int, tuple[Expression, ...] | None] | None:
        """A list comprehension whose items can be named (the CLI front end's rule, `calls.assign_built_list`)."""
        if not isinstance(expr, ListComprehension) or len(expr.generator.indices) != 1:
            return None
        gen = expr.generator
        if gen.condlists[0] or gen.is_async[0]:
            return None
        sequence = gen.sequences[0]
        items = self.literal_display(sequence)
        if items is not None:
            names = set(_target_names(gen.indices[0]))
            if not names.isdisjoint(n for item in items for n in _item_roots(item)):
                return None
            return expr, len(items), items
        if (
            isinstance(sequence, CallExpr)
            and self.builtin(sequence.callee) == "range"
            and all(kind == ARG_POS for kind in sequence.arg_kinds)
            and (count := calls.range_length([_int_literal(a) for a in sequence.args])) is not None
        ):
            return expr, count, None
        return None

    def find_factory_kernels(
        self,
        pairs: Sequence[tuple[list[str], Expression]],
        unsure: set[str],
        made: Sequence[tuple[str, Var, FuncDef | Decorator]],
    ) -> None:
        """Names bound only by calls of kernel factories that all return one kernel (or by the name of a kernel of
        the module, `kernel = shift`): they are that kernel (`calls.factory_kernel` over the bindings, the CLI front
        end's rule)."""
        counts: dict[str, int] = {}
        for names, _ in pairs:
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        per_name: dict[str, list[tuple[Var, Decorator | None]]] = {}
        for name, var, factory in made:
            if name in unsure:
                continue
            if isinstance(factory, Decorator):  # the kernel itself
                per_name.setdefault(name, []).append((var, factory))
                continue
            returned: list[Decorator | None] = []
            for node in tree.walk_many(factory.body.body):
                if isinstance(node, ReturnStmt):
                    value = node.expr
                    kernel_def = value.node if isinstance(value, NameExpr) else None
                    if isinstance(value, NameExpr) and isinstance(kernel_def, Decorator) and self.ctx.kernel(value):
                        returned.append(kernel_def)
                    else:
                        returned.append(None)
            per_name.setdefault(name, []).append((var, calls.factory_kernel(returned)))
        for name, found in per_name.items():
            kernel = calls.factory_kernel([k for _, k in found]) if len(found) == counts.get(name) else None
            if kernel is not None:
                for var, _ in found:
                    self.ctx.factory_vars[id(var)] = (var, kernel)

    def class_attribute_kernel(self, node: Expression, receiver: str, cls: ClassDef) -> resolve.KernelInfo | None:
        """`self.kernel` or `type(self).kernel` in an `__init__` an object of `cls` runs: the kernel the class body
        of `cls` (or the first class along its order) binds `kernel` to (the CLI's `class_attribute_kernel`)."""
        if not isinstance(node, MemberExpr):
            return None
        owner = node.expr
        if isinstance(owner, CallExpr) and len(owner.args) == 1 and owner.arg_kinds == [ARG_POS] and (
            isinstance(owner.callee, NameExpr) and owner.callee.fullname == "builtins.type"
        ):
            owner = owner.args[0]
        if not (isinstance(owner, NameExpr) and owner.name == receiver):
            return None
        value = self.ctx.classes.class_value(cls, node.name)
        return self.ctx.kernel(value) if value is not None else None

    def init_stores(self, cls: ClassDef) -> tuple[dict[str, str], list[tuple[str, tuple[str | None, ...]]]]:
        """What the `__init__` an object of `cls` runs binds on its receiver, in order: each attribute's kernel when
        its first binding is `kernel.prepare(...)` ("" for anything else), and the pairs `self.a = self.b` bound
        after `self.b` (the CLI's `init_brands` and `init_aliases`)."""
        found: dict[str, str] = {}
        aliases: list[tuple[str, tuple[str | None, ...]]] = []
        for receiver, stmt in self.ctx.classes.init_statements(cls):
            if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1):
                continue
            target, value = stmt.lvalues[0], stmt.rvalue
            if not (isinstance(target, MemberExpr) and isinstance(target.expr, NameExpr)):
                continue
            if target.expr.name != receiver:
                continue
            arms = [value.if_expr, value.else_expr] if isinstance(value, ConditionalExpr) else [value]
            sources = init_state.alias_sources([
                arm.name if isinstance(arm, MemberExpr) and isinstance(arm.expr, NameExpr)
                and arm.expr.name == receiver else None
                for arm in arms
            ], found)
            if sources is not None:
                aliases.append((target.name, sources))
            if target.name in found:
                continue
            kernel = None
            if isinstance(value, CallExpr) and isinstance(value.callee, MemberExpr):
                if value.callee.name == PREPARE_METHOD:
                    kernel = self.ctx.kernel(value.callee.expr) or self.class_attribute_kernel(
                        value.callee.expr, receiver, cls
                    )
            found[target.name] = kernel.name if kernel is not None else ""
        return found, aliases

    def class_brands(self, cls: ClassDef) -> dict[str, str]:
        """The prepared launches the `__init__` an object of `cls` runs stores, by attribute, for attributes nothing
        else of the class's chain binds (the CLI's `init_brands`)."""
        inherited = self.ctx.classes.init_chain(cls)
        if inherited is None or not inherited[0].arguments:
            return {}
        stores = _attribute_stores(inherited[1])
        return {attr: kernel for attr, kernel in self.init_stores(cls)[0].items() if kernel and stores.get(attr) == 1}

    def init_brands(self, func: FuncItem) -> None:
        """A method of a class whose `__init__` binds `self.attr = kernel.prepare(...)` in its own body, and no
        method binds `attr` otherwise: `self.attr` starts as that prepared launch (the CLI front end's rule)."""
        info = getattr(func, "info", None)
        cls = getattr(info, "defn", None)
        if not isinstance(func, FuncDef) or not isinstance(cls, ClassDef) or not func.arguments:
            return
        if func.name == "__init__":
            if self.unit.name is None:  # checked itself (a call summary's lowering binds no items, as the CLI's)
                self.own_uniform_items(func, cls)
            return
        inherited = self.ctx.classes.init_chain(cls)  # its own `__init__` or the one it inherits
        init = inherited[0] if inherited is not None else None
        if inherited is None or init is None or not init.arguments:
            return
        found, aliases = self.init_stores(cls)
        stores = _attribute_stores(inherited[1])  # the binds of each attribute name by the class chain's methods
        first = func.arguments[0].variable
        # (not for a receiver of a subclass: its kernels may be others; the CLI's rule in `_applied`)
        subclass = self.unit.receiver_class not in (None, cls.name)
        own = {attr: brand for attr, brand in found.items() if brand and stores.get(attr) == 1}
        classes = self.ctx.classes
        others = [  # a method checked itself runs for the subclasses that inherit it too (the CLI's `method_brands`)
            self.class_brands(sub) for sub in classes.subclasses(cls) if classes.method(sub, func.name) is func
        ] if self.unit.name is None and own else []
        for attr, brands in sorted(init_state.merged_brands(own, others).items()):
            if not subclass:
                self.emit(init_state.brand_binding(self.name(first.name), attr, brands, span_of(first)))
        for attr, sources in aliases:
            if stores.get(attr) == 1 and all(stores.get(b) == 1 for b in sources if b is not None):
                # `__init__` made `self.attr` the object `self.source` is (or, arm by arm, may be)
                self.emit(init_state.alias_binding(self.name(first.name), attr, sources, span_of(first)))
        items: dict[str, tuple[str, ...]] = {}  # displays of prepared launches (the CLI's `init_items`)
        keys: dict[str, tuple[object, ...]] = {}  # the keys of the dict displays among them (`init_item_keys`)
        scope = self.init_scope(cls, init)
        receiver = init.arguments[0].variable.name
        for stmt in init.body.body:
            if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1):
                continue
            target, value = stmt.lvalues[0], stmt.rvalue
            if not (isinstance(target, MemberExpr) and isinstance(target.expr, NameExpr)):
                continue
            value = self.returned_container(cls, receiver, value)
            built = self.comprehension_kernels(value, scope) if target.expr.name == receiver else None
            if built is not None:  # `{mode: k.prepare(...) for mode, k in zip(Mode, (blur, sharpen))}`
                items.setdefault(target.name, built)
                static = static_iterables.dict_comprehension(scope, value)
                keys.setdefault(target.name, static.keys if static is not None else ())
                continue
            if target.expr.name == receiver and self.uniform_container(value):
                # `self.scratch = [buf] * 2`, `dict.fromkeys(names, buf)`: one object under every key (the CLI's)
                items.setdefault(target.name, ("",))
                keys.setdefault(target.name, init_state.UNIFORM_KEYS)
                continue
            values: list[Expression] = []
            if isinstance(value, DictExpr) and all(k is not None for k, _ in value.items):
                values = [v for _, v in value.items]
            elif isinstance(value, ListExpr | TupleExpr):
                values = list(value.items)
            kernels = [
                self.ctx.kernel(v.callee.expr)
                if isinstance(v, CallExpr) and isinstance(v.callee, MemberExpr) and v.callee.name == PREPARE_METHOD
                else None
                for v in values
            ]
            if target.expr.name == receiver and values and all(k is not None for k in kernels):
                items.setdefault(target.name, tuple(k.name for k in kernels if k is not None))
            elif target.expr.name == receiver and isinstance(value, ListExpr | TupleExpr) and values and not any(
                isinstance(v, StarExpr) for v in values
            ):
                # `self.fields = [a, b]`: a list (tuple) display, each item an object of its own in the other methods
                items.setdefault(target.name, ("",) * len(values))
            elif target.expr.name == receiver and values and _literal_keys(value) is not None:
                # `self.buffers = {"counts": a, "freqs": b}`: a dict display under literal keys, the same
                items.setdefault(target.name, ("",) * len(values))
            if target.expr.name == receiver and isinstance(value, DictExpr | DictionaryComprehension):
                static = static_iterables.dict_comprehension(scope, value)
                keys.setdefault(target.name, _literal_keys(value) or (static.keys if static is not None else ()))
        items = {attr: kernels for attr, kernels in items.items() if stores.get(attr) == 1}
        # (but those whose container this method may change: `item_changes`)
        if items:
            methods = {
                m.name: m
                for d in cls.defs.body
                if isinstance(m := (d.func if isinstance(d, Decorator) else d), FuncDef)
            }
            changed = changed_items(func, methods, self.ctx.classes.item_changes)
            items = {attr: kernels for attr, kernels in items.items() if attr not in changed and EVERY not in changed}
        self.stored = {attr: len(kernels) for attr, kernels in items.items()}
        self.plain_stored = {attr for attr, kernels in items.items() if not any(kernels)}
        self.stored_keys = {attr: found_keys for attr, found_keys in keys.items() if attr in items}
        # (a call summary's lowering keeps the items of displays of other values the receiver's paths, as the CLI's)
        for op in init_state.stored_items(self.name(first.name), items, span_of(first), self.unit.name is None):
            self.emit(op)
        if self.unit.name is None:  # checked itself, not a call summary's lowering (as the CLI's `init_facts`)
            single = frozenset(attr for attr, count in stores.items() if count == 1)
            facts = self.init_facts(cls, init, single)
            device = functools.partial(_attribute_device, self, first.name)
            for base in init_state.device_bases(facts, device):
                self.device.add(f"{first.name}.{base}")  # a view passed to a kernel: its base is a device value
            for op in init_state.method_start(facts, self.name(first.name), span_of(first), device):
                self.emit(op)  # what `__init__` left on `self`: `.shared()` ops, moved objects, views

    def returned_container(self, cls: ClassDef, receiver: str, value: Expression) -> Expression:
        """What `__init__` stores when it stores what a method of its class (or a function of the module) returns
        (`self.outputs = self._allocate_outputs()`, the CLI's `returned_container`): the container a method's one
        `return`, its last statement, gives when its every item is one object or (a method's) it is a display of
        prepared launches; else `value`."""
        callee = value.callee if isinstance(value, CallExpr) else None
        if isinstance(callee, MemberExpr) and isinstance(callee.expr, NameExpr) and callee.expr.name == receiver:
            method: FuncItem | None = self.ctx.classes.method(cls, callee.name)
            value_only = False
        elif isinstance(callee, NameExpr) and isinstance(helper := self.helper(callee), FuncDef):
            method = helper  # `self.buses = allocate_buses(n, stream)` of a module function
            value_only = True
        else:
            return value
        body = method.body.body if method is not None else []
        decorated = isinstance(method, FuncDef) and method.is_decorated
        if method is None or decorated or not body or not isinstance(body[-1], ReturnStmt):
            return value
        returned = body[-1].expr
        if returned is None or sum(isinstance(n, ReturnStmt) for n in tree.walk(method.body)) != 1:
            return value
        items = [v for _, v in returned.items] if isinstance(returned, DictExpr) else getattr(returned, "items", [])
        prepared = not value_only and isinstance(returned, DictExpr | ListExpr | TupleExpr) and bool(items) and all(
            isinstance(v, CallExpr) and isinstance(v.callee, MemberExpr) and v.callee.name == PREPARE_METHOD
            for v in items
        )
        return returned if prepared or self.uniform_container(returned) else value

    def own_uniform_items(self, init: FuncDef, cls: ClassDef) -> None:
        """`__init__` reads the containers it stores whose every item is one object as the class's other methods
        do (the CLI's `init_state.uniform_items`); its assignment binds the one item (`bind_uniform_item`)."""
        for attr in self.uniform_stores(cls, init, follow_returns=False):
            self.stored.setdefault(attr, 1)
            self.plain_stored.add(attr)
            self.stored_keys.setdefault(attr, init_state.UNIFORM_KEYS)

    def uniform_stores(self, cls: ClassDef, init: FuncDef, follow_returns: bool) -> list[str]:
        """The attributes `init` (the `__init__` an object of `cls` runs) binds, in its own body, to a container
        whose every item is one object, that nothing else of the class's chain binds; with `follow_returns`, also to
        what a method or function returning such a container gives (`returned_container`)."""
        inherited = self.ctx.classes.init_chain(cls)
        stores = _attribute_stores(inherited[1]) if inherited is not None else {}
        receiver = init.arguments[0].variable.name
        found: list[str] = []
        for stmt in init.body.body:
            if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1):
                continue
            target = stmt.lvalues[0]
            if not (isinstance(target, MemberExpr) and isinstance(target.expr, NameExpr)):
                continue
            value = self.returned_container(cls, receiver, stmt.rvalue) if follow_returns else stmt.rvalue
            if target.expr.name == receiver and stores.get(target.name) == 1 and self.uniform_container(value):
                found.append(target.name)
        return found

    def bind_uniform_item(self, target: Expression, value: Expression) -> None:
        """`self.energy = dict.fromkeys(LEADS, buf)` in `__init__`: its one item place is `buf` (the CLI's
        `bind_uniform_item`)."""
        func = self.unit.node
        if isinstance(func, MypyFile) or func.name != "__init__":
            return
        if self.stored_items(target) is None:
            return
        item = self.uniform_item(value)
        base = self.place(target)
        if item is None or base is None:
            return
        source = self.place(item)
        filled = ir.FromPlace(source, span_of(item)) if source is not None else ir.Fresh()
        self.emit(ir.Bind(init_state.item_places(base, 1), (filled,), span_of(target)))

    def foreign_uniform(self, expr: Expression) -> ir.Place | None:
        """`pp.fields` of an object outside its class's methods, where the `__init__` of every class it may be stores
        a container whose every item is one object there (the CLI's `foreign_uniform`); else None."""
        if not (isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr)) or self.kernel_body:
            return None
        if expr.name in self.stored or not self.ctx.classes.classes:
            return None
        candidates = receiver_classes(self, expr.expr.name)
        if not candidates or not all(expr.name in self.uniform_attributes(cls) for cls in candidates):
            return None
        if _changes_container(self.unit.node, expr.expr.name, expr.name):
            return None  # `pp.fields[1] = sk.zeros(n)` here: its items are apart from then on
        return self.place(expr)

    def uniform_attributes(self, cls: ClassDef) -> frozenset[str]:
        """The attributes the `__init__` an object of `cls` runs binds to a container whose every item is one
        object, that no method of the class but `__init__` changes the items of (the CLI's `uniform_attributes`)."""
        memo = self.ctx.uniform_attributes
        if id(cls) in memo:
            return memo[id(cls)]
        inherited = self.ctx.classes.init_chain(cls)
        init = inherited[0] if inherited is not None else None
        found: set[str] = set()
        if init is not None and init.arguments:
            found.update(self.uniform_stores(cls, init, follow_returns=True))
        if found:
            chain = self.ctx.classes.complete_chain(cls) or [cls]
            methods = {
                m.name: m
                for c in reversed(chain) for d in c.defs.body
                if isinstance(m := (d.func if isinstance(d, Decorator) else d), FuncDef)
            }
            for method in methods.values():
                if method.name == "__init__":
                    continue  # (it makes the container)
                changed = changed_items(method, methods, self.ctx.classes.item_changes)
                found = set() if EVERY in changed else found - changed
        memo[id(cls)] = frozenset(found)
        return memo[id(cls)]

    def stored_items(self, expr: Expression) -> tuple[ir.Place, int] | None:
        """`self.attr` in a method whose class's `__init__` stored a display of prepared launches there (the CLI's
        `stored_items`): its place and how many items it has; else None."""
        func = self.unit.node
        if isinstance(func, MypyFile) or not func.arguments or not isinstance(expr, MemberExpr):
            return None
        count = self.stored.get(expr.name)
        if count is None or not isinstance(expr.expr, NameExpr) or expr.expr.name != func.arguments[0].variable.name:
            return None
        place = self.place(expr)
        return (place, count) if place is not None else None

    def init_scope(self, cls: ClassDef, init: FuncItem) -> static_iterables.Scope:
        """Where `__init__` reads an iterable (the CLI's `init_scope`)."""
        receiver = init.arguments[0].variable.name if init.arguments else None
        return static_iterables.Scope(
            self.ctx, _rebound_names(init) | set(_params(init)), {}, {}, self.builtin,
            lambda name: cls if name == receiver else None,
        )

    def comprehension_kernels(self, expr: Expression, scope: static_iterables.Scope) -> tuple[str, ...] | None:
        """The kernels a dict or list comprehension of prepared launches builds items for, in order (the CLI's
        `comprehension_kernels`, `init_state.comprehension_kernels`), else None."""
        static = static_iterables.dict_comprehension(scope, expr)
        value = expr.value if isinstance(expr, DictionaryComprehension) else None
        if static is not None and isinstance(value, CallExpr) and isinstance(value.callee, MemberExpr) and (
            value.callee.name == PREPARE_METHOD and isinstance(value.callee.expr, NameExpr)
        ):
            receiver = value.callee.expr.name
            found = [self.ctx.kernel(b[receiver]) if receiver in b else None for b in static.bindings]
            if all(k is not None for k in found):
                return tuple(k.name for k in found if k is not None)
        if isinstance(expr, DictionaryComprehension):
            comp: DictionaryComprehension | GeneratorExpr = expr
            element = expr.value
        elif isinstance(expr, ListComprehension):
            comp = expr.generator
            element = comp.left_expr
        else:
            return None
        if len(comp.sequences) != 1 or comp.condlists[0] or comp.is_async[0] or not (
            isinstance(element, CallExpr)
            and isinstance(element.callee, MemberExpr)
            and element.callee.name == PREPARE_METHOD
            and isinstance(element.callee.expr, NameExpr)
        ):
            return None
        source, index = comp.sequences[0], comp.indices[0]
        zipped = (
            isinstance(source, CallExpr)
            and all(k == ARG_POS or (k == ARG_NAMED and n == "strict") for k, n in zip(
                source.arg_kinds, source.arg_names, strict=True
            ))
            and (flow := self.stdlib_flow_of(source.callee)) is not None
            and flow.relation == "zipped"
        )
        operands = (
            [a for a, k in zip(source.args, source.arg_kinds, strict=True) if k == ARG_POS]
            if isinstance(source, CallExpr) and zipped
            else [source]
        )
        targets = index.items if zipped and isinstance(index, TupleExpr) else [index]
        names = [t.name if isinstance(t, NameExpr) else None for t in targets]

        def kernels(operand: Expression) -> list[str | None] | None:
            if not isinstance(operand, TupleExpr | ListExpr):
                return None
            found = [self.ctx.kernel(item) for item in operand.items]
            return [k.name if k is not None else None for k in found]

        return init_state.comprehension_kernels(names, [kernels(o) for o in operands], element.callee.expr.name)

    def init_facts(self, cls: ClassDef, init: FuncDef, single: frozenset[str]) -> init_state.InitFacts:
        """What `__init__` leaves on `self` for the class's other methods (`init_state.init_facts`; the CLI's
        `init_facts`): `__init__` lowered as it is checked itself, its attributes in `single`."""
        memo = self.ctx.classes.memo.init_facts
        # a subclass inheriting `__init__` may count other attributes bound once, and has methods of its own
        key = (id(init), id(cls), single)
        if key not in memo:
            unit = Unit(init, "function", name=f"{cls.name}.__init__ (init facts)")
            function = type(self)(self.ctx, unit).lower()
            span = span_of(init)
            memo[key] = init_state.init_facts(
                function, init.arguments[0].variable.name, single, lambda: method_summaries(self, cls, span)
            )
        return memo[key]

    def launched_kernel(self, func: Expression) -> resolve.KernelInfo | None:
        """The kernel a call's callee launches (`k(...)`, `k.launch(...)`, ...), or None."""
        found = self.ctx.kernel(func)
        if found is not None:
            return found
        if isinstance(func, MemberExpr):
            receiver = self.ctx.kernel(func.expr)
            if receiver is not None and launch_form(receiver.track, receiver.autotuned, func.name) is not None:
                return receiver
        return None

    def shared_array_params(self, func: FuncItem) -> None:
        """Kernel code: a parameter annotated `SharedArray[T]` is a shared array (element access needs unsafe).
        Host code: one annotated `SharedDeviceOp` is a shared op (the CLI's `shared_array_params`)."""
        arg_types = getattr(func.type, "arg_types", None)
        names = SHARED_ARRAY_ANNOTATIONS if self.kernel_body else SHARED_OP_ANNOTATIONS
        # (a helper with no annotation at all has no signature: every parameter is untyped)
        if self.kernel_body and isinstance(func, FuncDef) and not any(a.kind == ARG_STAR for a in func.arguments):
            passed = self.ctx.shared_array_positions(func.name)
            positional = [
                (a, func.type.arg_types[i] if isinstance(func.type, CallableType) else None)
                for i, a in enumerate(func.arguments) if a.kind in (ARG_POS, ARG_OPT)
            ]
            for index, (arg, declared) in enumerate(positional):
                untyped = declared is None or isinstance(get_proper_type(declared), AnyType)
                if index in passed and (arg.type_annotation is None or untyped):
                    # an unannotated (or `Any`) parameter of a device helper its caller passes a shared array
                    place = ir.Place(self.name(arg.variable.name))
                    at = span_of(arg.variable)  # the name alone, as the CLI's token (not its annotation)
                    named = Span(at.line, at.column, at.line, at.column + len(arg.variable.name))
                    self.emit(ir.Bind((place,), (ir.Fresh("shared_array"),), named))
        if arg_types is None:
            return
        for index, arg in enumerate(func.arguments):
            typ = get_proper_type(arg_types[index]) if index < len(arg_types) else None
            if (
                arg.type_annotation is not None
                and isinstance(typ, Instance)
                and typ.type.name in names
                and resolve.is_safekernels(typ.type.fullname)
            ):
                place = ir.Place(self.name(arg.variable.name))
                kind = "shared_array" if self.kernel_body else "shared_op"
                self.emit(ir.Bind((place,), (ir.Fresh(kind),), span_of(arg.variable)))

    def is_host_array(self, place: ir.Place) -> bool:
        """Whether `place` is a name bound once to a numpy call here (`counts = np.zeros(n, np.int32)`)."""
        return not place.attrs and place.root in self.host_arrays

    def mark_device(self, place: ir.Place) -> None:
        """`place` holds a device value from here on (`calls.lower_call`: an op a helper returned with loans)."""
        self.device.add(place.key)

    def is_device_text(self, text: str) -> bool:
        """Whether the dotted place `text` (or the name it starts with) is device-like here."""
        return text in self.device or text.split(".")[0] in self.device

    def is_device_place(self, expr: Expression) -> bool:
        text = tree.dotted(expr)
        if text is None:
            return False
        if text in self.device or text.split(".")[0] in self.device:
            return True
        if "." in text and self.ctx.classes.with_views:
            # a property that is an attribute (`layer.output` is `layer._out`): that attribute's device-likeness
            place = self.place(expr)
            return place is not None and ".".join((text.split(".")[0], *place.attrs)) in self.device
        return False

    # --- entry point -----------------------------------------------------------------------------------------

    def lower(self) -> ir.Function:
        node = self.unit.node
        statements = node.defs if isinstance(node, MypyFile) else node.body.body
        self.keyed_reads = {} if self.kernel_body else keyed_mentions.read_keys(statements, self.key_names)
        if isinstance(node, MypyFile):
            self.prepass(node.defs, None)
            ops = self.block(lambda: self.suite(node.defs))
            return ir.Function("<module>", ops, Span(1, 1, 1, 2), self.ctx.path)
        body = node.body.body
        self.prepass(body, node)

        def lower_body() -> None:
            self.shared_array_params(node)
            self.init_brands(node)
            self.suite(body)

        ops = self.block(lower_body)
        if self.memo.first_binds and isinstance(node, FuncDef):
            ops = earlier_runs(ops, self.memo, node.name, lambda: self.runs_again(node))
        name = self.unit.name or (node.name if isinstance(node, FuncDef) else "<lambda>")
        escaping = frozenset(
            declared
            for sub in tree.walk(node.body)
            if isinstance(sub, GlobalDecl | NonlocalDecl)
            for declared in sub.names
        ) | _kept_by_closures(node)
        function = ir.Function(name, ops, span_of(node), self.ctx.path, escaping, frozenset(self.declared_device))
        return self.with_earlier_call(function, node)

    def with_earlier_call(self, function: ir.Function, node: FuncItem) -> ir.Function:
        """`function`, the IR of `node`, as checked when `node` is a function nested in another that lets it escape
        (`_escapes`): after an earlier call of it (the CLI's `with_earlier_call`, `reentry`)."""
        enclosing = self.unit.enclosing
        if enclosing is None or not isinstance(node, FuncDef):
            return function
        body = node.body.body
        declared = [name for sub in tree.walk_many(body) if isinstance(sub, NonlocalDecl) for name in sub.names]
        declared += [name for name in _captured(node, enclosing) if name not in declared]
        if not declared or not _escapes(node, enclosing):
            return function
        effects = nonlocal_effects(function, declared, list(_params(node)))
        first = reentry.earlier_call(effects, declared, node.name, self.temp)
        return function if first is None else replace(function, body=(first, *function.body))

    # --- statements ------------------------------------------------------------------------------------------

    def suite(self, body: Sequence[Statement] | Block | None) -> None:
        if body is None:
            return
        outer, outer_previous = self.current_statement, self.previous_statement
        previous: Statement | None = None
        for stmt in body.body if isinstance(body, Block) else body:
            self.current_statement, self.previous_statement, previous = stmt, previous, stmt
            self.computed.begin(item_statement(stmt, self.builtin), self.scopes[-1])
            forget = self.forgotten_items(stmt)
            before = keyed_mentions.compound(stmt)
            if before:
                for op in forget:
                    self.emit(op)
            try:
                if self.stepping and isinstance(stmt, _STEP_STATEMENTS) and self.one_step(stmt):
                    caught = not self.narrow or self.raises_caught(stmt)
                    for stepped in ir.step(self.block(functools.partial(self.stmt, stmt)), span_of(stmt), caught):
                        self.emit(stepped)
                else:
                    self.stmt(stmt)
            finally:
                self.computed.end()
            if not before:
                for op in forget:
                    self.emit(op)
        self.current_statement, self.previous_statement = outer, outer_previous

    def one_step(self, stmt: Statement) -> bool:
        """Whether `stmt` is one step for the exception edges (the CLI's `one_step`)."""
        raising = self.ctx.raising_functions()
        for node in tree.walk(stmt):
            if isinstance(node, CallExpr):
                callee = node.callee
                name = callee.name if isinstance(callee, NameExpr | MemberExpr) else None
                if name in CALLBACK_METHODS or name in raising:
                    return False
        return True

    def guarded_suite(self, body: Sequence[Statement] | Block | None, narrow: bool = False) -> None:
        """The body of a `try` or `with`: each simple statement one step (the CLI's `guarded_suite`)."""
        self.stepping += 1
        outer = self.narrow
        self.narrow = narrow
        try:
            self.suite(body)
        finally:
            self.stepping -= 1
            self.narrow = outer

    def narrow_handlers(self, node: TryStmt) -> bool:
        """Whether every handler of `node` names only exception classes of this module (the CLI's)."""
        if not node.types or getattr(node, "is_star", False) or self.ctx.throwing_names() is None:
            return False
        classes = self.ctx.classes.classes
        caught_classes: list[ClassDef] = []
        for caught in node.types:
            names = caught.items if isinstance(caught, TupleExpr) else [caught] if caught is not None else []
            if not names or not all(
                isinstance(n, NameExpr) and n.name in classes and n.name not in self.local_names for n in names
            ):
                return False
            caught_classes.extend(classes[n.name] for n in names if isinstance(n, NameExpr))
        handed = self.ctx.exceptions_handed_out()
        return not any(
            c.name in handed or any(sub.name in handed for sub in self.ctx.classes.subclasses(c))
            for c in caught_classes
        )

    def raises_caught(self, stmt: Statement) -> bool:
        """Whether `stmt` may raise an exception of a class of the module (the CLI's `raises_caught`)."""
        throwing = self.ctx.throwing_names()
        if throwing is None:
            return True
        return any(
            isinstance(n, NameExpr | MemberExpr) and n.name in throwing for n in tree.walk(stmt, skip_scopes=False)
        )

    def forgotten_items(self, stmt: Statement) -> tuple[ir.Bind, ...]:
        """The items under literal keys `stmt` may change (`keyed_items.forgotten`, the CLI's rule)."""
        if not self.keyed_reads:
            return ()
        return keyed_items.forgotten(
            keyed_mentions.mentions(stmt, self.builtin, self.reading_method), self.keyed_reads,
            self.dotted_place, span_of(stmt),
        )

    def reading_method(self, call: CallExpr) -> frozenset[str] | None:
        """The receiver's attributes `obj.method(...)` may change, when that is all (the CLI's)."""
        callee = call.callee
        if not (isinstance(callee, MemberExpr) and isinstance(callee.expr, NameExpr)) or not self.ctx.classes.classes:
            return None
        candidates = receiver_classes(self, callee.expr.name)
        if not candidates:
            return None
        changed: set[str] = set()
        for cls in candidates:
            method = self.ctx.classes.method(cls, callee.name)
            found = _receiver_changes(method, self.allocates) if method is not None else None
            if found is None:
                return None
            changed |= found
        return frozenset(changed)

    def stmt(self, node: Statement) -> None:
        grown = self.appends.get(id(node.expr)) if isinstance(node, ExpressionStmt) else None
        if grown is not None and grown[0] in self.containers:
            raw, first, items = grown
            assert isinstance(node, ExpressionStmt) and isinstance(node.expr, CallExpr)
            assert isinstance(node.expr.callee, MemberExpr)
            self.expr(node.expr.callee.expr)
            targets = tuple(
                calls.container_element(self.name(raw), raw, self.containers[raw], first + i) for i in range(len(items))
            )
            values = tuple(self.value(item, target) for item, target in zip(items, targets, strict=True))
            self.emit(ir.Bind(targets, values, span_of(node.expr)))
            self.lengths[raw] = first + len(items)
        elif isinstance(node, ExpressionStmt) and isinstance(node.expr, CallExpr):
            call = node.expr
            calls.discard_result(self.call(call, None), call, span_of(call), tree.callee_text(call.callee), self)
        elif isinstance(node, ExpressionStmt) and isinstance(node.expr, YieldExpr) and isinstance(
            node.expr.expr, CallExpr
        ):
            # `yield k.launch_async(...)`: the op's loans are the caller's where it takes the item
            self.call(node.expr.expr, ir.Place(ir.RETURN_HOLDER))
        elif (
            isinstance(node, ExpressionStmt)
            and isinstance(node.expr, YieldExpr)
            and isinstance(node.expr.expr, TupleExpr)
            and not any(isinstance(e, StarExpr) for e in node.expr.expr.items)
        ):
            # `yield out, k.launch_async(...)`: what each part is, for the caller's loop unpacking the item
            parts = [functools.partial(self.value, e) for e in node.expr.expr.items]
            calls.yield_parts(parts, span_of(node.expr), self)
        elif isinstance(node, ExpressionStmt):
            self.expr(node.expr)
        elif isinstance(node, AssignmentStmt):
            if not isinstance(node.rvalue, TempNode):
                self.assign_statement(node.lvalues, node.rvalue)
        elif isinstance(node, OperatorAssignmentStmt):
            self.expr(node.rvalue)
            self.expr(node.lvalue)
        elif isinstance(node, ReturnStmt):
            if isinstance(node.expr, CallExpr):
                result = self.call(node.expr, ir.Place(ir.RETURN_HOLDER))  # a returned op's loans: the caller's
                calls.returned_result(result, span_of(node.expr), self)
            elif isinstance(node.expr, TupleExpr) and not any(isinstance(e, StarExpr) for e in node.expr.items):
                # `return staged, k.launch_async(prep, x, staged)`: what each part is, for the caller
                parts = [functools.partial(self.value, e) for e in node.expr.items]
                calls.yield_parts(parts, span_of(node.expr), self, returned=True)
            elif node.expr is not None and (repeated := _repeated_display(node.expr)) and repeated.counted:
                # `return [sk.zeros(...)] * 2`: the parts repeat one object (`calls.repeated_parts`)
                calls.yield_parts(calls.repeated_parts(repeated, self.value, span_of(node.expr)),
                                  span_of(node.expr), self, returned=True)
            elif isinstance(node.expr, ListComprehension | SetComprehension | DictionaryComprehension):
                # `return [k.launch_async(p, x, out) for ...]`: each op is pending while the next one is built
                self.value(node.expr, ir.Place(ir.RETURN_HOLDER))
            elif node.expr is not None:
                self.expr(node.expr)
                if isinstance(node.expr, NameExpr) and (returned := self.place(node.expr)) is not None:
                    calls.return_name(returned, span_of(node.expr), self)
            self.emit(ir.Return(span_of(node)))
        elif isinstance(node, RaiseStmt):
            if node.expr is not None:
                self.expr(node.expr)
            if node.from_expr is not None:
                self.expr(node.from_expr)
            self.emit(ir.Raise(span_of(node)))
        elif isinstance(node, DelStmt):
            self.delete(node.expr)
        elif isinstance(node, BreakStmt):
            self.emit(ir.Break(span_of(node)))
        elif isinstance(node, ContinueStmt):
            self.emit(ir.Continue(span_of(node)))
        elif isinstance(node, AssertStmt):
            self.expr(node.expr)
            msg = node.msg

            def fail_path() -> None:
                if msg is not None:
                    self.expr(msg)
                self.emit(ir.Raise(span_of(node)))

            fail = self.block(fail_path)
            self.emit(ir.Branch(((), fail), span_of(node)))
        elif isinstance(node, IfStmt):
            self.if_stmt(node, 0)
        elif isinstance(node, WhileStmt):
            self.while_stmt(node)
        elif isinstance(node, ForStmt):
            self.for_stmt(node)
        elif isinstance(node, TryStmt):
            self.try_stmt(node)
        elif isinstance(node, WithStmt):
            self.with_stmt(node)
        elif isinstance(node, MatchStmt):
            self.match_stmt(node)
        elif isinstance(node, FuncDef | Decorator | OverloadedFuncDef):
            self.function_def(node)
        elif isinstance(node, ClassDef):
            for dec in node.decorators:
                self.expr(dec)
            for base in node.base_type_exprs:
                self.expr(base)
            for stmt in node.defs.body:
                if not isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef):
                    self.stmt(stmt)
            self.bind_fresh(ir.Place(self.name(node.name)), node)
        elif isinstance(node, Block):
            self.suite(node)
        # pass, global/nonlocal, imports, type aliases: nothing ownership-relevant

    def if_stmt(self, node: IfStmt, index: int) -> None:
        orelse: Callable[[], None] = (
            functools.partial(self.if_stmt, node, index + 1)
            if index + 1 < len(node.expr)
            else functools.partial(self.suite, node.else_body)
        )
        self.branch_on(node.expr[index], functools.partial(self.suite, node.body[index]), orelse)

    def assign_statement(self, targets: Sequence[Expression], value: Expression) -> None:
        """An assignment statement (annotated or not).  `x = a if c else b` is lowered as the `if c: x = a` /
        `else: x = b` it means, so each arm binds the targets as a plain assignment does: a pending op made in one
        arm is held by the target there (`pending = k.launch_async(...) if c else None`), and the arms' tests give
        the path facts a later `if pending is not None:` / `if c:` correlates with (`checker.solve_paths`; the CLI
        front end's rule)."""
        if isinstance(value, ConditionalExpr):
            self.branch_on(
                value.cond,
                functools.partial(self.assign_statement, targets, value.if_expr),
                functools.partial(self.assign_statement, targets, value.else_expr),
            )
        else:
            self.assign(targets, value)
            if len(targets) == 1:
                self.bind_uniform_item(targets[0], value)

    def branch_on(self, test: Expression, body_build: Callable[[], None], orelse_build: Callable[[], None]) -> None:
        """A two-armed `Branch` on `test` (an `if` statement, a conditional assignment): the test is read unless
        it only compares a name with None, and each arm knows what the test says on entry (`calls.branch_tests`)."""
        narrowed = self.none_test(test, attributes=True)
        if narrowed is None or narrowed[0].attrs:
            self.expr(test)  # `x is None` only compares identities: it never reads a (moved) object
        body = self.block(body_build)
        orelse = self.block(orelse_build)
        tested, form = self.condition_form(test)
        if narrowed is not None:
            place, is_none = narrowed
            arm = calls.none_arm(place, span_of(test))
            body, orelse = ((arm, *body), orelse) if is_none else (body, (arm, *orelse))
            tested, form = place, "is None" if is_none else "is not None"
        tests = calls.branch_tests(tested, form, self.testable(test)) or self.iteration_tests(test)
        self.emit(ir.Branch((body, orelse), span_of(test), tests))

    def iteration_tests(self, test: Expression) -> tuple[ir.Test, ...]:
        """`if i + 1 < n:` in `for i in range(n):` (the CLI's `iteration_tests`), else ()."""
        if not self.counted_loops or not isinstance(test, ComparisonExpr) or len(test.operators) != 1:
            return ()
        left, right = _offset_form(test.operands[0]), _offset_form(test.operands[1])
        if left is None or right is None:
            return ()
        tests = calls.iteration_tests(test.operators[0], left, right, self.counted_loops)
        if tests is None:
            return ()
        self.tested_indices.add(tests[0].name)
        return tests

    @functools.cached_property
    def new_collection_names(self) -> frozenset[str]:
        """The local names this function binds only by assigning a display or a comprehension (the CLI's
        `new_collection_names`)."""
        node = self.unit.node
        if isinstance(node, MypyFile) or self.kernel_body:
            return frozenset()
        fresh: set[str] = set()
        other: set[str] = set(_params(node))
        displays = (ListExpr, DictExpr, SetExpr, ListComprehension, DictionaryComprehension, SetComprehension)
        for sub in tree.walk_many(node.body.body):
            single = isinstance(sub, AssignmentStmt) and len(sub.lvalues) == 1 and isinstance(sub.lvalues[0], NameExpr)
            for target in bound_targets(sub):
                if isinstance(target, NameExpr):
                    new = single and isinstance(sub, AssignmentStmt) and isinstance(sub.rvalue, displays)
                    (fresh if new else other).add(target.name)
        return frozenset(fresh - other)

    def counted_body(self, node: ForStmt | None, lower: Callable[[], ir.Block]) -> ir.Block:
        """Lower a loop's body with its counter known to view bounds there (the CLI's `counted_body`)."""
        counter = self.counting_loop(node) if node is not None and not self.loop_nesting else None
        outer = self.loop_counter, self.counter_locals
        if counter is not None and node is not None:
            self.loop_counter = counter
            self.counter_locals = _counter_locals(self.unit.node, node.body.body, counter[0])
        self.loop_nesting += 1
        try:
            return lower()
        finally:
            self.loop_nesting -= 1
            self.loop_counter, self.counter_locals = outer

    def counting_loop(self, node: ForStmt) -> tuple[str, int] | None:
        """A counting loop's counter and step (the CLI's `counting_loop`), else None."""
        if self.kernel_body or node.is_async or not isinstance(node.expr, CallExpr):
            return None
        call, target = node.expr, node.index
        callee = self.builtin(call.callee)
        if any(kind not in (ARG_POS, ARG_NAMED) for kind in call.arg_kinds):
            return None
        positional = [a for a, k in zip(call.args, call.arg_kinds, strict=True) if k == ARG_POS]
        named = [(n, a) for a, k, n in zip(call.args, call.arg_kinds, call.arg_names, strict=True) if k == ARG_NAMED]
        if callee == "range" and isinstance(target, NameExpr) and 1 <= len(positional) <= 3 and not named:
            name = target.name
            start = _int_literal(positional[0]) if len(positional) >= 2 else 0
            stop = _int_literal(positional[1] if len(positional) >= 2 else positional[0])
            given_step = _int_literal(positional[2]) if len(positional) == 3 else 1
            step = view_bounds.range_counter_step(start, stop, given_step)
        elif (
            callee == "enumerate" and isinstance(target, TupleExpr) and len(target.items) == 2
            and isinstance(target.items[0], NameExpr) and 1 <= len(positional) + len(named) <= 2
        ):
            name = target.items[0].name
            given = [*positional[1:], *(a for n, a in named if n == "start")]
            if len(given) != len(positional) - 1 + len(named):
                return None
            start = _int_literal(given[0]) if given else 0
            step = view_bounds.range_counter_step(start, None, 1)
        else:
            return None
        if step is None:
            return None
        for inner in tree.walk_many(node.body.body, skip_scopes=False):
            if any(isinstance(t, NameExpr) and t.name == name for t in bound_targets(inner)):
                return None
        return name, step

    def counted_loop(self, node: ForStmt) -> tuple[str, str] | None:
        """`for i in range(n):` / `for i, x in enumerate(xs):` whose body binds neither `i` nor what `n` reads, nor
        changes `xs` in place (the CLI's `counted_loop`)."""
        index_expr, loop = node.index, node.expr
        if not isinstance(loop, CallExpr) or not isinstance(loop.callee, NameExpr) or any(
            kind != ARG_POS for kind in loop.arg_kinds
        ):
            return None
        text: str | None = None
        if loop.callee.name == "range" and isinstance(index_expr, NameExpr):
            args = loop.args
            if len(args) == 1 or (len(args) == 2 and isinstance(args[0], IntExpr) and args[0].value == 0):
                text = _count_text(args[-1])
            index = index_expr.name
        elif loop.callee.name == "enumerate" and len(loop.args) == 1 and isinstance(index_expr, TupleExpr) and (
            len(index_expr.items) == 2 and isinstance(index_expr.items[0], NameExpr)
        ):
            inner = tree.dotted(loop.args[0])
            text = None if inner is None else f"len({inner})"
            index = index_expr.items[0].name
        else:
            return None
        if text is None:
            return None
        roots = {text.removeprefix("len(").removesuffix(")").split(".")[0], index}
        for inner_node in tree.walk_many(node.body.body, skip_scopes=False):
            for target in bound_targets(inner_node):
                if isinstance(target, NameExpr) and target.name in roots:
                    return None
            if (
                isinstance(inner_node, CallExpr) and isinstance(inner_node.callee, MemberExpr)
                and inner_node.callee.name in calls.MUTATING_CONTAINER_METHODS and text.startswith("len(")
                and calls.may_be_counted(tree.dotted(inner_node.callee.expr), text, self.new_collection_names)
            ):
                return None  # the counted container may change length
        return index, text

    def condition_form(self, test: Expression) -> tuple[ir.Place | None, str | None]:
        """`if name:` / `if not name:`: the name's place and the form (`calls.branch_tests`), else (None, None)."""
        if isinstance(test, NameExpr) and test.name not in _LITERAL_NAMES:
            return self.place(test), "truthy"
        if isinstance(test, UnaryExpr) and test.op == "not" and isinstance(test.expr, NameExpr):
            if test.expr.name not in _LITERAL_NAMES:
                return self.place(test.expr), "not"
        return None, None

    def testable(self, test: Expression) -> bool:
        """Whether the name an `if` condition tests is one only this unit's own bindings change
        (`calls.branch_tests`; the CLI front end's rule)."""
        while isinstance(test, UnaryExpr | ComparisonExpr):
            test = test.expr if isinstance(test, UnaryExpr) else test.operands[0]
        if not isinstance(test, NameExpr):
            return False
        if test.name in self.ctx.declared():
            # a `nonlocal`/`global` name: only where the statement just before binds it (the CLI's rule)
            previous = self.previous_statement
            return (
                isinstance(previous, AssignmentStmt) and len(previous.lvalues) == 1
                and isinstance(previous.lvalues[0], NameExpr) and previous.lvalues[0].name == test.name
            )
        return isinstance(self.unit.node, MypyFile) or test.name in self.local_names

    def none_test(self, test: Expression, attributes: bool = False) -> tuple[ir.Place, bool] | None:
        """`(place, True)` for `place is None`, `(place, False)` for `place is not None`, else None; an attribute
        path only with `attributes` (the CLI's)."""
        if not isinstance(test, ComparisonExpr) or len(test.operators) != 1:
            return None
        left, right = test.operands
        if not (isinstance(right, NameExpr) and right.name == "None"):
            return None
        place = self.place(left)
        if place is None or (place.attrs and not attributes):
            return None
        if test.operators[0] == "is":
            return place, True
        if test.operators[0] == "is not":
            return place, False
        return None

    def while_stmt(self, node: WhileStmt) -> None:
        head = self.block(lambda: self.expr(node.expr))
        body = self.counted_body(None, lambda: self.block(lambda: self.suite(node.body)))
        drained = None if self.kernel_body else self.place(node.expr)

        def fall_out() -> None:
            calls.drained_by_loop(drained, span_of(node.expr), self)
            self.suite(node.else_body)

        orelse = self.block(fall_out)
        infinite = isinstance(node.expr, NameExpr) and node.expr.name == "True"
        self.emit(ir.Loop(head, body, orelse, span_of(node.expr), infinite))

    def for_stmt(self, node: ForStmt) -> None:
        iterable, index, counter = node.expr, node.index, None
        inner = self.enumerated(node.expr)
        if (
            inner is not None and self.generator_call(inner) is not None and isinstance(index, TupleExpr)
            and len(index.items) == 2 and isinstance(index.items[0], NameExpr)
        ):
            # `for k, (out, op) in enumerate(gen(...))`: a counter beside each item the generator yields (the CLI's)
            assert isinstance(node.expr, CallExpr)
            self.expr(node.expr.callee)
            for start in node.expr.args[1:]:
                self.expr(start)
            iterable, counter, index = inner, index.items[0], index.items[1]
        generator = self.generator_call(iterable)
        unpacked = isinstance(index, TupleExpr) and all(isinstance(e, NameExpr) for e in index.items)
        if generator is not None and (isinstance(index, NameExpr) or unpacked):
            # `for op in gen(...)`: each iteration runs the generator's body to its next item (the CLI's rule);
            # `for out, op in gen(...)` unpacks it (`callables.unpack_yielded`)
            taker = self.place(index) if isinstance(index, NameExpr) else self.temp("item")
            assert taker is not None
            self.iterated.add(id(generator))
            self.loop_items.add(id(generator))

            def take() -> None:
                taken = self.call(generator, taker)
                if counter is not None:
                    self.bind(counter, ir.Fresh())
                if unpacked:
                    callables.unpack_yielded(self.target(index), taken, span_of(node.index), self)
                    self.suite(node.body)
                    return
                views = self.yielded_views(generator)
                self.bind(index, callables.iterated_item(taken, views, span_of(generator), self))
                self.suite(node.body)

            head, body = self.block(lambda: None), self.block(take)
            orelse = self.block(lambda: self.suite(node.else_body))
            self.emit(ir.Loop(head, body, orelse, span_of(node.index)))
            moved = self.loop_moves.pop(id(generator), None)
            if moved is not None:
                apply_summary(moved, generator, span_of(generator), self)
            return
        self.expr(node.expr)
        items = self.literal_items(node.expr)
        if items is None:
            items = self.registry_items(node.expr, node.index)
        if items is None:
            items = self.table_items(node.expr)
        shown = self.display_loop(node.expr) if items is None else None
        arms = None if shown is None else calls.display_loop_arms(self.target(node.index), *shown, self)
        elements = self.iterated_container(node.expr) if items is None and arms is None else None
        copies: int | None = None
        if items is not None:
            # `for out, inp in ((x, x), (y, z)):` binds the target to one of the displayed items per iteration.
            literal_arms = tuple(self.block(functools.partial(self.assign, [node.index], item)) for item in items)
            head = self.block(lambda: self.emit(ir.Branch(literal_arms, span_of(node.index))))
        elif arms is not None:
            # `for i, (host, beam) in enumerate(zip(hosts, (b0, b1)))`: item `k` of the display per iteration
            display_arms = arms
            head = self.block(lambda: self.emit(ir.Branch(display_arms, span_of(node.index))))
        elif elements is not None:
            # `for part in parts:` of a container list of known length: its items in order, as a display's
            places, container, enumerated, paired = elements
            target = self.target(node.index)
            arms = calls.bind_elements(target, places, span_of(node.expr), self, container, enumerated, paired)
            head = self.block(lambda: self.emit(ir.Branch(arms, span_of(node.index))))
        elif (selected := self.selected_loop(node.expr)) is not None:
            # `for _, i, beam in leaders` of `leaders = heapq.nsmallest(3, heap)`: each item taken once
            source, enumerated = selected
            span = span_of(node.expr)
            head = self.block(
                lambda: calls.bind_selected_iteration(self.target(node.index), source, enumerated, span, self)
            )
        else:
            shape, sources = self.iteration(node.expr)
            copies = _display_length(node.expr)
            if copies is not None:
                # `for stage in [Stage(), Stage()]:` runs its body exactly once per displayed item
                repeated = tuple(
                    self.block(lambda: self.bind_iteration(self.target(node.index), shape, sources))
                    for _ in range(copies)
                )
                head = self.block(lambda: self.emit(ir.Branch(repeated, span_of(node.index))))
            else:
                head = self.block(lambda: self.bind_iteration(self.target(node.index), shape, sources))
        counted = self.counted_loop(node)
        if counted is not None:
            self.counted_loops.append(counted)
        body = self.counted_body(node, lambda: self.block(lambda: self.suite(node.body)))
        more = None
        if counted is not None:
            self.counted_loops.pop()
            if counted[0] in self.tested_indices:
                self.tested_indices.discard(counted[0])
                more = counted[0]
        orelse = self.block(lambda: self.suite(node.else_body))
        for name in _loop_target_names(node.index):
            if name in self.loop_keys:
                # the items the body names under the target are the next key's: new objects (the CLI's)
                head = keyed_items.renewed_head(head, name, body, span_of(node.index))
        unrolled = items is not None or arms is not None or elements is not None or copies is not None
        self.emit(ir.Loop(head, body, orelse, span_of(node.index), unrolled=unrolled, more=more))

    def enumerated(self, expr: Expression) -> Expression | None:
        """The iterable of `enumerate(iterable)` (`start=` allowed), else None (the CLI's `enumerated`)."""
        if (
            isinstance(expr, CallExpr)
            and self.builtin(expr.callee) == "enumerate"
            and expr.arg_kinds[:1] == [ARG_POS]
            and all(
                kind == ARG_NAMED and name == "start"
                for kind, name in zip(expr.arg_kinds[1:], expr.arg_names[1:], strict=True)
            )
        ):
            return expr.args[0]
        return None

    def display_loop(
        self, expr: Expression
    ) -> tuple[bool, list[calls.DisplayOperand[Expression]] | None, tuple[Expression, ...]] | None:
        """A loop over `enumerate(display)`, or `zip(...)` (also inside `enumerate`) with a display among its
        operands, for `calls.display_loop_arms` (the CLI's `display_loop`)."""
        inner = self.enumerated(expr)
        enumerated = inner is not None
        expr = expr if inner is None else inner
        if (
            isinstance(expr, CallExpr)
            and self.builtin(expr.callee) == "zip"
            and ARG_POS in expr.arg_kinds
            and all(
                kind == ARG_POS or (kind == ARG_NAMED and name == "strict")
                for kind, name in zip(expr.arg_kinds, expr.arg_names, strict=True)
            )
        ):
            operands: list[calls.DisplayOperand[Expression]] = []
            for arg, kind in zip(expr.args, expr.arg_kinds, strict=True):
                if kind == ARG_POS:
                    shown = self.literal_items(arg)
                    operands.append(shown if shown is not None else self.iteration_source(arg))
            displays = [operand for operand in operands if isinstance(operand, tuple)]
            return (enumerated, operands, min(displays, key=len)) if displays else None
        shown = self.literal_items(expr) if enumerated else None
        return None if shown is None else (True, None, shown)

    def iterated_container(
        self, expr: Expression
    ) -> tuple[tuple[ir.Place, ...], calls.Container | None, bool, bool] | None:
        """The items a loop over a container list of known length takes, directly or through `enumerate(...)`
        and/or `itertools.pairwise(...)` (the CLI front end's rule)."""
        inner = self.enumerated(expr)
        enumerated = inner is not None
        expr = expr if inner is None else inner
        paired = (
            isinstance(expr, CallExpr)
            and (flow := self.stdlib_flow_of(expr.callee)) is not None
            and flow.relation == "pairs"
            and expr.arg_kinds == [ARG_POS]
            and isinstance(expr.args[0], NameExpr)
        )
        if paired:
            assert isinstance(expr, CallExpr)
            expr = expr.args[0]
        viewed = _values_receiver(expr, "items")
        if viewed is not None:
            # `for name, out in heads.items()`: a new key and item `i` per iteration (the CLI's rule)
            found = self.mapping_items(viewed) if not enumerated and not paired else None
            return (found, self.containers.get(viewed), True, False) if found is not None else None
        elements = self.star_elements(expr)
        if elements is None or (paired and len(elements) < 2):
            return None
        container = self.containers.get(expr.name) if isinstance(expr, NameExpr) else None
        return elements, container, enumerated, paired

    def bind_iteration(
        self, target: calls.Target[Expression], shape: str, sources: list[calls.IterationSource]
    ) -> None:
        """Bind a `for` target for one iteration (the CLI's `bind_iteration`)."""
        source = sources[0] if shape == "pairs" and isinstance(sources[0], ir.Place) else None
        if source is None or not stdlib_flow.bind_pairs(target, source, self):
            calls.bind_iteration(target, shape if source is None else "", sources, self)

    def iteration(self, expr: Expression) -> tuple[str, list[calls.IterationSource]]:
        """How a `for` loop takes items from `expr` (`calls.bind_iteration`): a place or a recurring operand
        (`iteration_source`), or the builtin `zip` / `enumerate` of them, or adjacent pairs of a place's items
        (`itertools.pairwise(xs)`, `zip(xs[:-1], xs[1:])`: "pairs"); ("", []) for anything else."""
        place = self.iteration_source(expr)
        if place is not None:
            return "each", [place]
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and expr.callee.name in calls.VIEW_ITERATIONS
            and not expr.args
            and (viewed := self.place(expr.callee.expr)) is not None
        ):
            return calls.VIEW_ITERATIONS[expr.callee.name], [viewed]
        if (
            isinstance(expr, CallExpr)
            and "itertools.pairwise" in self.ctx.names(expr.callee)
            and expr.arg_kinds == [ARG_POS]
            and (paired := self.place(expr.args[0])) is not None
        ):
            return "pairs", [paired]
        if (
            isinstance(expr, CallExpr)
            and self.builtin(expr.callee) == "zip"
            and all(
                kind == ARG_POS or (kind == ARG_NAMED and name == "strict")
                for kind, name in zip(expr.arg_kinds, expr.arg_names, strict=True)
            )
            and (
                paired := stdlib_flow.adjacent_pairs(
                    [self.slice_operand(a) for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS]
                )
            )
            is not None
        ):
            return "pairs", [paired]
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, NameExpr)
            and expr.callee.fullname in ("builtins.zip", "builtins.enumerate")
            and ARG_POS in expr.arg_kinds
            and all(
                kind == ARG_POS or (kind == ARG_NAMED and name == "strict")  # `zip(xs, ys, strict=True)`
                for kind, name in zip(expr.arg_kinds, expr.arg_names, strict=True)
            )
        ):
            positional = [a for a, kind in zip(expr.args, expr.arg_kinds, strict=True) if kind == ARG_POS]
            if expr.callee.fullname == "builtins.zip":
                return "zip", [self.iteration_source(a) for a in positional]
            if (zipped := self.zipped_call(positional[0])) is not None:
                shape, sources = self.iteration(zipped)  # `enumerate(zip(xs, ys))` (the CLI's rule)
                if shape == "zip":
                    return "enumerate zip", sources
            return "enumerate", [self.iteration_source(positional[0])]
        if (zipped := self.zipped_call(expr)) is not None:
            # `itertools.zip_longest(xs, ys, fillvalue=h)`: each part an item of its operand or the fill (the CLI's)
            found = self.stdlib_flow_of(zipped.callee)
            named = [(n, a) for a, k, n in zip(zipped.args, zipped.arg_kinds, zipped.arg_names, strict=True)
                     if k == ARG_NAMED]
            fill = stdlib_flow.padded_fill(found, named)
            if found is not None and found.padded:
                place = self.place(fill) if fill is not None else None
                sources = [self.iteration_source(a) for a, k in zip(zipped.args, zipped.arg_kinds, strict=True)
                           if k == ARG_POS]
                return "zip", stdlib_flow.padded_sources(found, sources, place, span_of(fill or zipped), self)
        return "", []

    def zipped_call(self, expr: Expression) -> CallExpr | None:
        """`expr` when it is a call a `for` takes tuples from (the CLI's `zipped_call`), else None."""
        if not isinstance(expr, CallExpr) or any(k not in (ARG_POS, ARG_NAMED) for k in expr.arg_kinds):
            return None
        positional = expr.arg_kinds.count(ARG_POS)
        if expr.arg_kinds[:positional] != [ARG_POS] * positional:
            return None
        keywords = [n for n, k in zip(expr.arg_names, expr.arg_kinds, strict=True) if k == ARG_NAMED]
        names = self.ctx.names(expr.callee)
        found = any(stdlib_flow.zipped_iteration(n, positional, keywords) is not None for n in names)
        return expr if found else None

    def iteration_source(self, expr: Expression) -> calls.IterationSource:
        """Where a `for` takes the items of the iterable operand `expr` (the CLI's `iteration_source`):
        `itertools.cycle(xs)` / `itertools.repeat(x)` of a place, also through a name bound once to one, is a
        `calls.Recurring` operand; else the place `expr` is, or None."""
        call = self.iterators.get(expr.name) if isinstance(expr, NameExpr) else expr
        if (
            isinstance(call, CallExpr)
            and call.arg_kinds[:1] == [ARG_POS]
            and all(kind in (ARG_POS, ARG_NAMED) for kind in call.arg_kinds)
        ):
            positional = call.arg_kinds.count(ARG_POS)
            keywords = [name for name, kind in zip(call.arg_names, call.arg_kinds, strict=True) if kind == ARG_NAMED]
            found = next(
                (f for n in self.ctx.names(call.callee) if (f := stdlib_flow.recurs(n, positional, keywords))), None
            )
            operand = self.place(call.args[0]) if found is not None else None
            if found is not None and operand is not None:
                return stdlib_flow.recurring_source(found, operand, span_of(call.args[0]), self)
        if (
            isinstance(expr, CallExpr)
            and expr.arg_kinds[:1] == [ARG_POS]
            and expr.arg_kinds.count(ARG_POS) == 1
            and all(kind in (ARG_POS, ARG_NAMED) for kind in expr.arg_kinds)
            and all(name in (None, "key", "reverse") for name in expr.arg_names)
            and self.builtin(expr.callee) in calls.ITEM_KEEPING_CALLS
        ):
            return self.place(expr.args[0])  # `reversed(xs)`: the items of `xs` (the CLI's rule)
        return self.place(expr)

    def slice_operand(self, expr: Expression) -> stdlib_flow.SliceOperand | None:
        """`xs`, `xs[1:]`, `xs[:-1]` of a place `xs` with literal bounds: the place and the bounds, else None."""
        if isinstance(expr, IndexExpr) and isinstance(expr.index, SliceExpr) and expr.index.stride is None:
            bounds = (expr.index.begin_index, expr.index.end_index)
            literal = tuple(_int_literal(b) if b is not None else None for b in bounds)
            base = self.place(expr.base)
            if base is None or any(b is not None and v is None for b, v in zip(bounds, literal, strict=True)):
                return None
            return base, literal[0], literal[1]
        place = self.place(expr)
        return (place, None, None) if place is not None else None

    def try_stmt(self, node: TryStmt) -> None:
        narrow = self.narrow_handlers(node)
        body = self.block(lambda: self.guarded_suite(node.body, narrow))
        handlers: list[ir.Block] = []
        for typ, var, handler in zip(node.types, node.vars, node.handlers, strict=True):

            def lower_handler(
                t: Expression | None = typ, v: NameExpr | None = var, h: Block = handler
            ) -> None:
                if t is not None:
                    self.expr(t)
                if v is not None:
                    self.bind_fresh(ir.Place(self.name(v.name)), v)
                self.suite(h)
                if v is not None:
                    self.emit(ir.Del(ir.Place(self.name(v.name)), span_of(v)))

            handlers.append(self.block(lower_handler))
        orelse = self.block(lambda: self.suite(node.else_body))
        final = self.block(lambda: self.suite(node.finally_body))
        self.emit(ir.Try(body, tuple(handlers), orelse, final, span_of(node)))

    def with_stmt(self, node: WithStmt) -> None:
        items = [
            calls.WithItem(
                item,
                isinstance(item, CallExpr) and self.ctx.refers_to(item.callee, UNSAFE_CONTEXT),
                self.target(target) if target is not None else None,
                isinstance(item, CallExpr) and self.ctx.refers_to(item.callee, calls.SUPPRESS_CONTEXT),
                isinstance(item, CallExpr) and self.constructs(item),
                self.entered(item) if target is not None else None,
                isinstance(item, CallExpr)
                and any(self.ctx.refers_to(item.callee, name) for name in calls.EXIT_STACK_CONTEXTS),
                self.with_phases(item),
                self.with_alias(item, target, node.body),
                self.with_methods(item, target, node.body) if not node.is_async else None,
            )
            for item, target in zip(node.expr, node.target, strict=True)
        ]
        calls.lower_with(items, lambda: self.block(lambda: self.guarded_suite(node.body)), span_of(node), self)

    def context_generator(self, expr: Expression) -> FuncDef | None:
        """The `@contextlib.contextmanager` generator of the module that `expr` calls, a function of its top level
        or a method (the CLI's `context_generator`), else None."""
        if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr):
            return self.context_method(expr.callee)
        if not (isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr)):
            return None
        node = expr.callee.node
        symbol = self.ctx.module.names.get(expr.callee.name)
        if not isinstance(node, Decorator) or symbol is None or symbol.node is not node:
            return None
        if expr.callee.name in self.local_names or len(node.original_decorators) != 1:
            return None
        if not any(self.ctx.refers_to(node.original_decorators[0], n) for n in calls.CONTEXT_MANAGER_DECORATORS):
            return None
        return node.func

    def context_method(self, callee: MemberExpr) -> FuncDef | None:
        """The `@contextlib.contextmanager` method `name.method` runs for every class the receiver may be (the
        CLI's `context_method`), else None."""
        if not isinstance(callee.expr, NameExpr) or self.kernel_body:
            return None
        candidates = receiver_classes(self, callee.expr.name)
        if not candidates:
            return None
        found = {id(d): d for cls in candidates if (d := self.ctx.classes.definition(cls, callee.name)) is not None}
        method = next(iter(found.values())) if len(found) == 1 else None
        if not isinstance(method, Decorator) or len(method.original_decorators) != 1:
            return None
        if not any(self.ctx.refers_to(method.original_decorators[0], n) for n in calls.CONTEXT_MANAGER_DECORATORS):
            return None
        return method.func

    def with_phases(self, expr: Expression) -> tuple[Callable[[ir.Place], None], Callable[[], None]] | None:
        """What a `@contextlib.contextmanager` generator of the module with one `yield` does before it and after it,
        applied when entering the item and leaving the block (the CLI's `with_phases`)."""
        func = self.context_generator(expr) if not self.kernel_body else None
        if func is None or not isinstance(expr, CallExpr):
            return None
        if sum(isinstance(n, YieldExpr | YieldFromExpr) for n in tree.walk(func.body)) != 1:
            return None
        classes = self.ctx.classes
        built = classes.memo.phases.get(id(func))
        if built is None:
            split = calls.with_phases(func.body.body, _is_yield_statement, _try_parts)
            if split is None:
                return None
            built = classes.memo.phases[id(func)] = (_phase_def(func, split[0], split[1]), _phase_def(func, split[1]))
        args = tuple(
            self.operand(arg, keyword if kind == ARG_NAMED else None, kind in (ARG_STAR, ARG_STAR2))
            for arg, kind, keyword in zip(expr.args, expr.arg_kinds, expr.arg_names, strict=True)
        )
        span = span_of(expr)
        # a method's receiver binds its first parameter (the CLI's)
        receiver = self.operand(expr.callee.expr, None, False) if isinstance(expr.callee, MemberExpr) else None
        applied = [
            phase_summary(self, phase, args, span, receiver) for phase in built if isinstance(phase, FuncDef)
        ]
        if len(applied) != 2 or applied[0] is None or applied[1] is None:
            return None
        entering, leaving = applied[0], applied[1]
        return (
            lambda kept: apply_summary(entering, expr, span, self, kept),
            lambda: apply_summary(leaving, expr, span, self),
        )

    def with_alias(self, expr: Expression, target: Expression | None, body: Block) -> tuple[str, str] | None:
        """`with staged(pf) as ready:`: `ready` stands for `pf` in the block (the CLI's `with_alias`)."""
        func = self.context_generator(expr)
        if func is None or not isinstance(expr, CallExpr) or not isinstance(target, NameExpr):
            return None
        yielded = set(_returned_params(func, yields=True) or ())
        method = isinstance(expr.callee, MemberExpr)
        arg = _bind_call(func, expr, method=method).get(next(iter(yielded))) if len(yielded) == 1 else None
        if not isinstance(arg, NameExpr) or arg.name == target.name or not _block_keeps(body, {arg.name, target.name}):
            return None
        return target.name, self.name(arg.name)

    def with_methods(
        self, expr: Expression, target: Expression | None, body: Block
    ) -> tuple[Callable[[ir.Place], None], Callable[[ir.Place], None]] | None:
        """`with Prefetcher(raw) as pf:` / `with pf:` of a class-based context manager of the
        module whose `__enter__` returns itself: its `__enter__` and `__exit__` summaries, applied to the object's
        place (the CLI's `with_methods`, `calls.WithItem.methods`)."""
        if self.kernel_body or not (target is None or isinstance(target, NameExpr)):
            return None
        names = {target.name} if target is not None else set()
        if isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr) and self.constructs(expr):
            candidates: tuple[ClassDef, ...] | None = (self.ctx.classes.classes[expr.callee.name],)
        elif isinstance(expr, NameExpr) and target is None:
            candidates = receiver_classes(self, expr.name)
            names.add(expr.name)
        else:
            return None
        if not candidates or not _block_keeps(body, names):
            return None
        return context_methods(self, candidates, expr, span_of(expr))

    def entered(self, expr: Expression) -> Callable[[], ir.Value] | None:
        """What `with lend(c) as lo:` binds `lo` to (the CLI's `entered`, `calls.entered_value`)."""
        picked = self.entered_arguments(expr)
        if picked is None:
            return None
        return calls.entered_value(self._alternatives((), picked, span_of(expr), 0), span_of(expr), self)

    def entered_arguments(self, expr: Expression) -> tuple[Expression, ...] | None:
        """The arguments of `lend(c)` bound to the parameters a `@contextlib.contextmanager` generator of the
        module yields on every `yield` (the CLI's `entered_arguments`), else None."""
        func = self.context_generator(expr)
        yielded = _returned_params(func, yields=True) if func is not None else None
        if func is None or yielded is None or not isinstance(expr, CallExpr):
            return None
        bound = _bind_call(func, expr, method=isinstance(expr.callee, MemberExpr))
        return tuple(bound[name] for name in yielded if name in bound)

    def constructs(self, node: CallExpr) -> bool:
        """Whether `node` builds an object of a class whose initializer the checker follows (`Cls(...)`)."""
        func = node.callee
        if self.kernel_body or not (isinstance(func, NameExpr) and func.name in self.ctx.classes.classes):
            return False
        return constructor_summary(self, func, ()) is not None

    def match_stmt(self, node: MatchStmt) -> None:
        self.expr(node.subject)
        arms: list[ir.Block] = []
        irrefutable = False
        # A guard runs whenever its pattern matches, also when it then fails and a later case is tried: every later
        # arm (and falling out of the match) starts with "maybe the earlier guards ran".
        failed_guards: list[ir.Op] = []

        def bind_pattern(p: Node) -> None:
            captured = self.captures_of(p, node.subject) if isinstance(p, Pattern) else {}
            for sub in tree.walk(p):
                if isinstance(sub, AsPattern) and sub.name is not None:
                    source = captured.get(id(sub))
                    place = ir.Place(self.name(sub.name.name))
                    if source is not None:
                        span = span_of(sub.name)
                        self.emit(ir.Bind((place,), (ir.FromPlace(source, span),), span))
                    else:
                        self.bind_fresh(place, sub.name)
                elif isinstance(sub, StarredPattern) and sub.capture is not None:
                    self.bind_fresh(ir.Place(self.name(sub.capture.name)), sub.capture)
                elif isinstance(sub, ValuePattern):
                    self.expr(sub.expr)

        for pattern, guard, body in zip(node.patterns, node.guards, node.bodies, strict=True):

            def lower_case(
                p: Node = pattern,
                g: Expression | None = guard,
                b: Block = body,
                prior: tuple[ir.Op, ...] = tuple(failed_guards),
            ) -> None:
                for op in prior:
                    self.emit(op)
                bind_pattern(p)
                if g is not None:
                    self.expr(g)
                self.suite(b)

            arms.append(self.block(lower_case))
            if guard is not None:

                def run_guard(p: Node = pattern, g: Expression = guard) -> None:
                    bind_pattern(p)
                    self.expr(g)

                failed_guards.append(ir.Branch((self.block(run_guard), ()), span_of(guard)))
            if guard is None and isinstance(pattern, AsPattern) and pattern.pattern is None:
                irrefutable = True
        if not irrefutable:
            arms.append(tuple(failed_guards))
        self.emit(ir.Branch(tuple(arms), subject_span(node.subject)))

    def captures_of(self, pattern: Pattern, subject: Expression) -> dict[int, ir.Place]:
        """The places the captures of a `match` pattern bind, by the capture pattern's id (the CLI front end's
        `captures_of`)."""
        out: dict[int, ir.Place] = {}
        whole = self.place(subject)
        items: list[ir.Place | None]
        container = self.containers.get(subject.name) if isinstance(subject, NameExpr) else None
        if container is not None:
            assert isinstance(subject, NameExpr)
            raw = subject.name
            items = [calls.container_element(self.name(raw), raw, container, i) for i in range(len(container.keys))]
        elif (display := self.literal_display(subject)) is not None:
            container = calls.Container(tuple(range(len(display))), False)
            items = [self.place(item) for item in display]
        else:
            items = []

        def item(key: calls.ContainerKey, mapping: bool, after_star: bool = False) -> ir.Place | None:
            found = calls.captured_item(container, key, mapping, after_star) if container is not None else None
            return items[found] if found is not None else None

        def visit(p: Pattern) -> None:
            # `p` matches the subject as a whole
            if isinstance(p, AsPattern):
                if p.name is not None and whole is not None:
                    out[id(p)] = whole  # `case x:`, `case (a, b) as pair:`
                if p.pattern is not None:
                    visit(p.pattern)
                return
            if isinstance(p, ClassPattern):
                builtin = self.builtin(p.class_ref)
                if builtin in ("tuple", "list", "dict") and len(p.positionals) == 1 and not p.keyword_keys:
                    visit(p.positionals[0])
                elif whole is not None and (attrs := self.class_pattern_attributes(p)) is not None:
                    # `case St(x, dst=y):` binds `x` to `subject.src` and `y` to `subject.dst`
                    for attr, sub in zip(attrs, (*p.positionals, *p.keyword_values), strict=True):
                        if isinstance(sub, AsPattern) and sub.pattern is None and sub.name is not None:
                            found = self.place(MemberExpr(subject, attr))
                            if found is not None:
                                out[id(sub)] = found
                return
            if isinstance(p, SequencePattern):
                star = next((i for i, sub in enumerate(p.patterns) if isinstance(sub, StarredPattern)), None)
                for position, sub in enumerate(p.patterns):
                    if isinstance(sub, AsPattern) and sub.pattern is None and sub.name is not None:
                        found = item(position, False, star is not None and position > star)
                        if found is not None:
                            out[id(sub)] = found
            elif isinstance(p, MappingPattern):
                for key, sub in zip(p.keys, p.values, strict=True):
                    literal = _key_literal(key)
                    bare = isinstance(sub, AsPattern) and sub.pattern is None and sub.name is not None
                    if bare and literal is not None and (found := item(literal, True)) is not None:
                        out[id(sub)] = found

        visit(pattern)
        return out

    def class_pattern_attributes(self, p: ClassPattern) -> tuple[str, ...] | None:
        """The subject's attribute each sub-pattern of a class pattern of one of the module's classes matches (the
        CLI front end's `class_pattern_attributes`)."""
        classes = self.ctx.classes
        ref = p.class_ref
        if not isinstance(ref, NameExpr) or ref.name not in classes.classes:
            return None
        cls = classes.classes[ref.name]
        if ref.node is not cls.info:
            return None
        match_args: tuple[str, ...] | None = None
        explicit = False
        for stmt in cls.defs.body:
            if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and stmt.line != cls.line):
                continue
            target = stmt.lvalues[0]
            if isinstance(target, NameExpr) and target.name == "__match_args__":
                value = stmt.rvalue
                explicit, match_args = True, None
                if isinstance(value, TupleExpr) and all(isinstance(el, StrExpr) for el in value.items):
                    match_args = tuple(el.value for el in value.items if isinstance(el, StrExpr))
        if not explicit and (generated := self.generated_init(cls)) is not None:
            match_args = generated.positional
        return calls.class_pattern_attributes(match_args, len(p.positionals), p.keyword_keys)

    def function_def(self, node: FuncDef | Decorator | OverloadedFuncDef) -> None:
        if isinstance(node, Decorator):
            for dec in node.original_decorators:
                self.expr(dec)
            func: FuncItem | None = node.func
        elif isinstance(node, FuncDef):
            func = node
        else:
            func = None
        captured: list[str] = []
        if func is not None:
            for arg in func.arguments:
                if arg.initializer is not None:
                    self.expr(arg.initializer)
            if self.unit.kind != "module":
                captured = self.captures(func, set(_params(func)))
            self.def_device[id(func)] = frozenset(self.device)
        self.bind_fresh(ir.Place(self.name(node.name)), node)
        self.closures.pop(node.name, None)
        kind = self.ctx.decorator_kind(node.original_decorators) if isinstance(node, Decorator) else "function"
        self.defaults.pop(node.name, None)
        if self.unit.kind != "module" and func is not None and kind == "function":
            self.bind_defaults(node.name, func, kind, span_of(node))
        if self.unit.kind != "module" and func is not None and kind == "function":
            # a call of it may move the captured values, and rebind the names it declares `nonlocal`
            declared = [n for sub in tree.walk(func.body) if isinstance(sub, NonlocalDecl) for n in sub.names]
            if captured or declared:
                device = frozenset(self.device)
                # a sibling nested function it calls (or awaits) by name does what that one's call does
                siblings = {n: self.closures[n] for n in captured if n in self.closures}
                unit = Unit(
                    func,
                    kind,
                    lambda: device,
                    None,
                    outer_containers=self.containers,
                    outer_closures=siblings,
                    outer_names=self.enclosing_names(),
                    enclosing=self.unit.node if isinstance(self.unit.node, FuncItem) else None,
                )
                inherited = [name for effects in siblings.values() for name in effect_names(effects)]
                effects = nonlocal_effects(
                    FunctionLowerer(self.ctx, unit).lower(), [*captured, *declared, *inherited], list(_params(func))
                )
                if not effects.empty:
                    self.closures[node.name] = effects

    def bind_defaults(self, name: str, func: FuncItem, kind: str, span: Span) -> None:
        """A nested function's defaults that are places, kept in slots when the `def` runs (the CLI's
        `bind_defaults`, `parameter_defaults`); `name` the function's, or a lambda's bound once to it."""
        slots: dict[str, ir.Place] = {}
        values: list[ir.Value] = []
        for arg in func.arguments:
            place = self.place(arg.initializer) if arg.initializer is not None else None
            if arg.initializer is not None and place is not None:
                slots[arg.variable.name] = parameter_defaults.default_slot(self.name(name), arg.variable.name)
                values.append(ir.FromPlace(place, span_of(arg.initializer)))
        if not slots:
            return
        self.emit(ir.Bind(tuple(slots.values()), tuple(values), span))
        device = frozenset(self.device)
        unit = Unit(func, kind, lambda: device, None, outer_containers=self.containers)
        found = parameter_defaults.read_defaults(
            FunctionLowerer(self.ctx, unit).lower(),
            slots,
            [a.variable.name for a in func.arguments if a.kind in (ARG_POS, ARG_OPT)],
            list(_params(func)),
        )
        if found is not None:
            self.defaults[name] = found

    def enclosing_names(self) -> frozenset[str]:
        """The local names of this function and of the functions it is nested in (`Unit.outer_names`, the CLI's
        `enclosing_names`)."""
        return self.unit.outer_names | self.local_names

    def captures(self, func: FuncItem, params: set[str]) -> list[str]:
        """A nested function or lambda reads the enclosing names it mentions: each counts as a use, here.  Returns
        those names as the nested body spells them."""
        assigned: set[str] = set(params)
        for sub in tree.walk(func.body, skip_scopes=False):
            if isinstance(sub, AssignmentStmt) and sub.unanalyzed_type is None:
                for lvalue in sub.lvalues:
                    assigned.update(_target_names(lvalue))
            elif isinstance(sub, WithStmt | ForStmt | OperatorAssignmentStmt | AssignmentExpr):
                # `with hold(...) as held:` binds the nested function's own `held` (the CLI's `captures`)
                for target in tree.stored_targets(sub):
                    assigned.update(_target_names(target))
            elif isinstance(sub, TryStmt):
                assigned.update(v.name for v in sub.vars if v is not None)
            elif isinstance(sub, FuncItem) and sub is not func:
                # a scope nested in it binds its parameters: their mentions there are not the caller's names (the
                # CLI's `captures`)
                assigned.update(_params(sub))
        seen: set[str] = set()
        found: list[str] = []
        mentions: list[tuple[str, Span]] = []
        for sub in tree.walk(func.body, skip_scopes=False):
            if isinstance(sub, NameExpr):
                mentions.append((sub.name, span_of(sub)))
            elif isinstance(sub, MemberExpr):
                mentions.append((sub.name, attr_span(sub)))
            elif isinstance(sub, FuncDef | ClassDef) and sub is not func:
                mentions.append((sub.name, span_of(sub)))
        # in source order (the first mention of each name is its use, whatever order the tree walk takes; the
        # CLI's `captures`)
        for raw, span in sorted(mentions, key=lambda m: (m[1].line, m[1].column)):
            name = self.name(raw)
            if raw in assigned or name in seen:
                continue
            if name == raw and raw not in self.local_names and raw not in self.unit.outer_names:
                continue
            seen.add(name)
            found.append(raw)
            self.emit(ir.Use(ir.Place(name, (), raw if name != raw else None), span))
        return found

    # --- assignment ------------------------------------------------------------------------------------------

    def bind_fresh(self, place: ir.Place, node: Node, kind: str = "value") -> None:
        self.emit(ir.Bind((place,), (ir.Fresh(kind),), span_of(node)))

    def target(self, expr: Expression) -> calls.Target[Expression]:
        """An assignment target as the core's neutral shape."""
        if isinstance(expr, TupleExpr | ListExpr):
            starred = any(isinstance(item, StarExpr) for item in expr.items)
            return calls.UnpackTarget(tuple(self.target(item) for item in expr.items), span_of(expr), starred)
        if isinstance(expr, StarExpr):
            return calls.StarTarget(self.target(expr.expr))
        place = self.place(expr)
        if place is not None:
            root_span = span_of(expr.expr) if isinstance(expr, MemberExpr) else None
            return calls.PlaceTarget(place, span_of(expr), root_span)
        if (
            isinstance(expr, IndexExpr)
            and isinstance(expr.base, NameExpr)
            and (container := self.containers.get(expr.base.name)) is not None
            and (index := calls.stored_element(container, _key_literal(expr.index))) is not None
        ):
            # `heads["k"] = v` of a container: that item is `v` from here on (the CLI's rule)
            raw = expr.base.name
            return calls.PlaceTarget(calls.container_element(self.name(raw), raw, container, index), span_of(expr))
        if isinstance(expr, IndexExpr):
            # `bufs["a"] = v` of a container the checker knows no items of: that item is `v` from here on
            key = _key_literal(expr.index)  # a parameter key stores as a computed one (the CLI's rule)
            item = self.keyed_item(expr.base, key) if key is not None else None
            return calls.OtherTarget(expr, self.place(expr.base), span_of(expr), item)
        return calls.OtherTarget(expr)

    def bind(self, target: Expression, value: ir.Value) -> None:
        calls.bind_target(self.target(target), value, self)

    def set_default(self, target: NameExpr, value: Expression) -> bool:
        """`trace = self.traces.setdefault(name, Factory(...))`: the default or the item already held, one arm each
        (the CLI's `set_default`)."""
        parts = _setdefault_parts(value) if not self.kernel_body else None
        if parts is None or self.place(parts[0]) is None:
            return False
        container, key, default = parts
        read = IndexExpr(container, key)
        read.set_line(value)
        built = self.block(lambda: self.assign([target], default))
        kept = self.block(lambda: self.assign([target], read))
        self.emit(ir.Branch((built, kept), span_of(value)))
        return True

    def assign(self, targets: Sequence[Expression], value: Expression) -> None:
        if len(targets) == 1 and isinstance(value, CallExpr) and self.copied_fields(targets[0], value):
            return
        if len(targets) == 1 and isinstance(targets[0], NameExpr) and self.set_default(targets[0], value):
            return
        if self.taken_views(targets, value):
            return
        if self.unpacked_comprehension(targets, value):
            return
        if len(targets) == 1 and isinstance(targets[0], NameExpr) and targets[0].name in self.containers:
            raw = targets[0].name
            found = self.display_items(value)
            target = self.target(targets[0])
            if found is not None and isinstance(target, calls.PlaceTarget):
                container = self.containers[raw]
                nested = {k: sub for k, item in found[0] if (sub := _nested_display(item)) is not None}
                span = span_of(targets[0])
                calls.assign_container(target, self.name(raw), raw, container, found[0], span, self, nested)
                self.lengths[raw] = len(found[0])
                return
            repeated = _repeated_display(value)
            if repeated is not None and isinstance(target, calls.PlaceTarget):
                # `stages = [sk.zeros(...)] * 3`: every index holds the display item's one object
                container = self.containers[raw]
                calls.assign_repeated(target, self.name(raw), raw, container, repeated, span_of(targets[0]), self)
                if repeated.counted:
                    self.lengths[raw] = len(repeated.order)
                else:
                    self.lengths.pop(raw, None)
                return
            returned = self.returned_displays(value)
            if returned is not None and isinstance(target, calls.PlaceTarget):
                # `params = init_params(w)`: the items of the display each `return` of the helper gives
                assert isinstance(value, CallExpr)
                self.call(value, None)
                given = [[(key, item()) for key, item in items] for items in returned[0]]
                container = self.containers[raw]
                calls.assign_returned_container(target, self.name(raw), raw, container, given, span_of(value), self)
                self.lengths[raw] = len(container.keys)
                return
            registry = self.registry_comprehension(value)
            if registry is not None and isinstance(target, calls.PlaceTarget):
                # `preps = {n: k.prepare(...) for n, k in KERNELS.items()}`: item `n` is what the value evaluates
                # to in the iteration over the registry's entry `n` (a prepared launch keeps its brand)
                dict_comp, keys, item = registry
                self.expr(dict_comp.sequences[0])
                span = span_of(targets[0])
                calls.assign_registry_dict(target, self.name(raw), raw, self.containers[raw], keys, item, span, self)
                self.lengths[raw] = len(keys)
                return
            if isinstance(value, DictionaryComprehension) and isinstance(target, calls.PlaceTarget):
                # `bufs = {k: make(k) for k in names}`: new values under the keys the function reads
                self.expr(value)
                opened = self.containers[raw]
                calls.assign_container(target, self.name(raw), raw, opened, (), span_of(targets[0]), self)
                self.lengths[raw] = len(opened.keys)
                return
            if isinstance(value, ConditionalExpr) and _display_options(value) and isinstance(target, calls.PlaceTarget):
                # `plan = (a, a) if inplace else (a, b)`: each arm binds the container's items as its display does
                self.expr(value.cond)
                arms = (
                    self.block(functools.partial(self.assign, targets, value.if_expr)),
                    self.block(functools.partial(self.assign, targets, value.else_expr)),
                )
                self.emit(ir.Branch(arms, span_of(value)))
                return
            built = self.built_list(value)
            if built is not None and isinstance(target, calls.PlaceTarget):
                comp, count, taken = built
                self.expr(comp.generator.sequences[0])
                item = functools.partial(self.built_item, comp, taken)
                span = span_of(targets[0])
                calls.assign_built_list(target, self.name(raw), raw, self.containers[raw], count, item, span, self)
                self.lengths[raw] = count
                return
        if len(targets) == 1 and isinstance(targets[0], MemberExpr) and self.keyed_display(targets[0], value):
            return
        split: calls.SplitAt[Expression] | None = None
        items: tuple[Expression, ...] | None = None
        if (
            isinstance(value, CallExpr)
            and isinstance(value.callee, MemberExpr)
            and value.callee.name == calls.SPLIT_METHOD
        ):
            base = self.place(value.callee.expr)
            if base is not None:
                split = calls.SplitAt(base, tuple(value.args), span_of(value))
        elif isinstance(value, TupleExpr | ListExpr) and not any(isinstance(e, StarExpr) for e in value.items):
            items = tuple(value.items)
        elements: tuple[ir.Place, ...] | None = None
        if isinstance(value, NameExpr) and (sequence := self.containers.get(value.name)) is not None:
            elements = calls.sequence_elements(self.name(value.name), value.name, sequence)
        elif any(isinstance(t, TupleExpr | ListExpr) for t in targets):
            elements = self.iterated_places(value)
            if elements is None and (got := self.getter_places(value)) is not None and got[1]:
                elements = got[0]  # `src, dst = itemgetter("input", "output")(roles)`: the items themselves
        stars: tuple[ir.Place, ...] | None = None
        if (star := _starred_take(targets, value)) is not None and (rest := self.containers.get(star[0])):
            stars = calls.sequence_elements(self.name(star[0]), star[0], rest)
            self.lengths[star[0]] = star[1]
        selects = self.selected_container(value)
        unpacked = len(targets) == 1 and isinstance(targets[0], TupleExpr | ListExpr)
        repeated = _repeated_display(value) if unpacked else None
        shape = calls.Assignment(
            tuple(self.target(t) for t in targets), value, split, items, elements, stars, selects, repeated
        )
        calls.lower_assignment(shape, self)

    def keyed_display(self, target: MemberExpr, value: Expression) -> bool:
        """`obj.bufs = {"inp": a, "out": b}` of literal keys, or a dict comprehension over a table the source
        lists: its items are kept under their keys (the CLI's `keyed_display`)."""
        if self.kernel_body:
            return False
        registry = self.registry_comprehension(value) if isinstance(value, DictionaryComprehension) else None
        if registry is not None:
            keys: list[calls.ContainerKey | None] = list(registry[1])
            lowered: list[Callable[[], ir.Value]] = [functools.partial(registry[2], i) for i in range(len(keys))]
        elif isinstance(value, DictExpr) and value.items:
            keys = [_key_literal(k) if k is not None else None for k, _ in value.items]
            lowered = [functools.partial(self.value, v) for _, v in value.items]
        else:
            return False
        places = [self.keyed_item(target, k) if k is not None else None for k in keys]
        if any(p is None for p in places) or len(set(keys)) != len(keys):
            return False
        shape = self.target(target)
        if not isinstance(shape, calls.PlaceTarget):
            return False
        if registry is not None:
            self.expr(registry[0].sequences[0])
        items = [(p, f) for p, f in zip(places, lowered, strict=True) if p is not None]
        calls.assign_keyed_items(shape, items, span_of(target), self)
        return True

    def selected_container(self, value: Expression) -> ir.Place | None:
        """The container place whose items a call makes a new list of (the CLI's `selected_container`)."""
        if not isinstance(value, CallExpr) or any(kind not in (ARG_POS, ARG_NAMED) for kind in value.arg_kinds):
            return None
        positional = [a for a, kind in zip(value.args, value.arg_kinds, strict=True) if kind == ARG_POS]
        keywords = [n for n, kind in zip(value.arg_names, value.arg_kinds, strict=True) if kind == ARG_NAMED]
        found = (stdlib_flow.selected_operand(n, len(positional), keywords) for n in self.ctx.names(value.callee))
        position = next((p for p in found if p is not None), None)
        return None if position is None else self.place(positional[position])

    def selected_loop(self, expr: Expression) -> tuple[ir.Place, bool] | None:
        """A loop over a name bound once to a list a call made of a container's items, or over `enumerate` of it
        (the CLI's `selected_loop`)."""
        inner = self.enumerated(expr)
        enumerated = inner is not None
        expr = expr if inner is None else inner
        if not isinstance(expr, NameExpr) or (call := self.iterators.get(expr.name)) is None:
            return None
        place = self.place(expr) if self.selected_container(call) is not None else None
        return None if place is None else (place, enumerated)

    def copied_fields(self, target: Expression, value: CallExpr) -> bool:
        """`low = dataclasses.replace(step, dst=step.src)`, `clone = copy.copy(step)` of a name whose class is a
        dataclass (or `NamedTuple`) of this module (the CLI's `copied_fields`, `stdlib_flow.bind_fields`)."""
        form = self.copy_form(value)
        if form is None:
            return False
        copied, replaced = form
        cls = receiver_class(self, copied.name)
        source = self.place(copied)
        placed = self.target(target)
        if cls is None or source is None or not isinstance(placed, calls.PlaceTarget):
            return False
        classes = self.ctx.classes
        if id(cls) not in classes.generated:
            classes.generated[id(cls)] = generated_fields(self, cls)
        generated = classes.generated[id(cls)]
        if generated is None or not generated.followed:
            return False
        fields = (*generated.positional, *generated.keyword_only)
        if any(name not in fields for name, _ in replaced):
            return False
        stdlib_flow.bind_fields(placed, source, fields, replaced, span_of(copied), self)
        return True

    def copy_form(self, value: CallExpr) -> tuple[NameExpr, list[tuple[str, Expression]]] | None:
        """`dataclasses.replace(step, dst=step.src)`, `copy.copy(step)`, `step._replace(dst=step.src)` of a name:
        the name copied and the replaced fields, else None (the CLI's `copy_form`)."""
        flow = self.stdlib_flow_of(value.callee)
        args, names, kinds = value.args, value.arg_names, value.arg_kinds
        if isinstance(value.callee, MemberExpr) and ARG_POS not in kinds:
            # `low = step._replace(dst=step.src)` of a `NamedTuple`: the receiver is the operand (the CLI's rule)
            flow = stdlib_flow.FIELD_METHODS.get(value.callee.name)
            args, names, kinds = [value.callee.expr, *args], [None, *names], [ARG_POS, *kinds]
        if flow is None or flow.relation != "fields" or kinds[:1] != [ARG_POS]:
            return None
        if any(k != ARG_NAMED for k in kinds[1:]) or (len(args) > 1 and not flow.replaces):
            return None
        copied = args[0]
        if not isinstance(copied, NameExpr):
            return None
        replaced = [(n, a) for n, a in zip(names[1:], args[1:], strict=True) if n is not None]
        return (copied, replaced) if len(replaced) == len(args) - 1 else None

    def returned_copy(
        self, value: Expression | None, helper: FuncItem, call: CallExpr
    ) -> tuple[list[calls.ReturnedItem], list[ir.Place], Callable[[], calls.FieldParts]] | None:
        """For `calls.returned_object`: a `return` of `helper` copying a parameter's object (`return
        plan._replace(dst=plan.src)`) that the call binds to a name of a dataclass (or `NamedTuple`) of this
        module whose fields the checker follows (the CLI's `returned_copy`)."""
        form = self.copy_form(value) if isinstance(value, CallExpr) else None
        if form is None or _stores_attributes(helper):
            return None
        passed = _bind_call(helper, call)
        params = {arg.variable.name for arg in helper.arguments}

        def argument(node: Expression) -> NameExpr | None:
            # the caller's name the call binds a parameter to, one the helper never rebinds
            if not (isinstance(node, NameExpr) and _returned_name(helper, node) in params):
                return None
            found = passed.get(node.name)
            return found if isinstance(found, NameExpr) else None

        copied = argument(form[0])
        source = self.place(copied) if copied is not None else None
        cls = receiver_class(self, copied.name) if copied is not None else None
        if source is None or cls is None:
            return None
        classes = self.ctx.classes
        if id(cls) not in classes.generated:
            classes.generated[id(cls)] = generated_fields(self, cls)
        generated = classes.generated[id(cls)]
        fields = (*generated.positional, *generated.keyword_only) if generated is not None else ()
        given = dict(form[1])
        if generated is None or not generated.followed or any(name not in fields for name in given):
            return None

        def item(expr: Expression) -> calls.ReturnedItem:
            node, path = expr, list[str]()
            while isinstance(node, MemberExpr):
                path.insert(0, node.name)
                node = node.expr
            named = argument(node) if path else None
            base = self.place(named) if named is not None else None
            if base is not None:
                return stdlib_flow.path_place(base, path)
            return self.returned_entry(expr, helper, call)

        items = [item(given[f]) if f in given else stdlib_flow.path_place(source, (f,)) for f in fields]
        stages = [self.temp(f) for f in fields]
        return items, stages, functools.partial(stdlib_flow.copied_parts, fields, stages, span_of(call), self)

    def registry_comprehension(
        self, expr: Expression
    ) -> tuple[DictionaryComprehension, list[calls.ContainerKey], Callable[[int], ir.Value]] | None:
        """`{n: f(k) for n, k in REG.items()}` (`_registry_form`) over a name bound once here to a dict display of
        literal keys, or a dict comprehension over an iterable the source lists (the CLI front end's rule,
        `calls.assign_registry_dict`): the comprehension, its keys and what lowers iteration `i`."""
        form = _registry_form(expr)
        entries = self.registries.get(form[1]) if form is not None else None
        if form is not None and entries and len(entries) <= calls.MAX_CONTAINER_ITEMS:
            return form[0], [key for key, _ in entries], functools.partial(self.registry_item, form[0], entries)
        static = static_iterables.dict_comprehension(static_iterables.scope_of(self), expr)
        if static is None or not isinstance(static.node, DictionaryComprehension):
            return None
        return static.node, list(static.keys), functools.partial(self.static_item, static)

    def static_item(self, static: static_rows.StaticComprehension[Expression], index: int) -> ir.Value:
        """Iteration `index` of a dict comprehension over an iterable the source lists (the CLI's `static_item`):
        each target name bound to the item it takes there, a kernel's name keeping its kernel."""
        comp = static.node
        assert isinstance(comp, DictionaryComprehension)
        target, it = comp.indices[0], comp.sequences[0]
        self.tmp += 1
        renames = {raw: f"{raw}$c{self.tmp}" for raw in _target_names(target)}
        bindings = static.bindings[index]
        names = target.items if isinstance(target, TupleExpr | ListExpr) else [target]
        shadowed: list[tuple[Var, tuple[Var, Decorator] | None]] = []
        self.renames.append(renames)
        try:
            for name in names:
                if not isinstance(name, NameExpr) or name.name not in bindings:
                    continue
                item = bindings[name.name]
                source = None if isinstance(item, StrExpr | IntExpr) else self.place(item)
                self.bind(name, ir.FromPlace(source, span_of(it)) if source is not None else ir.Fresh())
                var = name.node
                kernel = self.kernel_decorator(item)
                if isinstance(var, Var):
                    shadowed.append((var, self.ctx.factory_vars.get(id(var))))
                    if kernel is not None:
                        self.ctx.factory_vars[id(var)] = (var, kernel)
                    else:
                        self.ctx.factory_vars.pop(id(var), None)
            if comp.key is not None:
                self.expr(comp.key)
            return self.value(comp.value)
        finally:
            self.renames.pop()
            for var, kept in shadowed:
                if kept is not None:
                    self.ctx.factory_vars[id(var)] = kept
                else:
                    self.ctx.factory_vars.pop(id(var), None)

    def registry_item(
        self, comp: DictionaryComprehension, entries: list[tuple[calls.ContainerKey, Expression]], index: int
    ) -> ir.Value:
        """Iteration `index` of a dict comprehension over a registry (`registry_comprehension`; the CLI's rule):
        the value target is the registry's item there, a kernel when the item names one."""
        target, it = comp.indices[0], comp.sequences[0]
        assert isinstance(target, TupleExpr) and isinstance(it, CallExpr) and isinstance(it.callee, MemberExpr)
        key_target, value_target = target.items
        registry = it.callee.expr
        assert isinstance(value_target, NameExpr) and isinstance(registry, NameExpr)
        self.tmp += 1
        renames = {raw: f"{raw}$c{self.tmp}" for raw in _target_names(target)}
        var = value_target.node
        kernel = self.kernel_decorator(entries[index][1])
        shadowed = self.ctx.factory_vars.get(id(var)) if isinstance(var, Var) else None
        self.renames.append(renames)
        try:
            self.bind(key_target, ir.Fresh())
            container = self.containers.get(registry.name)
            place = (
                calls.container_element(self.name(registry.name), registry.name, container, index)
                if container is not None and container.mapping and len(container.keys) == len(entries)
                else None
            )
            self.bind(value_target, ir.FromPlace(place, span_of(it)) if place is not None else ir.Fresh())
            if kernel is not None and isinstance(var, Var):
                self.ctx.factory_vars[id(var)] = (var, kernel)
            if comp.key is not None:
                self.expr(comp.key)
            return self.value(comp.value)
        finally:
            self.renames.pop()
            if isinstance(var, Var):
                if shadowed is not None:
                    self.ctx.factory_vars[id(var)] = shadowed
                else:
                    self.ctx.factory_vars.pop(id(var), None)

    def kernel_decorator(self, expr: Expression) -> Decorator | None:
        """The kernel definition `expr` names (`FileContext.kernel`'s answer, as its decorated node), else None."""
        node = expr.node if isinstance(expr, RefExpr) else None
        if isinstance(node, Var):
            made = self.ctx.factory_vars.get(id(node))
            node = made[1] if made is not None and made[0] is node else self.ctx.kernel_aliases().get(node.fullname)
        return node if isinstance(node, Decorator) and self.ctx.kernel(expr) is not None else None

    def built_item(
        self, comp: ListComprehension, items: tuple[Expression, ...] | None, index: int, holder: ir.Place | None
    ) -> ir.Value:
        """Iteration `index` of a comprehension building a container list (`built_list`; the CLI's rule), held by
        the list's item place `holder`."""
        gen = comp.generator
        self.tmp += 1
        renames = {raw: f"{raw}$c{self.tmp}" for raw in _target_names(gen.indices[0])}
        self.renames.append(renames)
        target = gen.indices[0]
        key = _key_literal(items[index]) if items is not None and isinstance(target, NameExpr) else None
        if key is not None:
            assert isinstance(target, NameExpr)
            self.literal_keys[target.name] = key  # the CLI's `literal_keys`
        try:
            if items is not None:
                self.assign([target], items[index])
            else:
                self.bind(target, ir.Fresh())
            return self.value(gen.left_expr, holder)
        finally:
            self.renames.pop()
            if key is not None:
                assert isinstance(target, NameExpr)
                del self.literal_keys[target.name]

    def value(self, expr: Expression, holder: ir.Place | None = None) -> ir.Value:
        """Lower an expression whose result is bound to a name: an alias, a view or a fresh object."""
        if isinstance(expr, MemberExpr):
            if expr.name in self.ctx.shared_getters() and self.shared_getter_read(expr):
                self.expr(expr.expr)
                return ir.Fresh(calls.SHARED_OP)
            self.property_read(expr)
            getter_views = self.getter_views(expr)
            if getter_views is not None:  # `arena.tension` of a property returning `self.buf.view(a, b)`
                return calls.returned_views(getter_views, span_of(expr), self)
        place = self.place(expr)
        if place is not None:
            return ir.FromPlace(place, span_of(expr))
        if isinstance(expr, NameExpr) and expr.name in _LITERAL_NAMES:
            literal = calls.literal_kind(_LITERAL_NAMES[expr.name])
            if literal is not None:
                return ir.Fresh(literal)
        if isinstance(expr, AssignmentExpr):
            inner = self.value(expr.value, self.place(expr.target))
            self.bind(expr.target, inner)
            target = self.place(expr.target)
            return ir.FromPlace(target, span_of(expr.target)) if target is not None else ir.Fresh()
        view = self.view_shape(expr)
        if view is not None:
            bound = calls.bind_view(view, span_of(expr), self)
            if bound is not None:
                return bound
        if isinstance(expr, ConditionalExpr):
            self.expr(expr.cond)
            yes, no = expr.if_expr, expr.else_expr
            return calls.choose_value(
                [(lambda: self.value(yes), span_of(yes)), (lambda: self.value(no), span_of(no))],
                span_of(expr.cond), span_of(expr), self,
            )
        if isinstance(expr, AwaitExpr):
            return self.awaited_value(expr, holder)
        if isinstance(expr, YieldExpr):
            self.expr(expr)
            return callables.received_value()
        choosing = isinstance(expr, IndexExpr | CallExpr | MemberExpr) or (
            isinstance(expr, OpExpr) and expr.op in ("and", "or")
        )
        if choosing and not self.computed_index(expr):
            found = self.choices(expr, span_of(expr), 0)
            if found is not None:
                return calls.bind_choices(found, span_of(expr), self)
        method_returns = self.method_returned_tuples(expr) if isinstance(expr, CallExpr) else None
        if method_returns is not None and isinstance(expr, CallExpr):
            # `lhs, rhs, out = mode.operands(x, bias, scratch)` of a method returning `x, bias, x` on one path
            lowered = self.call(expr, None)
            if calls.returned_parts_value(lowered):
                return lowered  # `return staged, k.launch_async(prep, x, staged)`: its parts, an op's loans kept
            return calls.returned_tuple(method_returns, span_of(expr), self)
        bump = self.bump_calls().get(id(expr)) if isinstance(expr, CallExpr) else None
        if bump is not None and isinstance(expr, CallExpr):
            # `image = arena.alloc(h, w)` of a bump allocator: a view no other call of its run overlaps
            self.call(expr, None)
            return calls.bump_view(*bump, span_of(expr), self, self.bump_sites)
        method_views = self.method_returned_views(expr) if isinstance(expr, CallExpr) else None
        if method_views is not None and calls.all_views(method_views) and isinstance(expr, CallExpr):
            # `left = planar.channel(0)` of a method returning `self.buf[start:stop]`: a view of `planar.buf`
            self.call(expr, None)
            return calls.returned_views(method_views, span_of(expr), self)
        helper = self.plain_callee(expr) if isinstance(expr, CallExpr) else None
        if isinstance(expr, CallExpr) and helper is not None:
            # (`def outer(buf, n): return inner(buf, n, 1)`: `inner`'s returns, its arguments the caller's)
            giving, given = self.returning_call(helper, expr)
            returns = _returned_tuples(giving)
            if returns is not None:
                lowered = self.call(expr, None)
                if calls.returned_parts_value(lowered):
                    return lowered  # `return staged, k.launch_async(prep, x, staged)`: its parts, loans kept
                displays = [r.items for r in _returned_values(giving) if isinstance(r, TupleExpr)]
                shaped = [
                    tuple(self.returned_entry(element, giving, given) for element in elements)
                    for elements in displays
                ]
                return calls.returned_tuple(shaped, span_of(expr), self)
            returned = _returned_values(giving)
            if returned and all(r is not None for r in returned):
                passed = _bind_call(giving, given)
                params = {arg.variable.name for arg in giving.arguments}
                views = [self.returned_item(None, r, params, passed, giving, given) for r in returned if r is not None]
                if calls.all_views(views):  # `def head(buf): return buf[:n]`
                    self.call(expr, None)
                    return calls.returned_views(views, span_of(expr), self)
            placed = holder is not None and holder.root != ir.RETURN_HOLDER
            built = self.returned_objects(helper, expr) if placed else None
            memoized = self.memoized_call(expr) if built is not None else None
            if built is not None and memoized is not None:
                # a memoised helper returning a constructed object: the kept object, with its fields (the CLI's)
                self.plain_call(expr, None)
                span = span_of(expr)
                staged = self.temp("value")
                calls.bind_target(calls.PlaceTarget(staged, span), calls.returned_object(built, span, self), self)
                kept = memo_result(self.memo, *memoized, ir.FromPlace(staged, span), span, self)
                self.emit(ir.Del(staged, span))
                return kept
            if built is not None:
                self.call(expr, None)
                return calls.returned_object(built, span_of(expr), self)
        factory = self.class_factory(expr) if holder is not None and holder.root != ir.RETURN_HOLDER else None
        if factory is not None and isinstance(expr, CallExpr):
            # `track = Track.mono(n, s)` of a `@classmethod` returning `cls(left=buf, right=buf)`
            built = self.returned_objects(factory[0], expr, factory[1])
            if built is not None:
                self.call(expr, None)
                return calls.returned_object(built, span_of(expr), self)
        comprehension = self.built_comprehension(expr)
        stage = calls.comprehension_stage(holder, span_of(expr), self) if comprehension is not None else None
        if comprehension is not None and stage is not None:
            # `ops = [k.launch_async(...) for x in xs]`: the container keeps every op the comprehension built
            self.comprehension(comprehension, stage)
            return calls.kept_comprehension(stage)
        if isinstance(expr, CallExpr):
            return self.call(expr, holder)
        items = self.literal_display(expr)
        stored = calls.stored_display([(i, span_of(i)) for i in items], holder, self) if items is not None else None
        if stored is not None:  # `ops.append((k.launch_async(...), out))`: the container keeps the op too
            return stored
        calls_shown = self.display_of_calls(expr)
        kept_display = calls.staged_display(calls_shown, holder, span_of(expr), self) if calls_shown else None
        if kept_display is not None:  # `pending = {"a": k.launch_async(...)}`: the container keeps the op
            return kept_display
        self.expr(expr)
        if isinstance(expr, IndexExpr) and (raw := computed_dotted(expr.base)) is not None:
            container = self.place(expr.base)
            form = index_form(expr.index, self.builtin)
            read = self.computed.read(container, raw, form, id(expr), span_of(expr)) if container else None
            if read is not None:  # `parts[i]` read again with `i` unchanged: the same object
                if read[0] is not None:
                    self.emit(read[0])
                return read[1]
        return ir.Fresh()

    def display_of_calls(self, expr: Expression) -> list[tuple[Expression, Span]]:
        """The items of a list or set display, or the values of a dict display under literal keys, with their
        spans, when one of them is a call (the CLI's `display_of_calls`); else empty."""
        if isinstance(expr, ListExpr | SetExpr):
            items: list[Expression] = list(expr.items)
        elif isinstance(expr, DictExpr) and all(isinstance(k, StrExpr | IntExpr) for k, _ in expr.items):
            items = [value for _, value in expr.items]
        else:
            return []
        if any(isinstance(item, StarExpr) for item in items) or not any(isinstance(i, CallExpr) for i in items):
            return []
        return [(item, span_of(item)) for item in items]

    def built_comprehension(
        self, expr: Expression
    ) -> GeneratorExpr | ListComprehension | SetComprehension | DictionaryComprehension | None:
        """The comprehension that builds at once the container `expr` gives (the CLI's `built_comprehension`)."""
        if isinstance(expr, ListComprehension | SetComprehension | DictionaryComprehension):
            return expr
        if (
            isinstance(expr, CallExpr)
            and self.builtin(expr.callee) in ("list", "tuple", "set")
            and expr.arg_kinds == [ARG_POS]
            and isinstance(expr.args[0], GeneratorExpr)
        ):
            return expr.args[0]
        return None

    def returned_displays(self, expr: Expression) -> tuple[list[ReturnedEntries], bool] | None:
        """`helper(...)` of a plain function whose every `return` is a display, or a dict comprehension over a
        registry (the CLI's `returned_displays`)."""
        if not (isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr)):
            return None
        helper = self.helper(expr.callee)
        if helper is None:
            return None
        found = _returned_displays(helper) or self.returned_filled(helper)
        if found is not None:
            entry = self.returned_entry
            arms: list[ReturnedEntries] = [
                [(k, functools.partial(entry, item, helper, expr)) for k, item in items] for items, _ in found
            ]
            return arms, found[0][1]
        built = _built_return(helper)
        if built is not None:
            # `return roles` of a dict a display and literal-key stores built (the CLI's rule)
            entries = calls.built_entries(
                built[0],
                built[1],
                _options,
                lambda arm: _key_literal(arm.index)
                if isinstance(arm, IndexExpr) and isinstance(arm.base, NameExpr) and arm.base.name == built[0]
                else None,
                lambda arm: self.returned_entry(arm, helper, expr),
            )
            return ([entries], True) if entries is not None else None
        registry = self.returned_registry(helper)
        return ([registry], True) if registry is not None else None

    def returned_filled(
        self, helper: FuncItem
    ) -> list[tuple[list[tuple[calls.ContainerKey, Expression]], bool]] | None:
        """A helper whose one `return` is `dict.fromkeys(names, value)`: one object under every key (the CLI's)."""
        returned = [r.expr for r in tree.walk(helper.body) if isinstance(r, ReturnStmt)]
        if len(returned) != 1 or returned[0] is None or helper.is_coroutine:
            return None
        shown = self.display_items(returned[0]) if isinstance(returned[0], CallExpr) else None
        return [shown] if shown is not None and [k for k, _ in shown[0]] == [calls.FILLED_KEY] else None

    def returned_registry(self, helper: FuncItem) -> ReturnedEntries | None:
        """The items of the dict a helper returns when its one `return` is a dict comprehension over a registry
        bound once in the helper or at the module's top level (the CLI's `returned_registry`)."""
        returned = [r.expr for r in tree.walk(helper.body) if isinstance(r, ReturnStmt)]
        if len(returned) != 1 or helper.is_coroutine:
            return None
        shape = _registry_form(returned[0])
        if shape is None:
            return None
        registry = shape[1]
        params = {arg.variable.name for arg in helper.arguments}
        if registry in _rebound_names(helper) | params:
            entries = _registry_binding(helper.body.body, registry)
        else:
            entries = _registry_binding(self.ctx.module.defs, registry)
        if not entries or len(entries) > calls.MAX_CONTAINER_ITEMS:
            return None
        target = shape[0].indices[0]
        assert isinstance(target, TupleExpr) and isinstance(target.items[1], NameExpr)
        value = shape[0].value
        prepares = (
            isinstance(value, CallExpr) and isinstance(value.callee, MemberExpr) and value.callee.name == PREPARE_METHOD
            and isinstance(value.callee.expr, NameExpr) and value.callee.expr.name == target.items[1].name
        )

        def item(entry: Expression) -> calls.ReturnedItem:
            found = self.ctx.kernel(entry) if prepares else None
            return ir.Fresh("prepared", brand=found.name) if found is not None else None

        return [(key, functools.partial(item, entry)) for key, entry in entries]

    def returned_entry(
        self,
        element: Expression,
        helper: FuncItem,
        call: CallExpr,
        receiver: tuple[str, str] | None = None,
        owner: ClassDef | None = None,
    ) -> calls.ReturnedItem:
        """An item of a display or an argument of a constructor call a helper returns (the CLI's
        `returned_entry`): a local bound once is what that binding may give (`calls.ReturnedLocal`); with
        `receiver` and `owner` the helper is a method called on the caller's object."""
        passed = _bind_call(helper, call, receiver is not None)
        params = {arg.variable.name for arg in helper.arguments}
        name = _returned_name(helper, element)

        def item_of(node: Expression, named: str | None) -> calls.ReturnedItem:
            return self.returned_item(named, node, params, passed, helper, call, receiver, owner)

        item = item_of(element, name)
        skipped = receiver[0] if receiver is not None else None
        bound = _bound_once(helper, name) if name is not None and name not in params and name != skipped else None
        if name is None or bound is None:
            return item
        options = tuple(item_of(o, _returned_name(helper, o)) for o in _options(bound))
        return calls.ReturnedLocal(name, options) if any(o is not None for o in options) else item

    def class_factory(self, call: Expression) -> tuple[FuncItem, NameExpr] | None:
        """`Cls.name(...)` of a `@classmethod` or `@staticmethod` of a top-level class of this module: the method
        and the name of the class the call names (the CLI's `class_factory`)."""
        if not (isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr)):
            return None
        owner = call.callee.expr
        if not isinstance(owner, NameExpr) or owner.name not in self.ctx.classes.classes:
            return None
        for kind in ("classmethod", "staticmethod"):
            found = static_method(self, owner, call.callee.name, self.ctx.classes, kind)
            if found is not None:
                return found, owner
        return None

    def returned_objects(
        self, helper: FuncItem, call: CallExpr, made_by: NameExpr | None = None
    ) -> list[tuple[list[calls.ReturnedItem], list[ir.Place], Callable[[], calls.FieldParts]]] | None:
        """Each `return` of `helper` when every one is a constructor call of a class of this module whose
        initializer the checker follows, or of a `namespace` entry; `made_by`: the class a `@classmethod` is called
        on, which `cls(...)` of its first parameter builds (the CLI's `returned_objects`)."""
        returned = _returned_values(helper)
        if not returned or helper.is_coroutine:
            return None
        classmethod = made_by is not None and helper.is_class and bool(helper.arguments)
        own = helper.arguments[0].variable.name if classmethod else None
        arms: list[tuple[list[calls.ReturnedItem], list[ir.Place], Callable[[], calls.FieldParts]]] = []
        for value in returned:
            copied = self.returned_copy(value, helper, call)
            if copied is not None:  # `return plan._replace(dst=plan.src)` of a parameter
                arms.append(copied)
                continue
            if not isinstance(value, CallExpr):
                return None
            callee = value.callee
            made: NameExpr | None = None
            namespace = None
            if isinstance(callee, NameExpr) and own is not None and made_by is not None and callee.name == own:
                if own in _binding_names(helper):
                    return None  # `cls = ...` in the body: not the class any more
                made = made_by
            else:
                # `return SimpleNamespace(src=frame, dst=dst)`: its keywords are its fields (`namespace_init`)
                namespace = self.namespace(value)
                if namespace is None and isinstance(callee, NameExpr) and callee.name in self.ctx.classes.classes:
                    made = callee
            if namespace is None and made is None:
                return None
            if any(kind in (ARG_STAR, ARG_STAR2) for kind in value.arg_kinds):
                return None
            items = [self.returned_entry(a, helper, call) for a in value.args]
            stages = [self.temp(a.name if isinstance(a, NameExpr) else "value") for a in value.args]
            operands = tuple(
                calls.Operand(a, span_of(a), stage, keyword=keyword)
                for a, stage, keyword in zip(value.args, stages, value.arg_names, strict=True)
            )
            if namespace is not None:
                applied = stdlib_flow.namespace_summary(namespace[0], operands)
            else:
                assert made is not None
                applied = constructor_summary(self, made, operands)
            if applied is None:
                return None
            fields = functools.partial(calls.object_fields, applied, call, span_of(call), self)
            arms.append((items, stages, fields))
        return arms

    def unpacked_attribute(self, method: FuncItem, name: str, receiver: str) -> tuple[str, ...] | None:
        """The receiver's attribute path a method's local `name` is, when the body binds it once by unpacking
        `super().m()` of a method returning that attribute of its own receiver there on every `return` (the CLI's
        `unpacked_attribute`)."""
        bound = _binding_names(method)
        if bound.count(name) != 1 or receiver in bound:
            return None
        for stmt in tree.walk(method.body):
            if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1
                    and isinstance(stmt.lvalues[0], TupleExpr)):
                continue
            names = [el.name if isinstance(el, NameExpr) else None for el in stmt.lvalues[0].items]
            value = stmt.rvalue
            if name not in names:
                continue
            if not (
                isinstance(value, CallExpr) and not value.args and isinstance(value.callee, SuperExpr)
                and not value.callee.call.args
            ):
                return None
            inner = self.ctx.classes.super_method(method, value.callee.name)
            if inner is None or not inner.arguments or _returned_tuples(inner) is None:
                return None
            own = inner.arguments[0].variable.name
            index = names.index(name)
            found: set[tuple[str, ...] | None] = set()
            for ret in tree.walk(inner.body):
                if isinstance(ret, ReturnStmt) and isinstance(ret.expr, TupleExpr):
                    if len(ret.expr.items) != len(names):
                        return None
                    parts: list[str] = []
                    cur: Expression = ret.expr.items[index]
                    while isinstance(cur, MemberExpr):
                        parts.append(cur.name)
                        cur = cur.expr
                    mine = isinstance(cur, NameExpr) and cur.name == own and parts
                    found.add(tuple(reversed(parts)) if mine else None)
            one = next(iter(found)) if len(found) == 1 else None
            return one if own not in _rebound_names(inner) else None
        return None

    def kernel_choices(self, node: Expression) -> tuple[resolve.KernelInfo, ...]:
        """The kernels a launch's receiver may be when it is chosen from a collection (the CLI's)."""
        tables = self.ctx.kernel_tables()
        if not tables and not isinstance(node, NameExpr | MemberExpr):
            return ()
        local = set(self.local_names) if not isinstance(self.unit.node, MypyFile) else set()
        if isinstance(node, IndexExpr):
            return subscript_choices(node, tables, local)
        if isinstance(node, MemberExpr):
            return subclass_kernels(self, node)
        if not isinstance(node, NameExpr):
            return ()
        if self._kernel_names is None:
            unit = self.unit.node
            body = list(unit.defs) if isinstance(unit, MypyFile) else list(unit.body.body)
            scope = static_iterables.scope_of(self)
            self._kernel_names = name_choices(
                body, tables, local, self.ctx.kernel, functools.partial(static_iterables.iteration, scope)
            )
        return self._kernel_names.get(node.name, ())

    def keyed_kernel_rows(
        self, node: Expression
    ) -> tuple[str, tuple[tuple[calls.ContainerKey, resolve.KernelInfo], ...]] | None:
        """`kernel_choices.keyed_rows` of a launch's receiver `TABLE[name]` (the CLI's `keyed_kernel_rows`)."""
        local = set(self.local_names) if not isinstance(self.unit.node, MypyFile) else set()
        found = keyed_rows(self.table_lookup(node), self.ctx.kernel_tables(), local)
        if found is None:
            return None
        name, rows = found
        arms = calls.keyed_arms(rows, self.literal_keys.get(name))
        return (name, arms) if arms is not None else None

    def table_lookup(self, node: Expression) -> Expression:
        """`kernel` of `kernel = KERNELS[mode]` bound once here under a key that stays one key in this body: that
        lookup (the CLI's `table_lookup`)."""
        func = self.unit.node
        if not isinstance(node, NameExpr) or isinstance(func, MypyFile) or self.kernel_body:
            return node
        value = _bound_once(func, node.name)
        if isinstance(value, IndexExpr) and isinstance(value.index, NameExpr) and (
            value.index.name in self.key_names
        ):
            return value
        return node

    def bump_calls(self) -> dict[int, tuple[ir.Place, int, int]]:
        """The calls of bump-allocator methods in this unit, by id (the CLI's `bump_calls`)."""
        if self._bump_calls is not None:
            return self._bump_calls
        buffers: dict[int, tuple[str, tuple[str, ...]]] = {}

        def receiver(call: CallExpr) -> str | None:
            func = call.callee
            if not (isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr)):
                return None
            name = func.expr.name
            candidates = receiver_classes(self, name) if name not in self.ctx.declared() else None
            methods = [self.ctx.classes.method(cls, func.name) for cls in candidates or ()]
            found = {bump_buffer(m) for m in methods}
            if len(found) != 1 or (buffer := found.pop()) is None:
                return None
            buffers[id(call)] = (name, buffer)
            return name

        node = self.unit.node
        body = list(node.defs) if isinstance(node, MypyFile) else list(node.body.body)
        runs = bump_sequences(bump_events(body, receiver)) if self.ctx.classes.classes and body else {}
        self._bump_calls = {
            call: (self.dotted_place(*buffers[call]), run, index) for call, (run, index) in runs.items()
        }
        return self._bump_calls

    def method_returned_views(self, expr: CallExpr | MemberExpr) -> Sequence[calls.ReturnedItem] | None:
        """`obj.method(...)` of a method of the module's classes (`view_receiver_classes`: `obj` a name or an
        attribute path of one) whose every `return` gives a view of an attribute path of its receiver or of a
        parameter: each of those views at the caller; the read `obj.name` of a `@property` getter doing the same is
        a call of it with no arguments (the CLI's `method_returned_views`)."""
        getter = isinstance(expr, MemberExpr)
        func = expr if isinstance(expr, MemberExpr) else expr.callee
        found_receiver = view_receiver_classes(self, func, getter) if isinstance(func, MemberExpr) else None
        if found_receiver is None or not isinstance(func, MemberExpr):
            return None
        text, candidates = found_receiver
        call = self.getter_call_node(expr) if isinstance(expr, MemberExpr) else expr
        views: list[calls.ReturnedItem] = []
        for cls in candidates:
            classes = self.ctx.classes
            found = classes.plain_getter(cls, func.name) if getter else classes.method(cls, func.name)
            returned = _returned_values(found) if found else []
            if found is None or not found.arguments or not returned or found.is_generator or found.is_coroutine:
                return None
            if _stores_on(found, found.arguments[0].variable.name) and (
                getter or ("." in text and bump_buffer(found))
            ):
                return None  # a bump allocator an attribute holds: disjoint views (the CLI's rule)
            receiver = (found.arguments[0].variable.name, text)
            passed = _bind_call(found, call, True)
            params = {arg.variable.name for arg in found.arguments}
            for value in returned:
                if value is None:
                    return None
                views.append(self.returned_item(None, value, params, passed, found, call, receiver, cls))
        return views if calls.all_views(views) else None

    def getter_views(self, expr: MemberExpr) -> Sequence[calls.ViewCall[Any] | calls.SliceView[Any]] | None:
        """`method_returned_views` of a property read (`arena.tension`), when every view is known (the CLI's)."""
        if expr.name not in self.ctx.classes.view_getter_names:
            return None
        views = self.method_returned_views(expr)
        if views is None or not calls.all_views(views):
            return None
        return views

    def getter_call_node(self, expr: MemberExpr) -> CallExpr:
        """The call `expr()` with no arguments standing for a property read (the CLI's `getter_call_node`)."""
        made = self.getter_calls.get(id(expr))
        if made is None:
            made = CallExpr(expr, [], [], [])
            made.set_line(expr)
            self.getter_calls[id(expr)] = made
        return made

    def method_returned_tuples(self, expr: CallExpr) -> list[tuple[calls.ReturnedItem, ...]] | None:
        """`obj.method(...)` of a method of the module's classes whose every `return` is a tuple display of one
        length: each `return`'s items, for each class `receiver_classes` gives (the CLI's
        `method_returned_tuples`)."""
        func = expr.callee
        if not (isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr)):
            return None
        candidates = receiver_classes(self, func.expr.name) if self.ctx.classes.classes else None
        if not candidates:
            return None
        arms: list[tuple[calls.ReturnedItem, ...]] = []
        for cls in candidates:
            found = self.ctx.classes.method(cls, func.name)
            returns = _returned_tuples(found) if found is not None else None
            if found is None or returns is None or not found.arguments:
                return None
            receiver = found.arguments[0].variable.name
            displays = [r.items for r in _returned_values(found) if isinstance(r, TupleExpr)]
            for elements in displays:
                arms.append(tuple(
                    self.returned_entry(element, found, expr, (receiver, func.expr.name), cls) for element in elements
                ))
        return arms if len({len(a) for a in arms}) == 1 else None

    def returned_item(
        self,
        name: str | None,
        element: Expression,
        params: set[str],
        passed: dict[str, Expression],
        helper: FuncItem,
        call: CallExpr,
        receiver: tuple[str, str] | None = None,
        owner: ClassDef | None = None,
    ) -> calls.ReturnedItem:
        """One item of a tuple a helper returns, for `calls.returned_tuple`: the caller's place a parameter was bound
        to, a local's name, a prepared launch with its brand, or None (the CLI's `returned_item`, also with a
        method's `receiver`: `self.src` is `stage.src`, and `self.packed[a:b]` a view of `cache.packed`)."""
        if receiver is not None and (name is None or name == receiver[0]):
            parts: list[str] = []
            cur: Expression = element
            while isinstance(cur, MemberExpr):
                parts.append(cur.name)
                cur = cur.expr
            if isinstance(cur, NameExpr) and cur.name == receiver[0] and cur.name not in _rebound_names(helper):
                return self.dotted_place(receiver[1], tuple(reversed(parts)))
            if name is None and owner is not None and receiver[0] not in _rebound_names(helper):
                bounds = self.callee_bounds(element, helper, passed, receiver)
                view = self.receiver_view(element, receiver, owner, bounds)
                if view is not None:  # `return self.packed[b : b + d], self.packed[...]` views `cache.packed`
                    return view
        if receiver is not None and name is not None and name not in params:
            path = self.unpacked_attribute(helper, name, receiver[0])
            if path is not None:  # `src, _ = super().buffers()` of `return self.src, self.dst`
                return self.dotted_place(receiver[1], path)
        if name is None:
            view = self.view_shape(element)
            base = view.base.root if view is not None and not view.base.attrs else None
            if view is not None and base in passed and base in params:
                place = self.place(passed[base])
                if place is not None and base not in _rebound_names(helper):  # `return buf[: mid + 1], buf[mid:]`
                    bounds = self.callee_bounds(element, helper, passed, receiver)
                    index = _params(helper).index(base)
                    device = _annotated_device(helper, index, self.ctx.module.fullname)
                    return calls.returned_view(view, place, device or self.is_device_place(passed[base]), bounds)
            if isinstance(element, CallExpr) and isinstance(element.callee, MemberExpr) and returns_shared(
                [element.callee.name]
            ):
                return ir.Fresh(calls.SHARED_OP)  # a `.shared()` op the caller's launches read (the CLI's)
            brand = self.prepared_brand(element, helper, call)
            return ir.Fresh("prepared", brand=brand) if brand is not None else None
        if name in params:
            if name not in passed:
                return None
            # an argument the caller cannot name (`shared(sk.zeros(n))`): one new object for every item naming it;
            # `(w := c)` is `w` once the call evaluated it
            argument = passed[name]
            place = self.place(argument.target if isinstance(argument, AssignmentExpr) else argument)
            found = self.choices(argument, span_of(argument), 0) if place is None else None
            return calls.returned_argument(name, place, [o.place for o in found[1]] if found is not None else [])
        return name

    def receiver_view(
        self,
        element: Expression,
        receiver: tuple[str, str],
        owner: ClassDef,
        bounds: tuple[int | str | None, int | str | None] | None = None,
    ) -> calls.ViewCall[Expression] | calls.SliceView[Expression] | None:
        """An item a method returns that views an attribute path of its receiver, as the same view of the caller's
        place below its object, with `bounds` (`callee_bounds`) where known (the CLI's `receiver_view`)."""
        if isinstance(element, IndexExpr) and isinstance(element.index, SliceExpr):
            base = element.base
        elif isinstance(element, CallExpr) and isinstance(element.callee, MemberExpr) and (
            element.callee.name == calls.VIEW_METHOD
        ):
            base = element.callee.expr
        else:
            return None
        parts: list[str] = []
        while isinstance(base, MemberExpr):
            parts.append(base.name)
            base = base.expr
        shape = (
            self.view_shape(element) if isinstance(base, NameExpr) and base.name == receiver[0] and parts else None
        )
        if shape is None:
            return None
        attrs = tuple(reversed(parts))
        text = ".".join((receiver[1], *attrs))
        device = text in self.device or receiver[1] in self.device or self.binds_device(owner, attrs[0])
        return calls.returned_view(shape, self.dotted_place(receiver[1], attrs), device, bounds)

    def type_class(self, typ: Type | None) -> ClassDef | None:
        """The class of the module a type is an instance of (`Grad`), else None (the CLI's `annotation_class`)."""
        proper = get_proper_type(typ) if typ is not None else None
        if isinstance(proper, TupleType):
            proper = proper.partial_fallback  # a `NamedTuple` class: its instances are typed as tuples
        if not isinstance(proper, Instance):
            return None
        cls = self.ctx.classes.classes.get(proper.type.name)
        return cls if cls is not None and cls.info is proper.type else None

    def field_devices(self, owner: ClassDef, prefix: str, depth: int = 0) -> Iterator[str]:
        """The attribute paths below `prefix`, an object of `owner`, that its class body (or its chain of single
        bases in the module) declares with a device type, also through fields of another class of the module,
        three levels deep at most (the CLI's `field_devices`)."""
        seen: set[str] = set()
        cls: ClassDef | None = owner
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            for stmt in cls.defs.body:
                if not (
                    isinstance(stmt, AssignmentStmt) and stmt.unanalyzed_type is not None and len(stmt.lvalues) == 1
                    and isinstance(stmt.lvalues[0], NameExpr)
                ):
                    continue
                path = f"{prefix}.{stmt.lvalues[0].name}"
                if _type_is_device(stmt.type, self.ctx.module.fullname):
                    yield path
                elif depth < 2 and (inner := self.type_class(stmt.type)) is not None:
                    yield from self.field_devices(inner, path, depth + 1)
            bases = cls.base_type_exprs + cls.removed_base_type_exprs
            one = len(bases) == 1 and not cls.keywords and isinstance(bases[0], NameExpr)
            cls = self.ctx.classes.classes.get(bases[0].name) if one and isinstance(bases[0], NameExpr) else None

    def method_devices(self, owner: ClassDef, prefix: str) -> Iterator[str]:
        """The attribute paths below `prefix` that a method of `owner` binds to a device value (the CLI's)."""
        names: set[str] = set()
        for stmt in owner.defs.body:
            method = stmt.func if isinstance(stmt, Decorator) else stmt
            if isinstance(method, FuncDef) and method.arguments:
                me = method.arguments[0].variable.name
                names.update(
                    t.name for node in tree.walk(method.body) if isinstance(node, AssignmentStmt)
                    for t in node.lvalues
                    if isinstance(t, MemberExpr) and isinstance(t.expr, NameExpr) and t.expr.name == me
                )
        for name in sorted(names):
            if self.binds_device(owner, name):
                yield f"{prefix}.{name}"

    def binds_device(self, owner: ClassDef, attr: str) -> bool:
        """Whether a method of `owner` (or of its chain of single bases in the module) binds `self.<attr>` to a call
        giving a device value, or its body declares the attribute with a device type (the CLI's `binds_device`)."""
        seen: set[str] = set()
        cls: ClassDef | None = owner
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            for stmt in cls.defs.body:
                if (
                    isinstance(stmt, AssignmentStmt) and stmt.unanalyzed_type is not None and len(stmt.lvalues) == 1
                    and isinstance(stmt.lvalues[0], NameExpr) and stmt.lvalues[0].name == attr
                    and _type_is_device(stmt.type, self.ctx.module.fullname)
                ):
                    return True  # a field declared with a device type (`buf: sk.DeviceBuffer` of a dataclass)
                method = stmt.func if isinstance(stmt, Decorator) else stmt
                if not isinstance(method, FuncDef) or not method.arguments:
                    continue
                me = method.arguments[0].variable.name
                for node in tree.walk(method.body):
                    if isinstance(node, AssignmentStmt) and isinstance(node.rvalue, CallExpr) and any(
                        isinstance(t, MemberExpr) and t.name == attr and isinstance(t.expr, NameExpr)
                        and t.expr.name == me for t in node.lvalues
                    ) and self.expr_is_device(node.rvalue):
                        return True
            bases = cls.base_type_exprs + cls.removed_base_type_exprs
            one = len(bases) == 1 and not cls.keywords and isinstance(bases[0], NameExpr)
            cls = self.ctx.classes.classes.get(bases[0].name) if one and isinstance(bases[0], NameExpr) else None
        return False

    def view_shape(self, expr: Expression) -> calls.ViewCall[Expression] | calls.SliceView[Expression] | None:
        """`c.view(a, b)` or `c[a:b]` of a place, described for the core (which decides whether it counts)."""
        if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name == calls.VIEW_METHOD:
            base = self.place(expr.callee.expr)
            if base is None:
                return None
            bounds = tuple(self.view_bound(a) for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS)
            return calls.ViewCall(base, self.is_device_place(expr.callee.expr), tuple(expr.args), bounds)
        if isinstance(expr, IndexExpr) and isinstance(expr.index, SliceExpr):
            sl = expr.index
            base = self.place(expr.base)
            if base is None:
                return None
            parts = tuple(part for part in (sl.begin_index, sl.end_index, sl.stride) if part is not None)
            return calls.SliceView(
                base,
                self.is_device_place(expr.base),
                parts,
                sl.begin_index is not None,
                self.view_bound(sl.begin_index) if sl.begin_index is not None else None,
                sl.end_index is not None,
                self.view_bound(sl.end_index) if sl.end_index is not None else None,
                sl.stride is not None,
            )
        return None

    def view_bound(self, expr: Expression) -> int | str | None:
        """A bound of `c.view(a, b)` or `c[a:b]`: an integer literal, or an affine expression over symbols (the
        CLI's `view_bound`)."""
        return view_bounds.bound_of(_bound_form(expr), self.known_bound)

    def known_bound(self, name: str) -> int | str | None:
        """What a name of a view bound is here (the CLI's `known_bound`)."""
        if name in self.constants:
            return self.constants[name]
        if self.loop_counter is not None:
            if name == self.loop_counter[0]:
                return name  # this iteration's value of the counting loop's counter (the CLI's)
            derived = self.counter_locals.get(name)
            statement = self.current_statement
            if derived is not None and statement is not None and statement.line > derived[1]:
                return view_bounds.bound_of(_bound_form(derived[0]), self.known_bound)
        if name not in self.local_names and name in self.ctx.module_numbers():
            return self.ctx.module_numbers()[name]  # the CLI's module integer constant
        return name if self.symbol(name) else None

    def symbol(self, name: str) -> bool:
        """Whether a name or attribute path has one value wherever this function reads it (the CLI's `symbol`)."""
        unit = self.unit.node
        if self.stable is None:
            self.stable = (
                frozenset() if isinstance(unit, MypyFile) else _stable_names(unit.body.body, _params(unit))
            )
        root, _, path = name.partition(".")
        if root not in self.stable:
            return False
        if not path:
            return True
        if isinstance(unit, MypyFile) or (isinstance(unit, FuncDef) and unit.name in ("__init__", "__post_init__")):
            return False
        if self.ctx.unfixed is None:
            self.ctx.unfixed = _unfixed_attributes(self.ctx.module)
        unfixed = self.ctx.unfixed
        return "*" not in unfixed and unfixed.isdisjoint(path.split("."))

    def callee_bounds(
        self,
        element: Expression,
        helper: FuncItem,
        passed: dict[str, Expression],
        receiver: tuple[str, str] | None,
    ) -> tuple[int | str | None, int | str | None] | None:
        """The start and stop of a view a helper returns in this caller's terms (the CLI's `callee_bounds`)."""
        if isinstance(element, CallExpr) and len(element.args) == 2 and element.arg_kinds == [ARG_POS, ARG_POS]:
            nodes: tuple[Expression | None, Expression | None] = (element.args[0], element.args[1])
        elif isinstance(element, IndexExpr) and isinstance(element.index, SliceExpr):
            nodes = (element.index.begin_index, element.index.end_index)
        else:
            return None
        params = _params(helper)
        bound = _rebound_names(helper)

        def local_form(name: str) -> view_bounds.BoundForm | None:
            value = _bound_once(helper, name)
            return None if value is None else _bound_form(value)

        names = view_bounds.HelperNames(
            stable=_stable_names(helper.body.body, params),
            params=frozenset(params),
            receiver=receiver,
            symbol=self.symbol,
            argument_bound=lambda name: self.view_bound(passed[name]) if name in passed else None,
            local_form=local_form,
            module_number=lambda name: None if name in bound else self.ctx.module_numbers().get(name),
        )
        start, stop = (None if n is None else _bound_form(n) for n in nodes)
        return view_bounds.in_caller((start, stop), names)

    def delete(self, target: Expression) -> None:
        if isinstance(target, TupleExpr | ListExpr):
            for item in target.items:
                self.delete(item)
            return
        place = self.place(target)
        if place is not None:
            self.emit(ir.Del(place, span_of(target)))
        else:
            self.expr(target)

    # --- expressions -----------------------------------------------------------------------------------------

    def use(self, expr: Expression, element: bool = False, origin: Node | None = None) -> bool:
        place = self.place(expr)
        if place is None:
            return False
        self.emit(ir.Use(place, span_of(expr), element=element), origin)
        return True

    def property_read(self, expr: MemberExpr) -> None:
        """A read of a `@property` whose getter does something the checker follows runs the getter there (the
        CLI's `property_read`); a store target is no read."""
        if self.stored_target(expr) or id(expr) in self.read_properties:
            return
        applied = property_summary(self, expr)
        if applied is not None and not applied.summary.empty:
            apply_summary(applied, expr, span_of(expr), self)
        if expr.name in self.ctx.classes.computed_attribute_names:
            self.computed_prepared(expr)

    def computed_prepared(self, expr: MemberExpr) -> None:
        """A read of a `@property` or `@functools.cached_property` returning `jacobi.prepare(...)` holds a
        prepared launch branded for that kernel (the CLI's `computed_prepared`)."""
        if self.kernel_body or not isinstance(expr.expr, NameExpr):
            return
        cls = receiver_class(self, expr.expr.name)
        getter = self.ctx.classes.computed_attribute(cls, expr.name) if cls is not None else None
        place = self.place(expr) if getter is not None else None
        if getter is None or place is None:
            return
        brands = [self.prepared_brand(c, getter, None, True) for c in self.ctx.returned_calls(getter, True)]
        prepared = calls.returned_prepared(brands, span_of(expr), self)
        if prepared is not None:
            self.emit(ir.Bind((place,), (prepared,), span_of(expr)), expr)

    @functools.cached_property
    def stable_params(self) -> frozenset[str]:
        """The parameters this function never rebinds or deletes (the CLI's `stable_params`)."""
        node = self.unit.node
        if isinstance(node, MypyFile) or self.kernel_body:
            return frozenset()
        rebound = _rebound_names(node)
        return frozenset(p for p in _params(node) if p not in rebound)

    @functools.cached_property
    def loop_keys(self) -> frozenset[str]:
        """The names this function binds only as the target of one `for` statement (the CLI's `loop_keys`)."""
        node = self.unit.node
        if isinstance(node, MypyFile) or self.kernel_body:
            return frozenset()
        return _loop_keys(node)

    @functools.cached_property
    def key_names(self) -> frozenset[str]:
        """The names a subscript's key may be that name one item (the CLI's `key_names`)."""
        return self.stable_params | self.loop_keys

    def param_item_key(self, index: Expression) -> str | None:
        """`keyed_items.param_key` of a subscript's key that is a parameter never rebound or a loop's target (the
        CLI's)."""
        if isinstance(index, NameExpr) and index.name in self.key_names and self.name(index.name) == index.name:
            return keyed_items.param_key(index.name)
        return None

    def operand_key(self, node: Expression) -> calls.ContainerKey | None:
        key = self.index_key(node)
        return key if key is not None else self.param_item_key(node)

    def index_key(self, index: Expression) -> calls.ContainerKey | None:
        """A subscript's key when it is known here (the CLI's `index_key`)."""
        if isinstance(index, NameExpr):
            return self.literal_keys.get(index.name)
        return _key_literal(index)

    def read_operand_properties(self, operands: list[calls.Operand[Expression]]) -> list[int]:
        """Run the getters of the call's operands read through a `@property`, before the call (the CLI's
        `read_operand_properties`)."""
        read: list[int] = []
        for operand in operands:
            node = operand.node
            if operand.place is not None and isinstance(node, MemberExpr) and id(node) not in self.read_properties:
                self.property_read(node)
                self.read_properties.add(id(node))
                read.append(id(node))
        return read

    def expr(self, expr: Expression) -> None:
        if isinstance(expr, NameExpr | MemberExpr):
            if isinstance(expr, MemberExpr):
                self.property_read(expr)
            if not self.use(expr) and isinstance(expr, MemberExpr):
                self.expr(expr.expr)
        elif isinstance(expr, CallExpr):
            self.call(expr, None)
        elif isinstance(expr, AwaitExpr):
            self.awaited_value(expr, None)
        elif isinstance(expr, IndexExpr):
            self.subscript(expr)
        elif isinstance(expr, AssignmentExpr):
            self.value(expr)
        elif isinstance(expr, OpExpr) and expr.op in ("and", "or"):
            self.expr(expr.left)
            right = expr.right
            self.emit(ir.Branch((self.block(lambda: self.expr(right)), ()), span_of(expr)))
        elif isinstance(expr, ConditionalExpr):
            self.expr(expr.cond)
            body = self.block(lambda: self.expr(expr.if_expr))
            orelse = self.block(lambda: self.expr(expr.else_expr))
            self.emit(ir.Branch((body, orelse), span_of(expr.cond)))
        elif isinstance(expr, LambdaExpr):
            for arg in expr.arguments:
                if arg.initializer is not None:
                    self.expr(arg.initializer)
            self.def_device[id(expr)] = frozenset(self.device)
            captured = self.captures(expr, set(_params(expr)))
            name = self.lambdas.get(id(expr))
            if name is not None and not isinstance(self.unit.node, MypyFile) and not self.kernel_body:
                self.defaults.pop(name, None)
                self.bind_defaults(name, expr, "function", span_of(expr))  # `lambda field=density: ...`
            if name is not None and captured and not isinstance(self.unit.node, MypyFile) and not self.kernel_body:
                # bound once to `name` and called by it: a call moves what it captures, as a nested def's does
                device = frozenset(self.device)
                unit = Unit(
                    expr,
                    "function",
                    lambda: device,
                    None,
                    outer_containers=self.containers,
                    outer_names=self.enclosing_names(),
                )
                effects = nonlocal_effects(FunctionLowerer(self.ctx, unit).lower(), captured, list(_params(expr)))
                if not effects.empty:
                    self.closures[name] = effects
        elif isinstance(expr, GeneratorExpr | ListComprehension | SetComprehension | DictionaryComprehension):
            self.comprehension(expr)
        elif isinstance(expr, _LITERALS):
            return
        else:
            for child in tree.children(expr):
                if isinstance(child, Expression):
                    self.expr(child)

    def subscript(self, expr: IndexExpr) -> None:
        if not self.use(expr.base, element=True, origin=expr):
            self.expr(expr.base)
        index = expr.index
        if isinstance(index, TupleExpr):
            for item in index.items:
                self.expr(item)
        else:
            self.expr(index)
        key = _key_literal(index)
        if key is None:
            key = self.param_item_key(index)
        if self.kernel_body or self.stored_target(expr):
            return
        if not self.use(expr, origin=expr) and key is not None:
            kept = self.keyed_item(expr.base, key)
            if kept is not None:  # the item kept under a literal key is read (the CLI's)
                self.emit(ir.Use(kept, span_of(expr)), expr)

    def comprehension(
        self,
        expr: GeneratorExpr | ListComprehension | SetComprehension | DictionaryComprehension,
        stage: ir.Place | None = None,
    ) -> None:
        """`stage`: where the container the comprehension builds keeps each iteration's value (the CLI's)."""
        gen: GeneratorExpr | DictionaryComprehension = (
            expr.generator if isinstance(expr, ListComprehension | SetComprehension) else expr
        )
        generator = self.generator_call(gen.sequences[0])
        if generator is not None and not isinstance(expr, GeneratorExpr):
            self.iterated.add(id(generator))  # `[f(x) for x in gen(...)]`: the body runs to its end (the CLI's)
        self.expr(gen.sequences[0])
        renames: dict[str, str] = {}
        self.renames.append(renames)
        try:
            self._comp_for(gen, 0, renames, stage)
        finally:
            self.renames.pop()

    def _comp_for(
        self,
        gen: GeneratorExpr | DictionaryComprehension,
        index: int,
        renames: dict[str, str],
        stage: ir.Place | None = None,
    ) -> None:
        if index > 0:
            self.expr(gen.sequences[index])
        # the items it takes, as a `for` statement does (`for t in (a, b)`, `for t in parts`, `zip(xs, ys)`); an
        # item spelled like the target would be read under its rename: a new value then
        target = gen.indices[index]
        sequence = gen.sequences[index]
        names = set(_target_names(target))
        items = self.literal_items(sequence)
        if items is not None and not names.isdisjoint(n for item in items for n in _item_roots(item)):
            items = None
        # a container list the comprehension's scope does not shadow (a later `for` may iterate an earlier target)
        iterated = sequence.args[0] if isinstance(sequence, CallExpr) and sequence.args else sequence
        viewed = _values_receiver(iterated) or _values_receiver(iterated, "items")  # `heads.items()`
        outer = (isinstance(iterated, NameExpr) and self.name(iterated.name) == iterated.name) or (
            viewed is not None and self.name(viewed) == viewed
        )
        elements = self.iterated_container(sequence) if items is None and outer else None
        shape, sources = self.iteration(sequence) if items is None and elements is None else ("", [])
        self.tmp += 1
        for raw in names:
            renames[raw] = f"{raw}$c{self.tmp}"
        if items is not None:
            arms = tuple(self.block(functools.partial(self.assign, [target], item)) for item in items)
            head = self.block(lambda: self.emit(ir.Branch(arms, span_of(target))))
        elif elements is not None:
            places, container, enumerated, paired = elements
            item_target = self.target(target)
            arms = calls.bind_elements(
                item_target, places, span_of(sequence), self, container, enumerated, paired
            )
            head = self.block(lambda: self.emit(ir.Branch(arms, span_of(target))))
        elif shape:
            head = self.block(lambda: calls.bind_iteration(self.target(target), shape, sources, self))
        else:
            head = self.block(lambda: self.bind(target, ir.Fresh()))

        def body() -> None:
            for cond in gen.condlists[index]:
                self.expr(cond)
            if index + 1 < len(gen.indices):
                self._comp_for(gen, index + 1, renames, stage)
            elif isinstance(gen, DictionaryComprehension):
                if gen.key is not None:
                    self.expr(gen.key)
                self.comprehension_item(gen.value, stage)
            else:
                self.comprehension_item(gen.left_expr, stage)

        unrolled = items is not None or elements is not None
        self.emit(ir.Loop(head, self.block(body), (), span_of(target), unrolled=unrolled))

    def comprehension_item(self, expr: Expression, stage: ir.Place | None) -> None:
        """A comprehension's value per iteration (the CLI's `comprehension_item`)."""
        if stage is not None:
            calls.store_comprehension_item(stage, expr, span_of(expr), self)
        else:
            self.expr(expr)

    # --- calls: resolve, describe as a neutral shape, let the core decide (core/calls.py) ---------------------

    def operand(
        self, expr: Expression, keyword: str | None = None, star: bool = False, with_view: bool = True
    ) -> calls.Operand[Expression]:
        return calls.resolve_operand(self, expr, span_of, keyword, star, with_view)

    def receiver_elements(self, expr: Expression) -> tuple[ir.Place, ...] | None:
        """The element places of a name that is a sequence container bound here (the CLI's `receiver_elements`)."""
        if not isinstance(expr, NameExpr) or expr.name not in self.containers:
            return None
        return calls.sequence_elements(self.name(expr.name), expr.name, self.containers[expr.name])

    def item_container(self, expr: Expression) -> ir.Place | None:
        """The place `expr` is an item of (`d` of `d[k]`, `grid` of `grid[i][j]`), else None."""
        if not isinstance(expr, IndexExpr):
            return None
        while isinstance(expr, IndexExpr):
            expr = expr.base
        return self.place(expr)

    # --- operands that are expressions over places ----------------------------------------------------------

    def values_place(self, expr: Expression) -> ir.Place | None:
        """The container `ops.values()` (no arguments) reads, for a splat of it into a combinator (the CLI's
        `values_place`)."""
        if not (isinstance(expr, CallExpr) and not expr.args):
            return None
        callee = expr.callee
        if not (isinstance(callee, MemberExpr) and callee.name == "values"):
            return None
        return self.place(callee.expr) if isinstance(callee.expr, NameExpr | MemberExpr) else None

    def star_elements(self, expr: Expression) -> tuple[ir.Place, ...] | None:
        """The element places a `*name` splat of a container list spreads, in order, where its length is known
        here, or of a nested display item of a container bound here (the CLI front end's rule)."""
        if isinstance(expr, GeneratorExpr | ListComprehension):
            return self.comprehension_places(expr.generator if isinstance(expr, ListComprehension) else expr)
        inner = self.nested_container(expr)
        if inner is not None:
            return tuple(calls.container_element(inner.name, inner.display, inner.container, i)
                         for i in range(len(inner.container.keys)))
        got = self.getter_places(expr)
        if got is not None and got[1]:
            return got[0]  # `*attrgetter("raw", "out")(job)`: `job.raw`, `job.out`
        values = _values_receiver(expr)
        if values is not None:
            return self.mapping_items(values)
        if not isinstance(expr, NameExpr):
            return None
        raw = expr.name
        length = self.splat_lengths.get(raw)
        container = self.containers.get(raw)
        if container is None:
            return self.iterated_places(expr)  # `*args` of a `NamedTuple` instance: its fields, in order
        if length is None or self.lengths.get(raw) != length:
            return None
        return tuple(calls.container_element(self.name(raw), raw, container, i) for i in range(length))

    def comprehension_places(self, expr: GeneratorExpr) -> tuple[ir.Place, ...] | None:
        """The places a splat of a comprehension spreads (`*(outs[p] for p in PHASES)`), one per literal of the
        iterable the source lists (the CLI's `comprehension_places`); else None."""
        if len(expr.sequences) != 1 or any(expr.condlists) or any(expr.is_async):
            return None
        target = expr.indices[0]
        if not isinstance(target, NameExpr):
            return None
        items = static_iterables.sequence(static_iterables.scope_of(self), expr.sequences[0])
        keys = [_key_literal(item) for item in items] if items is not None else []
        if not keys or any(key is None for key in keys):
            return None
        places = []
        shadowed = self.literal_keys.get(target.name)
        try:
            for key in keys:
                assert key is not None
                self.literal_keys[target.name] = key
                element = self.operand(expr.left_expr)
                plain = all(_pure_argument(n) for n in element.prelude)  # `self.outs`, `p`
                if element.place is None and len(element.choices) == 1 and plain:
                    element = element.choices[0]
                if element.place is None or element.choices:
                    return None
                places.append(element.place)
        finally:
            if shadowed is None:
                self.literal_keys.pop(target.name, None)
            else:
                self.literal_keys[target.name] = shadowed
        return tuple(places)

    def mapping_items(self, raw: str) -> tuple[ir.Place, ...] | None:
        """The items of a dict display bound once to `raw` (`ordered`), lowering past it, in display order (the
        CLI's rule: what `*stages.values()` spreads and `stages.items()` pairs with keys); else None."""
        if raw not in self.ordered:
            return None
        container = self.containers.get(raw)
        if container is None or not container.mapping or self.lengths.get(raw) != len(container.keys):
            return None
        return tuple(calls.container_element(self.name(raw), raw, container, i) for i in range(len(container.keys)))

    def nested_container(self, expr: Expression) -> calls.NestedContainer | None:
        """`cfg["inputs"]` of a container bound here whose item under that literal key is a nested sequence display
        in every binding (the CLI front end's rule, `calls.nested`), else None."""
        if not isinstance(expr, IndexExpr) or not isinstance(expr.base, NameExpr):
            return None
        raw = expr.base.name
        container = self.containers.get(raw)
        if container is None or not container.inner or raw not in self.lengths:
            return None
        return calls.nested(self.name(raw), raw, container, _key_literal(expr.index))

    def literal_display(self, expr: Expression) -> tuple[Expression, ...] | None:
        """The items of a tuple/list display without starred items (`(a, b)`, `[a, b]`), else None."""
        if isinstance(expr, TupleExpr | ListExpr) and not any(isinstance(i, StarExpr) for i in expr.items):
            return tuple(expr.items)
        return None

    def keyed_blocked(self) -> frozenset[str]:
        """The names whose items are never kept by key (the CLI's `keyed_blocked`)."""
        if self._keyed_blocked is None:
            node = self.unit.node
            statements = node.defs if isinstance(node, MypyFile) else node.body.body
            self._keyed_blocked = keyed_mentions.captured_names(statements)
        return self._keyed_blocked

    def stored_target(self, expr: IndexExpr | MemberExpr) -> bool:
        """Whether `expr` is a store target of this body (an assignment's, `del`'s, `for`'s...): what the CLI
        reads off the node's `ctx`."""
        if self._stored_targets is None:
            node = self.unit.node
            statements = node.defs if isinstance(node, MypyFile) else node.body.body
            self._stored_targets = frozenset(
                id(t)
                for n in tree.walk_many(statements, skip_scopes=False)
                for target in tree.stored_targets(n)
                for t in _stored_exprs(target)
            )
        return id(expr) in self._stored_targets

    def keyed_item(self, container: Expression, key: calls.ContainerKey) -> ir.Place | None:
        """`keyed_items.keyed_item` of a container that is a name or an attribute path the checker knows no
        items of (the CLI's rule)."""
        if self.kernel_body or (isinstance(container, NameExpr) and container.name in self.containers):
            return None  # kernel code: `buf[0]` of a shared array is an element access, not a host item
        root = container
        while isinstance(root, MemberExpr):
            root = root.expr
        if not isinstance(root, NameExpr) or root.name not in self.local_names or root.name in self.keyed_blocked():
            return None  # a global, or a name a nested function may change later
        place = self.place(container)
        return keyed_items.keyed_item(place, key) if place is not None else None

    def choices(
        self, expr: Expression, span: Span, depth: int
    ) -> tuple[tuple[Expression, ...], tuple[calls.Operand[Expression], ...]] | None:
        """The places `expr` may evaluate to, and what is evaluated before its value is known (see
        `calls.Operand`); None when it is not an expression over places (as the libcst front end decides)."""
        if depth > _CHOICE_DEPTH:
            return None
        if (
            isinstance(expr, MemberExpr)
            and isinstance(expr.expr, NameExpr)
            and (receiver_place := self.place(expr.expr)) is not None
            and (property_places := receiver_property(self, expr.expr.name, expr.name)) is not None
        ):
            # `layer.output` of a property returning `self._scratch if ... else self.act`: either attribute
            return calls.accessor_choices(
                expr, expr.expr, receiver_place, property_places[0], span, fresh=property_places[1]
            )
        if isinstance(expr, ConditionalExpr):
            return self._alternatives((expr.cond,), (expr.if_expr, expr.else_expr), span, depth)
        if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
            return self._alternatives((expr.left,), (expr.left, expr.right), span, depth)
        if isinstance(expr, AssignmentExpr):
            target = self.place(expr.target)
            if target is None:
                return None
            # the value's own place when it is one (the CLI's rule: `(w := b), (w := a)` leaves this argument `b`)
            value = self.place(expr.value) if isinstance(expr.value, NameExpr | MemberExpr) else None
            return (expr,), (calls.Operand(expr.target, span, value or target, True),)
        if isinstance(expr, IndexExpr) and not isinstance(expr.index, SliceExpr | TupleExpr):
            index = expr.index
            key = _key_literal(index)
            if isinstance(index, ConditionalExpr):
                # `bufs["a" if flag else "b"]`: the item under either key (the CLI's rule)
                arms = (_arm_read(expr, index.if_expr), _arm_read(expr, index.else_expr))
                return self._alternatives((index.cond,), arms, span, depth)
            if isinstance(index, OpExpr) and index.op in ("and", "or"):
                # `bufs[into or "freqs"]`
                arms = (_arm_read(expr, index.left), _arm_read(expr, index.right))
                return self._alternatives((index.left,), arms, span, depth)
            if (
                isinstance(expr.base, NameExpr)
                and (body := self.factories.get(expr.base.name)) is not None
                and (made := self.place(body)) is not None
            ):
                # `channels["left"]` of `channels = defaultdict(lambda: buf)`: every item is `buf` (the CLI's rule)
                return (expr.base, index), (calls.Operand(expr, span, made, True),)
            if (
                isinstance(key, str)
                and isinstance(expr.base, NameExpr)
                and (receiver_place := self.place(expr.base)) is not None
                and (paths := receiver_items(self, expr.base.name))
            ):
                # `reg["y"]` of `def __getitem__(self, name): return self._bufs[name]`: the item of `reg._bufs`
                return calls.accessor_choices(expr, expr.base, receiver_place, paths, span, key)
            stored = self.stored_items(expr.base)
            if stored is None and (uniform := self.foreign_uniform(expr.base)) is not None:
                # `pp.fields[k]` of an object of a class whose `__init__` stores `self.fields = [buf] * 2`
                return init_state.item_choices(expr, expr.base, index, uniform, 1, span, 0, init_state.UNIFORM_KEYS)
            if stored is not None and isinstance(expr.base, MemberExpr):
                # `self.prepared[mode]` of a display of prepared launches `__init__` stored: any of its items
                # (`self.fields[0]`, `self.buffers["freqs"]`: the item the literal names; the CLI's rule)
                attr = expr.base.name
                keys = self.stored_keys.get(attr)
                followed, position = init_state.item_position(keys, attr in self.plain_stored, key, stored[1])
                if followed:
                    return init_state.item_choices(expr, expr.base, index, *stored, span, position, keys)
            literal = _int_literal(index)
            items = self.literal_display(expr.base)
            if items is not None:
                picked = (items[literal],) if literal is not None and -len(items) <= literal < len(items) else items
                return self._alternatives((expr.base, index), picked, span, depth)
            shown = self.display_items(expr.base) if isinstance(expr.base, CallExpr | DictExpr) else None
            if shown is not None and shown[1] and (entry := stdlib_flow.keyed_entry(shown[0], key)) is not None:
                # `dict(item=c, other=a)["item"]`, `{"item": c}["item"]`: the entry under the key
                return self._alternatives((*entry[0], index), entry[1], span, depth)
            if (
                isinstance(expr.base, NameExpr)
                and self.name(expr.base.name) == expr.base.name
                and (read := self.loop_item_reads.get(expr.base.name, {}).get(key)) is not None  # type: ignore[arg-type]
            ):
                # `cfg["bias"]` of `for cfg in layer_cfgs` whose every item reads `defaults["bias"]` (the CLI's rule)
                return self._alternatives((expr.base, index), (read,), span, depth)
            if isinstance(expr.base, NameExpr) and expr.base.name in self.containers:
                raw = expr.base.name
                name = self.name(raw)
                container = self.containers[raw]
                elements: tuple[calls.Operand[Expression], ...] = tuple(
                    calls.Operand(expr, span, calls.container_element(name, raw, container, i), True)
                    for i in container.indices(self.index_key(index))
                )
                return (expr.base, index), elements
            inner = self.nested_container(expr.base)
            if inner is not None:
                # `cfg["inputs"][1]` of a nested display item
                return (expr.base, index), tuple(
                    calls.Operand(expr, span, calls.container_element(inner.name, inner.display, inner.container, i),
                                  True)
                    for i in inner.container.indices(_key_literal(index))
                )
            tupled = self.tuple_component_choices(expr.base, literal, span, depth)
            if tupled is not None:
                return calls.merge_choices((index,), tupled)
            # `sorted(pool)[0]`, `list(pool)[i]`: any item of what the builtin keeps
            kept = calls.merge_choices((index,), (self.item_choices(expr.base, span, depth + 1),))
            if key is None:
                key = self.param_item_key(index)  # `layers[key]` of a parameter `key` (the CLI's)
            if kept is None and key is not None and (item := self.keyed_item(expr.base, key)) is not None:
                # `bufs["a"]` of a parameter, of `self.bufs` filled in a loop: the one object under that key
                return (expr.base, index), (calls.Operand(expr, span, item, True),)
            return kept
        if isinstance(expr, CallExpr) and (got_options := self.mapping_get(expr)) is not None:
            # `d.get(k, fallback)`: the item under `k` or the fallback (the CLI's rule)
            return self._alternatives((), got_options, span, depth)
        if isinstance(expr, CallExpr) and (picked_items := self.picked_items(expr, span, depth)) is not None:
            return picked_items
        if isinstance(expr, CallExpr) and (got := self.getter_places(expr)) is not None and not got[1]:
            # `attrgetter("out")(job)`, `get(bufs)` of `get = itemgetter(0)`: the attribute / item itself
            return (expr.args[0],), (calls.Operand(expr, span, got[0][0], True),)
        if isinstance(expr, MemberExpr) and isinstance(expr.expr, CallExpr):
            # `copy.copy(Bufs(c, c, c)).a`, `dataclasses.replace(h, a=c).a`: the field of the object built there
            return self.field_choices(expr.expr, expr.name, span, depth + 1)
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and expr.callee.name == calls.VIEW_METHOD
            and self.place(expr.callee.expr) is None
            and (base := self.choices(expr.callee.expr, span, depth + 1)) is not None
        ):
            bounds = tuple(self.view_bound(a) for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS)
            return calls.view_choices(expr, span, base, tuple(expr.args), bounds)
        if isinstance(expr, CallExpr) and (aliased := self.aliasing_index(expr.callee)) is not None:
            if aliased >= len(expr.args) or any(kind != ARG_POS for kind in expr.arg_kinds):
                return None
            found = self._alternatives((), (expr.args[aliased],), span, depth)
            return ((expr,), found[1]) if found is not None else None
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and expr.callee.name in ALIASING_METHODS
            and not expr.args
        ):
            # `t.as_buffer()`, the method form of `sk.as_buffer(t)`: the receiver's storage
            found = self._alternatives((), (expr.callee.expr,), span, depth)
            return ((expr,), found[1]) if found is not None else None
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and isinstance(expr.callee.expr, NameExpr)
            and not expr.args
            and (receiver_place := self.place(expr.callee.expr)) is not None
            and (
                accessors := receiver_accessors(self, expr.callee.expr.name, expr.callee.name)
                or held_accessors(self, expr.callee)
            )
        ):
            # `stage.target()` of `def target(self): return self.out` (each override the receiver may run; the
            # one class defining it where the receiver's class is not known)
            return calls.accessor_choices(
                expr, expr.callee.expr, receiver_place, accessors[0], span, fresh=accessors[1]
            )
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and isinstance(expr.callee.expr, MemberExpr)
            and not expr.args
            and (receiver_place := self.place(expr.callee.expr)) is not None
            and (accessors := held_accessors(self, expr.callee))
        ):
            # `self.pool.acquire()` of a peeking accessor on an object an attribute holds (the CLI's)
            return calls.accessor_choices(
                expr, expr.callee.expr, receiver_place, accessors[0], span, fresh=accessors[1]
            )
        if (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and isinstance(expr.callee.expr, NameExpr)
            and expr.arg_kinds == [ARG_POS]
            and isinstance(key := _key_literal(expr.args[0]), str)
            and (receiver_place := self.place(expr.callee.expr)) is not None
            and (paths := receiver_items(self, expr.callee.expr.name, expr.callee.name))
        ):
            # `cache.get("user")` of `def get(self, key): return self._entries[key]` (memoizing or not): the item
            return calls.accessor_choices(
                expr, expr.callee.expr, receiver_place, paths, span, key, method=expr.callee.name
            )
        if isinstance(expr, CallExpr) and (item := self.returned_receiver_item(expr)) is not None:
            # `self.staging()` of a method whose every `return` is `self.buffers["freqs"]` (the CLI's rule)
            return (expr,), (calls.Operand(expr, span, item, True),)
        if (
            isinstance(expr, CallExpr)
            and (memoized := self.memoized_call(expr)) is not None
            and not self.memoized_object(expr)
        ):
            # `k(out, ones(64))` of a memoised `ones`: the object its cache keeps for those arguments (the CLI's)
            return (expr,), (calls.Operand(expr, span, memo_place(*memoized, span_of(expr)), True),)
        if isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr):
            helper = self.helper(expr.callee)
            if helper is None:
                return None
            returned = _returned_params(helper, allocates=self.allocates)
            if returned is None:
                return self.inlined_choices(expr, span, depth)  # `return core.widths` or `return out`
            bound = _bind_call(helper, expr)
            picked = tuple(bound[name] for name in returned if name in bound)
            found = self._alternatives((), picked, span, depth) if picked else ((), ())
            if found is None:
                return None
            # `output_buffer(src, cfg)` returning `src` or `sk.zeros(...)` (the CLI's rule)
            call_node: Expression = expr
            new = (calls.Operand(call_node, span, None, True),) if calls.NEW_VALUE in returned else ()
            return (expr,), found[1] + new
        if isinstance(expr, CallExpr | MemberExpr):
            # `self._output_for(name)` of a method returning `self.raw[name]` or `self.clean[name]` (the CLI's)
            return self.inlined_choices(expr, span, depth)
        return None

    def allocates(self, expr: Expression) -> bool:
        """Whether `expr` is a call making a new buffer or tensor (the CLI's `allocates`)."""
        if not isinstance(expr, CallExpr) or not isinstance(expr.callee, RefExpr):
            return False
        return calls.allocating(expr.callee.fullname)

    def mapping_get(self, expr: CallExpr, local: bool = True) -> tuple[Expression, ...] | None:
        """What `d.get(k, fallback)` may give (the CLI's `mapping_get`)."""
        callee = expr.callee
        if not isinstance(callee, MemberExpr) or callee.name != calls.MAPPING_GET:
            return None
        if not 1 <= len(expr.args) <= 2 or any(kind != ARG_POS for kind in expr.arg_kinds):
            return None
        if self.kernel_body or calls.MAPPING_GET in self.ctx.classes.method_names:
            return None
        present = None
        key = _key_literal(expr.args[0])
        if local and isinstance(callee.expr, NameExpr) and key is not None:
            container = self.containers.get(callee.expr.name)
            if container is not None and container.mapping:
                present = key in container.keys
        fallback = expr.args[1] if len(expr.args) == 2 else None
        return calls.mapping_get_options(_get_read(expr, callee.expr, expr.args[0]), fallback, present)

    def returned_options(self, expr: Expression) -> list[Expression]:
        """The expressions a callee's returned `expr` may be (the CLI's `returned_options`)."""
        out: list[Expression] = []
        for arm in _options(expr):
            got = self.mapping_get(arm, local=False) if isinstance(arm, CallExpr) else None
            if got is None:
                out.append(arm)
                continue
            for option in got:
                out.extend(self.returned_options(option))
        return out

    def inlined_returns(self, expr: Expression) -> list[Expression | None] | None:
        """What `obj.method(args)` or a property read `obj.prop` gives, each `return`'s place expression over the
        receiver and parameters read by the caller (the CLI's `inlined_returns`)."""
        callee = expr.callee if isinstance(expr, CallExpr) else None
        if isinstance(expr, CallExpr) and isinstance(callee, NameExpr):
            helper = self.helper(callee)
            if helper is None or helper.is_class or (isinstance(helper, FuncDef) and helper.is_decorated):
                return None
            passed = _bind_call(helper, expr)
            plain = {p: a for p, a in passed.items() if self.substitutable(a)}
            if not any(kind in (ARG_STAR, ARG_STAR2) for kind in expr.arg_kinds):
                plain.update((p, d) for p, d in _constant_defaults(helper) if p not in passed)
            return self.substituted_returns(helper, plain, expr)
        if isinstance(expr, CallExpr) and isinstance(callee, MemberExpr) and isinstance(callee.expr, NameExpr):
            receiver, name, call = callee.expr, callee.name, expr
        elif isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr):
            receiver, name, call = expr.expr, expr.name, None
        else:
            return None
        classes = self.ctx.classes
        if not classes.classes:
            return None
        # a getter runs on the receiver's class; a call as it dispatches (by name where the class is not known)
        candidates = called_classes(self, receiver, name) if call is not None else receiver_classes(self, receiver.name)
        if not candidates:
            return None
        out: list[Expression | None] = []
        for cls in candidates:
            func = classes.method(cls, name) if call is not None else classes.plain_getter(cls, name)
            if func is None or not func.arguments or (call is not None and func.is_decorated):
                return None
            if any(isinstance(n, YieldExpr | YieldFromExpr | AwaitExpr) for n in tree.walk(func.body)):
                return None
            if call is None and _receiver_changes(func, self.allocates) != frozenset():
                return None  # a getter with effects of its own runs them when read (the CLI's rule)
            names: dict[str, Expression] = {func.arguments[0].variable.name: receiver}
            if call is not None:
                names.update((p, a) for p, a in _bind_call(func, call, True).items() if self.substitutable(a))
            found = self.substituted_returns(func, names, expr)
            if found is None:
                return None
            out.extend(found)
        return out

    def substitutable(self, expr: Expression) -> bool:
        """Whether a helper's argument may stand for its parameter in the caller's reading of what the helper
        returns (the CLI's `substitutable`)."""
        if _reevaluable(expr):
            return True
        if not isinstance(expr, CallExpr) or any(kind in (ARG_STAR, ARG_STAR2) for kind in expr.arg_kinds):
            return False
        if all(self.substitutable(a) for a in expr.args):
            if self.mapping_get(expr) is not None:
                return True
            inlined = self.inlined_returns(expr)
            if inlined is not None:
                return all(made is not None for made in inlined)
        # any other call the checker resolves to the caller's places only (the CLI's rule)
        return calls.only_places(self.choices(expr, span_of(expr), 0))

    def never_none(self, expr: Expression) -> bool:
        """Whether a `substitutable` argument cannot be None (the CLI's `never_none`)."""
        if _reevaluable(expr):
            return not _literal_value(expr) and not _may_be_none(expr)
        if not isinstance(expr, CallExpr):
            return False
        options = self.mapping_get(expr)
        if options is not None:
            return len(expr.args) == 2 and all(self.never_none(o) for o in options)
        inlined = self.inlined_returns(expr)
        if inlined is not None:
            # a `return` of a new buffer (None here) may also be a call the checker cannot follow, giving None
            return all(made is not None and self.never_none(made) for made in inlined)
        return calls.only_places(self.choices(expr, span_of(expr), 0))  # `next(itertools.repeat(a, 2))`

    def substituted_returns(
        self, func: FuncItem, names: dict[str, Expression], expr: Expression
    ) -> list[Expression | None] | None:
        """What each `return` of `func` gives in the caller's terms (the CLI's `substituted_returns`)."""
        for bound in _rebound_names(func):
            names.pop(bound, None)
        dead = _dead_none_returns(func, names, self.never_none)
        returns = [n for n in tree.walk(func.body) if isinstance(n, ReturnStmt) and id(n) not in dead]
        if not returns:
            return None
        out: list[Expression | None] = []
        opaque = False
        for ret in returns:
            if ret.expr is None:
                return None
            for arm in self.returned_options(ret.expr):
                made = _substituted(arm, names, expr)
                if made is None and not self.allocates(arm):
                    if not isinstance(arm, CallExpr):
                        return None
                    opaque = True  # `bucket.pop() if bucket else like`: a value the caller cannot name, read new
                out.append(made)
        # a call the checker cannot follow is a new value beside a place some other `return` gives
        return None if opaque and all(made is None for made in out) else out

    def inlined_choices(self, expr: Expression, span: Span, depth: int) -> calls.Choices[Expression] | None:
        """The places `obj.method(args)` / `obj.prop` may be by `inlined_returns` (the CLI's `inlined_choices`)."""
        inlined = self.inlined_returns(expr)
        if inlined is None or all(e is None for e in inlined):
            return None
        options: list[calls.Operand[Expression]] = []
        for made in inlined:
            if made is None:
                options.append(calls.Operand(expr, span, None, True))
                continue
            found = self.choices(made, span, depth + 1)
            if found is not None:
                options.extend(found[1])
                continue
            # an item under a key the checker does not follow (`self.bufs[self.settings.key]`) is only evaluated,
            # as an option of a conditional expression is (`calls.alternatives`)
            options.append(calls.Operand(made, span, self.place(made), True))
        if all(o.place is None for o in options):
            return None
        prelude: Expression = expr if isinstance(expr, CallExpr) else expr.expr  # type: ignore[attr-defined]
        return (prelude,), tuple(options)

    def returned_receiver_item(self, expr: CallExpr) -> ir.Place | None:
        """`self.staging()` of a method returning one item of a display `__init__` stored (the CLI's
        `returned_receiver_item`): the item's place here; else None."""
        func = expr.callee
        if not (isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr)) or not self.stored:
            return None
        cls = receiver_class(self, func.expr.name)
        method = self.ctx.classes.method(cls, func.name) if cls is not None else None
        if method is None or not method.arguments or method.is_class or method.is_static or method.is_decorated:
            return None
        receiver = method.arguments[0].variable.name
        returns = [n for n in tree.walk(method) if isinstance(n, ReturnStmt)]
        reads = {
            (r.expr.base.name, _key_literal(r.expr.index))
            for r in returns
            if isinstance(r.expr, IndexExpr)
            and isinstance(r.expr.base, MemberExpr)
            and isinstance(r.expr.base.expr, NameExpr)
            and r.expr.base.expr.name == receiver
        }
        if len(reads) != 1 or len(returns) != sum(1 for r in returns if isinstance(r.expr, IndexExpr)):
            return None
        attr, key = next(iter(reads))
        owner = getattr(getattr(method, "info", None), "defn", None)
        methods = {
            m.name: m for d in owner.defs.body if isinstance(m := (d.func if isinstance(d, Decorator) else d), FuncDef)
        } if isinstance(owner, ClassDef) else {}
        changed = changed_items(method, methods, self.ctx.classes.item_changes)
        if key is None or attr in changed or EVERY in changed:
            return None
        read = MemberExpr(func.expr, attr)
        read.set_line(func)
        stored = self.stored_items(read)
        if stored is None:
            return None
        followed, position = init_state.item_position(
            self.stored_keys.get(attr), attr in self.plain_stored, key, stored[1]
        )
        if not followed or position is None:
            return None
        return init_state.item_places(*stored)[position]

    def _alternatives(
        self, prelude: tuple[Expression, ...], options: Sequence[Expression], span: Span, depth: int
    ) -> calls.Choices[Expression] | None:
        return calls.alternatives(prelude, options, span, depth, self.place, self.choices)

    def field_choices(
        self, expr: Expression, field: str, span: Span, depth: int
    ) -> calls.Choices[Expression] | None:
        """The places the attribute `field` of the object `expr` evaluates to may be, for an object the checker
        sees built right there (the CLI's `field_choices`): a `fields` entry's call (`stdlib_flow.copied_field`),
        a constructor call of a dataclass or `NamedTuple` of this module or of a `namespace` entry
        (`stdlib_flow.constructed_field`); of a copy's operand also a name whose class is one."""
        if depth > _CHOICE_DEPTH:
            return None
        if isinstance(expr, NameExpr):
            cls = receiver_class(self, expr.name)
            base = self.place(expr)
            generated = self.generated_init(cls) if cls is not None else None
            if base is None or generated is None or field not in (*generated.positional, *generated.keyword_only):
                return None
            return (expr,), (calls.Operand(expr, span, stdlib_flow.field_place(base, field), True),)
        if not isinstance(expr, CallExpr):
            return None
        split = _plain_arguments(expr)
        if split is None:
            return None
        positional, keywords = split

        def choose(option: Expression) -> calls.Choices[Expression] | None:
            return self._alternatives((), (option,), span, depth)

        flow = self.stdlib_flow_of(expr.callee)
        if flow is not None and flow.relation == "fields":
            if len(positional) != 1 or (keywords and not flow.replaces):
                return None
            return stdlib_flow.copied_field(
                field, positional[0], keywords, lambda o, f: self.field_choices(o, f, span, depth + 1), choose
            )
        callee = expr.callee
        namespace = self.namespace(expr)
        if namespace is not None:  # `SimpleNamespace(src=c, dst=c).dst`: the keyword's operand
            return stdlib_flow.constructed_field(field, namespace[1], (), keywords, choose)
        if not (isinstance(callee, NameExpr) and callee.name in self.ctx.classes.classes and self.constructs(expr)):
            return None
        generated = self.generated_init(self.ctx.classes.classes[callee.name])
        if generated is None:
            return None
        return stdlib_flow.constructed_field(field, generated, positional, keywords, choose)

    def generated_init(self, cls: ClassDef) -> GeneratedInit | None:
        """The followed `__init__` `@dataclass` / `NamedTuple` generates for `cls`, else None."""
        classes = self.ctx.classes
        if id(cls) not in classes.generated:
            classes.generated[id(cls)] = generated_fields(self, cls)
        generated = classes.generated[id(cls)]
        return generated if generated is not None and generated.followed else None

    def computed_index(self, expr: Expression) -> bool:
        """`bufs[step % 2]` of a display or container name bound to a name: a new value (the CLI's rule); not when
        every item is one place (`uniform`): then any index gives it."""
        if not isinstance(expr, IndexExpr) or _key_literal(expr.index) is not None:
            return False
        if isinstance(expr.base, NameExpr) and expr.base.name in self.uniform:
            return False
        shown = self.literal_display(expr.base)
        if shown is not None and one_place([computed_dotted(item) for item in shown]) is not None:
            return False
        return self.literal_display(expr.base) is not None or (
            isinstance(expr.base, NameExpr) and expr.base.name in self.containers
        )

    def uniform_container(self, expr: Expression) -> bool:
        """Whether `expr` builds a container whose every item is one object (`init_state.uniform_container`)."""
        found = self.display_items(expr)
        if found is not None:
            keys, items = [k for k, _ in found[0]], [computed_dotted(item) for _, item in found[0]]
            return init_state.uniform_container(found[1], keys, items)
        repeated = _repeated_display(expr)
        places = [computed_dotted(item) for item in repeated.items] if repeated is not None else []
        return repeated is not None and init_state.uniform_container(None, (), places)

    def uniform_item(self, expr: Expression) -> Expression | None:
        """The one expression whose object every item of a `uniform_container` is, else None (the CLI's)."""
        if not self.uniform_container(expr):
            return None
        found = self.display_items(expr)
        if found is not None:
            return found[0][0][1] if found[0] else None
        repeated = _repeated_display(expr)
        return repeated.items[0] if repeated is not None and repeated.items else None

    def uniform_display(self, expr: Expression) -> str | None:
        """The one place every item of a sequence display is (`[buf, buf]`, `deque([buf, buf])`, `[buf] * 3`:
        `computed_items.one_place`), else None (the CLI's rule)."""
        found = self.display_items(expr)
        if found is not None:
            return None if found[1] else one_place([computed_dotted(item) for _, item in found[0]])
        repeated = _repeated_display(expr)
        return one_place([computed_dotted(item) for item in repeated.items]) if repeated is not None else None

    @staticmethod
    def builtin(callee: Expression) -> str | None:
        """The builtin a callee names (`max`), unless a binding of this module or function shadows it."""
        if isinstance(callee, NameExpr) and callee.fullname == f"builtins.{callee.name}":
            return callee.name
        return None

    def tuple_component_choices(
        self, expr: Expression, index: int | None, span: Span, depth: int
    ) -> tuple[calls.Choices[Expression] | None, ...] | None:
        """`next(zip(xs, ys))[0]`, `next(itertools.pairwise(xs))[1]`: the items the component may be (the CLI's
        `tuple_component_choices`), one part per operand it may come from; None for other forms."""
        if not (isinstance(expr, CallExpr) and expr.args and isinstance(made := expr.args[0], CallExpr)):
            return None
        if any(k not in (ARG_POS, ARG_NAMED) for k in made.arg_kinds):
            return None
        positional = [a for a, k in zip(made.args, made.arg_kinds, strict=True) if k == ARG_POS]
        if positional != made.args[: len(positional)]:
            return None
        taker = self.stdlib_flow_of(expr.callee)
        takes = (
            taker is not None and taker.relation == "pick" and taker.default is not None
            and expr.arg_kinds == [ARG_POS]
        )
        operands = stdlib_flow.tuple_component_operands(
            takes, self.stdlib_flow_of(made.callee), len(positional),
            [n for n, k in zip(made.arg_names, made.arg_kinds, strict=True) if k == ARG_NAMED], index,
        )
        inner = self.stdlib_flow_of(made.callee)
        if operands is None or inner is None:
            return None
        position = stdlib_flow.first_item_position(inner, index)
        fill = stdlib_flow.padded_fill(
            inner, [(n, a) for a, k, n in zip(made.args, made.arg_kinds, made.arg_names, strict=True) if k == ARG_NAMED]
        )

        def first_or_any(operand: Expression) -> calls.Choices[Expression] | None:
            return stdlib_flow.first_component(
                inner, position, self.literal_display(operand), fill,
                lambda rest, options: self._alternatives(rest, options, span, depth),
                lambda: self.item_choices(operand, span, depth + 1),
            )

        parts = tuple(first_or_any(positional[i]) for i in operands)
        return parts if all(part is not None for part in parts) else None

    def item_choices(self, expr: Expression, span: Span, depth: int) -> calls.Choices[Expression] | None:
        """The places an item of the iterable `expr` may be: any item of a display or of a sequence container, of
        a mapping container's `.values()`, or of a builtin that keeps its argument's items (`sorted(pool)`)."""
        if depth > _CHOICE_DEPTH:
            return None
        items = self.literal_display(expr)
        if items is not None:
            return self._alternatives((), items, span, depth)
        stored = self.stored_items(expr)
        if stored is None and (uniform := self.foreign_uniform(expr)) is not None:
            stored = (uniform, 1)  # (of an object of the class outside its methods, `foreign_uniform`)
        elif stored is not None and isinstance(expr, MemberExpr) and (
            self.stored_keys.get(expr.name) != init_state.UNIFORM_KEYS
        ):
            stored = None
        if stored is not None and isinstance(expr, MemberExpr):
            # `itertools.cycle(self.scratch)` of `self.scratch = [buf] * 2`: every item is the one object
            whole: Expression = expr
            return (whole,), init_state.item_choices(whole, whole, whole, *stored, span, 0, init_state.UNIFORM_KEYS)[1]
        repeated = _repeated_display(expr)
        if repeated is not None:  # `max([a, c] * n)`: any of the display's items, the very objects
            return self._alternatives((), repeated.items, span, depth)
        if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name == "values":
            receiver = expr.callee.expr
            if expr.args or not isinstance(receiver, NameExpr):
                return None
            container = self.containers.get(receiver.name)
            if container is None or not container.mapping:
                return None
            raw, name = receiver.name, self.name(receiver.name)
            return (receiver,), tuple(
                calls.Operand(expr, span, calls.container_element(name, raw, container, i), True)
                for i in range(len(container.keys))
            )
        if isinstance(expr, CallExpr):
            # `sorted(pool, key=len)`, `itertools.cycle([c])`: a call keeping its operands' items (`stdlib_flow`)
            flow = self.stdlib_flow_of(expr.callee)
            if flow is None or flow.relation != "items" or any(k not in (ARG_POS, ARG_NAMED) for k in expr.arg_kinds):
                return None
            positional = [a for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS]
            if positional != expr.args[: len(positional)]:
                return None
            taken = stdlib_flow.item_operands(flow, len(positional))
            named = [
                (n, a) for a, k, n in zip(expr.args, expr.arg_kinds, expr.arg_names, strict=True) if k == ARG_NAMED
            ]
            if taken is None or any(n not in flow.options for n, _ in named):
                return None
            parts = tuple(
                self._alternatives((), (positional[i],), span, depth) if flow.itself  # `itertools.repeat(c)`
                else stdlib_flow.flattened_items(  # `itertools.chain.from_iterable([[c], [a]])`
                    self.literal_display(positional[i]), lambda item: self.item_choices(item, span, depth + 1)
                ) if flow.flatten
                else self.item_choices(positional[i], span, depth + 1)
                for i in taken
            )
            if any(part is None for part in parts):
                return None
            others = (*(a for i, a in enumerate(positional) if i not in taken), *(a for _, a in named))
            return calls.merge_choices(others, parts)
        if isinstance(expr, NameExpr) and (kept := self.iterators.get(expr.name)) is not None:
            # `next(pool)` of `pool = itertools.cycle([c])`: any item the call keeps
            found = self.item_choices(kept, span, depth + 1)
            return ((expr,), found[1]) if found is not None else None
        if isinstance(expr, NameExpr) and (container := self.containers.get(expr.name)) is not None:
            if container.mapping:  # iterating a dict gives its keys
                return None
            raw, name = expr.name, self.name(expr.name)
            return (expr,), tuple(
                calls.Operand(expr, span, calls.container_element(name, raw, container, i), True)
                for i in range(len(container.keys))
            )
        return None

    def picked_items(self, expr: CallExpr, span: Span, depth: int) -> calls.Choices[Expression] | None:
        """`max(pool, key=len)`, `min(a, b)`, `next(iter(pool), a)`: one of the items or arguments
        (`stdlib_flow`'s `pick` entries); `bufs.get("out", a)` of a mapping container: its item or the default."""
        callee = expr.callee
        if any(kind not in (ARG_POS, ARG_NAMED) for kind in expr.arg_kinds):
            return None
        positional = [a for a, kind in zip(expr.args, expr.arg_kinds, strict=True) if kind == ARG_POS]
        named = [
            (n, a) for a, kind, n in zip(expr.args, expr.arg_kinds, expr.arg_names, strict=True) if kind == ARG_NAMED
        ]
        if isinstance(callee, MemberExpr) and callee.name == "get" and isinstance(callee.expr, NameExpr):
            container = self.containers.get(callee.expr.name)
            if container is None or not container.mapping or named or not 1 <= len(positional) <= 2:
                return None
            raw, name = callee.expr.name, self.name(callee.expr.name)
            key = positional[0]
            literal = _key_literal(key)
            found = [i for i in container.indices(literal) if literal is None or container.keys[i] == literal]
            stored: calls.Choices[Expression] = (
                (callee.expr, key),
                tuple(
                    calls.Operand(expr, span, calls.container_element(name, raw, container, i), True) for i in found
                ),
            )
            default = self._alternatives((), positional[1:], span, depth) if len(positional) == 2 else None
            return calls.merge_choices((), (stored, default))
        flow = self.stdlib_flow_of(callee)
        if flow is None or flow.relation != "pick" or not positional or positional != expr.args[: len(positional)]:
            return None
        if any(n not in flow.options for n, _ in named):
            return None
        others = tuple(a for n, a in named if n != "default")
        fallback_node = next((a for n, a in named if n == "default"), None)
        if flow.default is not None:  # `next(it, d)`: one iterable, a positional default
            if len(positional) > flow.default + 1:
                return None
            fallback_node = positional[flow.default] if len(positional) > flow.default else None
            items = self.item_choices(positional[0], span, depth + 1)
        elif len(positional) == 1:
            items = self.item_choices(positional[0], span, depth + 1)
        else:
            items = self._alternatives((), positional, span, depth)
        fallback = self._alternatives((), (fallback_node,), span, depth) if fallback_node is not None else None
        return calls.merge_choices(others, (items, fallback))

    def aliasing_index(self, callee: Expression) -> int | None:
        """Which argument a safekernels function's result aliases (`sk.as_buffer(t)` is `t`), or None."""
        names = self.ctx.names(callee)[:1]
        if not names or not resolve.is_safekernels(names[0]):
            return None
        return ALIASING_FUNCTIONS.get(names[0].rsplit(".", 1)[-1])

    def returning_call(self, helper: FuncItem, call: CallExpr) -> tuple[FuncItem, CallExpr]:
        """The function whose `return`s give the value of `call`, a call of `helper` with no receiver, and a call of
        it in the caller's terms (the CLI's `returning_call`)."""
        for _ in range(4):
            body = helper.body.body
            if body and isinstance(body[0], ExpressionStmt) and isinstance(body[0].expr, StrExpr):
                body = body[1:]
            if len(body) != 1 or not isinstance(body[0], ReturnStmt) or not isinstance(body[0].expr, CallExpr):
                break
            inner_call = body[0].expr
            func = inner_call.callee
            inner: FuncItem | None = None
            if isinstance(func, NameExpr):
                inner = self.module_function(func)
            elif isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr):
                inner = static_method(self, func.expr, func.name, self.ctx.classes, None)
            if inner is None or inner is helper or isinstance(inner, LambdaExpr):
                break
            made = self.forwarded_calls.get(id(call))
            if made is None:
                passed = _bind_call(helper, call)
                params = {arg.variable.name for arg in helper.arguments}
                if any(kind not in (ARG_POS, ARG_NAMED) for kind in inner_call.arg_kinds):
                    break
                args = [_in_caller_terms(a, passed, params) for a in inner_call.args]
                if any(a is None for a in args):
                    break
                made = CallExpr(
                    func, [a for a in args if a is not None], list(inner_call.arg_kinds), list(inner_call.arg_names)
                )
                made.set_line(call)
                self.forwarded_calls[id(call)] = made
            helper, call = inner, made
        return helper, call

    def module_function(self, callee: NameExpr) -> FuncItem | None:
        """The function of the module's top level `callee` names, when the checker follows its calls (the CLI's
        `ModuleContext.functions`)."""
        node = callee.node
        func = self.ctx.classes.plain(node) if isinstance(node, FuncDef | Decorator) else None
        if func is None:
            return None
        symbol = self.ctx.module.names.get(func.name)
        own = func.fullname == f"{self.ctx.module.fullname}.{func.name}"
        return func if own and symbol is not None and symbol.node is node else None

    def plain_callee(self, call: CallExpr) -> FuncItem | None:
        """The function a call runs with no receiver, whose returns give its result (the CLI's `plain_callee`): a
        helper called by its name, or a `@staticmethod` or `@classmethod` of the module's classes called on its
        class or on an object whose classes all find that one function."""
        func = call.callee
        if isinstance(func, NameExpr):
            return self.helper(func)
        if not (isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr)):
            return None
        owner = func.expr
        classes = self.ctx.classes
        if owner.name in classes.classes:
            return static_method(self, owner, func.name, classes, None)
        candidates = receiver_classes(self, owner.name) if classes.classes else None
        found = [classes.unbound_method(c, func.name) for c in candidates or ()]
        first = found[0] if found else None
        return first[0] if first is not None and all(f is not None and f[0] is first[0] for f in found) else None

    def helper(self, callee: NameExpr) -> FuncItem | None:
        """The plain function a call's callee refers to (undecorated, or wrapped by decorators that forward its
        calls), when defined in this body or at this module's top level (where the libcst front end can see it
        too); a lambda bound once to the name here, or the function a factory returned to it (`find_callables`)."""
        node = callee.node
        if isinstance(node, Var):
            return self.named.get(callee.name)
        func = self.ctx.classes.plain(node)
        if func is None:
            return None
        if id(func) in self.helpers:
            return func
        symbol = self.ctx.module.names.get(func.name)
        # (defined here: a function the module imports, `from dataclasses import replace`, is another module's,
        # which the CLI does not see either, and whose tree mypy may have loaded from its cache without a body)
        own = func.fullname == f"{self.ctx.module.fullname}.{func.name}"
        if symbol is not None and symbol.node is node and func.name not in self.local_names and own:
            return func
        return None

    def generator_call(self, expr: Expression) -> CallExpr | None:
        """`gen(...)` of a generator function of the module or of this body, or `obj.gen(...)` of a generator
        method of the class `obj` is an object of (the CLI's `generator_call`)."""
        if not isinstance(expr, CallExpr):
            return None
        classes = self.ctx.classes
        if isinstance(expr.callee, MemberExpr) and isinstance(expr.callee.expr, NameExpr):
            owners = receiver_classes(self, expr.callee.expr.name)
            method = classes.method(owners[0], expr.callee.name, iterated=True) if owners else None
            return expr if method is not None and not classes.runs_when_called(method) else None
        if not isinstance(expr.callee, NameExpr):
            return None
        found = self.helper(expr.callee)
        return expr if found is not None and classes.runs_when_iterated(found) else None

    def yielded_views(self, generator: CallExpr) -> callables.YieldedViews | None:
        """The views a generator call yields, when every `yield` gives a view of a parameter (the CLI's
        `yielded_views`)."""
        helper = self.helper(generator.callee) if isinstance(generator.callee, NameExpr) else None
        if helper is None:
            return None
        yields = [n.expr for n in tree.walk(helper.body) if isinstance(n, YieldExpr)]
        if not yields or any(y is None for y in yields):
            return None
        passed = _bind_call(helper, generator)
        params = {arg.variable.name for arg in helper.arguments}
        return callables.yielded_views(
            [self.returned_item(None, y, params, passed, helper, generator) for y in yields if y is not None]
        )

    def taken_generator(self, expr: Expression) -> tuple[CallExpr, CallExpr | None] | None:
        """`gen(...)` unpacked as it is, or through a call keeping its items (the CLI's `taken_generator`)."""
        wrapper = None
        if isinstance(expr, CallExpr) and self.generator_call(expr) is None:
            flow = self.stdlib_flow_of(expr.callee)
            positional = [a for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS]
            if flow is None or flow.relation != "items" or flow.itself or flow.flatten or not positional:
                return None
            if any(k not in (ARG_POS, ARG_NAMED) for k in expr.arg_kinds) or expr.arg_kinds[0] != ARG_POS:
                return None
            if stdlib_flow.item_operands(flow, len(positional)) != (0,):
                return None
            wrapper, expr = expr, expr.args[0]
        generator = self.generator_call(expr)
        if generator is None or self.yielded_views(generator) is None:
            return None
        return generator, wrapper

    def unpacked_comprehension(self, targets: Sequence[Expression], value: Expression) -> bool:
        """`left, right = (planar.channel(c) for c in range(2))` (also a list comprehension) unpacked into as many
        plain names as it gives items: each name is what the element gives in its iteration (the CLI's
        `unpacked_comprehension`)."""
        if len(targets) != 1 or not isinstance(targets[0], TupleExpr | ListExpr):
            return False
        names = targets[0].items
        if not names or not all(isinstance(n, NameExpr) for n in names):
            return False
        gen = value.generator if isinstance(value, ListComprehension) else value
        if not isinstance(gen, GeneratorExpr) or len(gen.indices) != 1:
            return False
        loop, sequence = gen.indices[0], gen.sequences[0]
        if gen.condlists[0] or gen.is_async[0] or not isinstance(loop, NameExpr):
            return False
        items = self.literal_display(sequence)
        numbers: list[int] | None = None
        if items is None and isinstance(sequence, CallExpr) and self.builtin(sequence.callee) == "range":
            bounds = [_int_literal(a) for a in sequence.args]
            if all(kind == ARG_POS for kind in sequence.arg_kinds) and calls.range_length(bounds) is not None:
                numbers = list(range(*[b for b in bounds if b is not None]))
        count = len(items) if items is not None else len(numbers) if numbers is not None else -1
        bound = {n.name for n in names if isinstance(n, NameExpr)}
        read = {n.name for n in tree.walk(gen, skip_scopes=False) if isinstance(n, NameExpr)}
        if count != len(names) or not bound.isdisjoint(read) or loop.name in bound:
            return False
        if items is not None and loop.name in {n for item in items for n in _item_roots(item)}:
            return False
        self.expr(sequence)
        for index, name in enumerate(names):
            self.tmp += 1
            self.renames.append({loop.name: f"{loop.name}$c{self.tmp}"})
            known = self.constants.pop(loop.name, None)
            try:
                if items is not None:
                    self.assign([loop], items[index])
                    if (number := _int_literal(items[index])) is not None:
                        self.constants[loop.name] = number  # `for c in (1, 0)`
                else:
                    assert numbers is not None
                    self.bind(loop, ir.Fresh())
                    self.constants[loop.name] = numbers[index]
                self.assign([name], gen.left_expr)
            finally:
                self.renames.pop()
                self.constants.pop(loop.name, None)
                if known is not None:
                    self.constants[loop.name] = known
        return True

    def taken_views(self, targets: Sequence[Expression], value: Expression) -> bool:
        """`left, right = itertools.islice(windows(buf, n), 2)`: each name a view of the caller's argument (the
        CLI's `taken_views`, `callables.bind_taken_items`).  False, lowering nothing, for anything else."""
        if len(targets) != 1 or not isinstance(targets[0], TupleExpr | ListExpr):
            return False
        taken = self.taken_generator(value)
        if taken is None:
            return False
        generator, wrapper = taken
        views = self.yielded_views(generator)
        assert views is not None
        if wrapper is not None:
            self.expr(wrapper.callee)
        self.iterated.add(id(generator))
        self.call(generator, None)
        if wrapper is not None:
            for arg in wrapper.args[1:]:
                self.expr(arg)
        callables.bind_taken_items(self.target(targets[0]), views, span_of(value), self)
        return True

    def call(self, node: CallExpr, holder: ir.Place | None) -> ir.Value:
        """What a call does and gives; a call of a memoised function gives the object its cache keeps for equal
        arguments (`memo.memo_result`, the CLI's `call`)."""
        memoized = self.memoized_call(node)
        value = self.plain_call(node, holder)
        if memoized is None:
            return ir.Fresh(calls.SHARED_OP) if value == ir.Fresh() and self.returns_shared_op(node) else value
        return memo_result(self.memo, *memoized, value, span_of(node), self, self.memoized_shared(node))

    def returns_shared_op(self, node: CallExpr) -> bool:
        """Whether `node` calls a function of the module, or a method of a receiver of known class, whose every
        `return` gives a `.shared()` op (the CLI's `returns_shared_op`)."""
        func = node.callee
        found: FuncItem | None = None
        if isinstance(func, NameExpr) and func.name not in self.partials:
            found = self.helper(func)
        elif isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr):
            cls = receiver_class(self, func.expr.name)
            found = self.ctx.classes.method(cls, func.name) if cls is not None else None
        return isinstance(found, FuncDef) and _gives_shared_op(found)

    def runs_again(self, node: FuncDef) -> bool:
        """Whether `node`, a function of the module's top level or a method of one of its classes, may run again
        (the CLI's `runs_again`)."""
        symbol = self.ctx.module.names.get(node.name)
        defined = symbol.node if symbol is not None else None
        nodes = list(tree.walk_many(self.ctx.module.defs, skip_scopes=False))
        named: list[Expression]
        if defined is node or (isinstance(defined, Decorator) and defined.func is node):
            named = [n for n in nodes if isinstance(n, NameExpr) and n.name == node.name and n.node is defined]
        elif any(
            sub is node or (isinstance(sub, Decorator) and sub.func is node)
            for cls in self.ctx.classes.classes.values() for sub in cls.defs.body
        ):
            stored = {id(t) for n in nodes for target in tree.stored_targets(n) for t in _stored_exprs(target)}
            named = [n for n in nodes if isinstance(n, MemberExpr) and n.name == node.name and id(n) not in stored]
        else:
            return False
        if len(named) != 1:
            return runs_again([False] * len(named))
        return runs_again([any(named[0] in parts for parts in _repeated_parts(nodes))])

    def memoized_object(self, expr: CallExpr) -> bool:
        """Whether `expr` calls a memoised helper whose every `return` builds an object of a class the checker
        follows (the CLI's `memoized_object`)."""
        if not isinstance(expr.callee, NameExpr):
            return False
        helper = self.helper(expr.callee)
        return helper is not None and self.returned_objects(helper, expr) is not None

    def memoized_call(self, node: CallExpr) -> tuple[str, MemoKey] | None:
        """`ones(64)` / `ws.scratch(n)` of a function or method of the module whose outermost decorator is
        `@functools.cache` / `@functools.lru_cache`: its name and the call's key (the CLI's `memoized_call`)."""
        found = self.memoized_function(node)
        return found[:2] if found is not None else None

    def memoized_shared(self, node: CallExpr) -> bool:
        """Whether the memoised function `node` calls returns a `.shared()` op at every `return` (the CLI's)."""
        found = self.memoized_function(node)
        return found is not None and _gives_shared_op(found[2])

    def memoized_function(self, node: CallExpr) -> tuple[str, MemoKey, FuncItem] | None:
        """`memoized_call`, with the memoised function's definition."""
        if self.kernel_body or id(node) in self.partial_names:
            return None
        func = node.callee
        receiver: tuple[MemoToken, ...] = ()
        decorated: Node | None = None
        owner: ClassDef | None = None
        if isinstance(func, NameExpr) and func.name not in self.partials:
            if self.helper(func) is None:
                return None
            decorated, name = func.node, func.name
        elif isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr):
            owner = receiver_class(self, func.expr.name)
            if owner is None or self.ctx.classes.method(owner, func.name) is None:
                return None
            symbol = owner.info.get(func.name)
            decorated, name = (symbol.node if symbol is not None else None), f"{owner.name}.{func.name}"
            receiver = (self.memo_token(func.expr),)
        elif isinstance(func, MemberExpr) and isinstance(func.expr, MemberExpr):
            # `self.workspace.get(n)` of an object an attribute holds (the CLI's)
            held = held_object_method(self, func)
            if held is None:
                return None
            owner, decorated, name, receiver = held[0], held[1], f"{held[0].name}.{func.name}", (None,)
        if decorated is None:
            return None
        keyed = self.memo_key(decorated, name, receiver, node, self.memo_token)
        if keyed is not None or not isinstance(decorated, FuncDef):
            return keyed
        return self.forwarded_memo(decorated, owner, receiver, node)

    def memo_key(
        self,
        decorated: Node | None,
        name: str,
        receiver: tuple[MemoToken, ...],
        node: CallExpr,
        token: Callable[[Expression], MemoToken],
    ) -> tuple[str, MemoKey, FuncItem] | None:
        """The key of the call `node` of `decorated` when that is memoised, each argument's token given by
        `token` (the CLI's `memo_key`)."""
        if isinstance(decorated, FuncDef):
            # a hand-written cache keyed by some of its parameters (`memo_shape`): their tokens key the call
            shape = self.ctx.memo_params(decorated, bool(receiver))
            if shape is None:
                return None
            keyed, exact = shape
            if not exact:
                return name, (*receiver, None), decorated
            bound = _bind_call(decorated, node, bool(receiver))
            return name, receiver + tuple(self.path_token(bound, path, token) for path in keyed), decorated
        if not isinstance(decorated, Decorator) or not decorated.original_decorators:
            return None
        first = decorated.original_decorators[0]
        target = first.callee if isinstance(first, CallExpr) else first
        if not isinstance(target, RefExpr) or not memoizing_decorator(target.fullname, isinstance(first, CallExpr)):
            return None
        if any(kind in (ARG_STAR, ARG_STAR2) for kind in node.arg_kinds):
            return name, (None,), decorated.func
        return name, receiver + tuple(
            keyword_token(keyword if kind == ARG_NAMED else None, token(arg))
            for arg, kind, keyword in zip(node.args, node.arg_kinds, node.arg_names, strict=True)
        ), decorated.func

    def forwarded_memo(
        self, found: FuncDef, owner: ClassDef | None, receiver: tuple[MemoToken, ...], node: CallExpr
    ) -> tuple[str, MemoKey, FuncItem] | None:
        """A function whose body only returns a call of a memoised one: that memoised call, its key in this
        caller's terms (the CLI's `forwarded_memo`)."""
        body = found.body.body
        if body and isinstance(body[0], ExpressionStmt) and isinstance(body[0].expr, StrExpr):
            body = body[1:]
        if len(body) != 1 or not isinstance(body[0], ReturnStmt) or not isinstance(body[0].expr, CallExpr):
            return None
        inner = body[0].expr
        passed = _bind_call(found, node, bool(receiver))
        me = found.arguments[0].variable.name if receiver and found.arguments else None

        def token(expr: Expression) -> MemoToken:
            if isinstance(expr, StrExpr | IntExpr):
                return literal_token(expr.value)
            if isinstance(expr, NameExpr) and expr.name != me and expr.name in passed:
                return self.memo_token(passed[expr.name])
            return None

        callee = inner.callee
        target: Node | None = None
        if isinstance(callee, MemberExpr) and isinstance(callee.expr, NameExpr) and callee.expr.name == me:
            if owner is not None and self.ctx.classes.method(owner, callee.name) is not None:
                symbol = owner.info.get(callee.name)
                target, name, inner_receiver = (symbol.node if symbol is not None else None), owner.name, receiver
                name = f"{name}.{callee.name}"
        elif isinstance(callee, NameExpr) and callee.name not in {a.variable.name for a in found.arguments}:
            if self.helper(callee) is not None:
                target, name, inner_receiver = callee.node, callee.name, ()
        if target is None or target is found:
            return None
        return self.memo_key(target, name, inner_receiver, inner, token)

    def path_token(
        self, bound: dict[str, Expression], path: str, token: Callable[[Expression], MemoToken]
    ) -> MemoToken:
        """The token of a hand-written cache's key item `path` (`n`, `spec.name`) at a call binding its parameters
        to `bound` (the CLI's `path_token`)."""
        root, *attrs = path.split(".")
        node = bound.get(root)
        while node is not None and attrs:
            if not (isinstance(node, CallExpr) and isinstance(node.callee, NameExpr)
                    and node.callee.name in self.ctx.classes.classes and self.constructs(node)):
                break
            generated = self.generated_init(self.ctx.classes.classes[node.callee.name])
            split = _plain_arguments(node)
            if generated is None or split is None:
                return None
            node = stdlib_flow.field_argument(attrs.pop(0), generated, *split)
        if node is None:
            return None
        found = token(node)
        if not attrs or found is None:
            return found
        return None if found.startswith("=") or not isinstance(node, NameExpr) else ".".join((found, *attrs))

    def memo_token(self, expr: Expression) -> MemoToken:
        """An argument's token in a memoised call's key (the CLI's `memo_token`)."""
        if isinstance(expr, StrExpr | IntExpr):
            return literal_token(expr.value)
        bound = self.view_bound(expr) if isinstance(expr, NameExpr) else None
        if isinstance(bound, int):
            return literal_token(bound)  # the CLI's module integer constant
        if bound is None and isinstance(expr, NameExpr) and expr.name not in self.local_names:
            return expr.name if expr.name in self.ctx.module_stable() else None  # the CLI's module constant
        return bound

    def plain_call(self, node: CallExpr, holder: ir.Place | None) -> ir.Value:
        taken = node.arg_kinds == [ARG_POS] and any(
            stdlib_flow.takes_next(n, 1, 0) for n in self.ctx.names(node.callee)
        )
        generator = self.generator_call(node.args[0]) if taken else None
        if generator is not None:
            # `next(gen(...))`: the generator's body runs to its first item, which the call gives (the CLI's rule)
            self.expr(node.callee)
            self.iterated.add(id(generator))
            item = self.call(generator, holder)
            return callables.iterated_item(item, self.yielded_views(generator), span_of(node), self)
        drains = bool(node.args) and node.arg_kinds[0] == ARG_POS and any(
            stdlib_flow.drains(n, len(node.args)) for n in self.ctx.names(node.callee)
        )
        drained = self.generator_call(node.args[0]) if drains else None
        if drained is not None:
            self.iterated.add(id(drained))  # `list(gen(...))`: the generator's body runs to its end (the CLI's)
        partial_name = self.partial_names.get(id(node))
        if partial_name is not None:
            return self.bind_partial(node, partial_name)
        mapped = self.mapped_call(node, holder)
        if mapped is not None:
            return mapped
        spread = self.starmapped_call(node)
        if spread is not None:
            return spread
        folded = self.higher_order_call(node, holder)
        if folded is not None:
            return folded
        func = node.callee
        partial = self.partials.get(func.name) if isinstance(func, NameExpr) else None
        if partial is not None:
            func = partial.args[0]  # `run(c, d)` of `run = partial(target, ...)` calls `target`
        method: calls.MethodCall[Expression] | None = None
        if isinstance(func, MemberExpr):
            receiver = func.expr
            receiver_kernel = self.ctx.kernel(receiver) or class_kernel(self, receiver)
            if receiver_kernel is None and func.name in calls.KERNEL_CHOICE_METHODS and not self.kernel_body:
                choices = self.kernel_choices(receiver)
                keyed = self.keyed_kernel_rows(receiver) if choices else None
                if keyed is not None:
                    # `KERNELS[name].launch(PREPARED[name], ...)`: once per key, `name` standing for that key
                    key_name, rows = keyed

                    def one_key(row: tuple[calls.ContainerKey, resolve.KernelInfo], held: ir.Place) -> ir.Value:
                        shadowed = self.literal_keys.get(key_name)
                        self.literal_keys[key_name] = row[0]
                        self.ctx.forced_kernels[id(receiver)] = row[1]
                        try:
                            return self.plain_call(node, held)
                        finally:
                            del self.ctx.forced_kernels[id(receiver)]
                            if shadowed is None:
                                del self.literal_keys[key_name]
                            else:
                                self.literal_keys[key_name] = shadowed

                    return calls.kernel_choice(rows, one_key, holder, span_of(node), self)
                if choices:
                    # `KERNELS[name].launch(...)`: once per kernel the receiver may be (the CLI's)
                    def one(chosen: resolve.KernelInfo, held: ir.Place) -> ir.Value:
                        self.ctx.forced_kernels[id(receiver)] = chosen
                        try:
                            return self.plain_call(node, held)
                        finally:
                            del self.ctx.forced_kernels[id(receiver)]

                    return calls.kernel_choice(choices, one, holder, span_of(node), self)
            method = calls.MethodCall(
                func.name,
                attr_span(func),
                self.operand(receiver, with_view=False),
                receiver_kernel,
                self.ctx.is_safekernels(receiver),
                self.item_container(receiver),
                self.receiver_elements(receiver),
                _int_literal(node.args[0]) if node.args and node.arg_kinds[0] == ARG_POS else None,
                receiver_ring=isinstance(receiver, NameExpr) and receiver.name in self.rings,
                receiver_allocates=self.allocates(receiver),
            )
        first_name = self.ctx.names(func)[:1]
        args = tuple(
            self.operand(arg, keyword if kind == ARG_NAMED else None, kind in (ARG_STAR, ARG_STAR2))
            for arg, kind, keyword in zip(node.args, node.arg_kinds, node.arg_names, strict=True)
        )
        slots: dict[int, calls.Operand[Expression]] = {}
        if partial is not None:
            assert isinstance(node.callee, NameExpr)
            bound = self.partial_operands(node.callee, partial)
            slots = {id(a.node): a for a in bound}
            args = callables.partial_arguments(bound, args)
        shape_kernel = self.ctx.kernel(func)
        shape = calls.Call(
            node,
            span_of(node),
            func,
            args,
            shape_kernel,
            method,
            self.ctx.refers_to(func, SHARED_ARRAY_CONSTRUCTOR),
            first_name[0] if first_name and resolve.is_safekernels(first_name[0]) else None,
            self.closure_of(func.name, args) if isinstance(func, NameExpr) else None,
            (
                None
                if shape_kernel is not None or (first_name and resolve.is_safekernels(first_name[0]))
                else callables.taken_by_a_loop(
                    applied_summary(self, node, method, args, span_of(node), func), id(node), self.loop_items,
                    self.loop_moves,
                )
            ),
            container_flow=next(
                (f for n in self.ctx.names(func) if (f := stdlib_flow.container_flow(n)) is not None), None
            ),
        )
        self.slot_uses = slots
        read = self.read_operand_properties([*([method.receiver] if method is not None else []), *args])
        try:
            result = calls.lower_call(shape, holder, self)
        finally:
            self.slot_uses = {}
            self.read_properties.difference_update(read)
        if shape.summary is not None and shape.summary.returns_op and isinstance(result, ir.Fresh):
            # `doubled(z, x)` of `def doubled(z, x): return scale(z, x)`, and as much for a method, a
            # `@classmethod` or an object's `__call__` whose every `return` launches (the CLI's)
            return ir.Fresh("op", built=shape.summary.op_built)
        if isinstance(func, NameExpr) and partial is None and result == ir.Fresh():
            helper = self.helper(func)
            if helper is not None and self.ctx.classes.runs_when_called(helper):
                brands = [self.prepared_brand(c, helper, node) for c in self.ctx.returned_calls(helper, False)]
                prepared = calls.returned_prepared(brands, span_of(node), self)
                if prepared is not None:
                    return prepared  # `prepared_for(vecadd, dev)` of `def prepared_for(k, dev): return k.prepare(...)`
        if isinstance(func, MemberExpr) and result == ir.Fresh():
            if method is not None and method.receiver_kernel is None and not method.receiver_is_safekernels:
                found: FuncDef | None = None
                if isinstance(func.expr, NameExpr):
                    cls = receiver_class(self, func.expr.name)
                    found = self.ctx.classes.method(cls, func.name) if cls is not None else None
                elif isinstance(func.expr, MemberExpr):
                    # `self.cache.get(kernel, n)` of an object an attribute holds: the one class defining it
                    held = held_object_method(self, func)
                    found = held[1] if held is not None else None
                if found is not None:
                    brands = [self.prepared_brand(c, found, node, True) for c in self.ctx.returned_calls(found, True)]
                    prepared = calls.returned_prepared(brands, span_of(node), self)
                    if prepared is not None:
                        return prepared  # `launcher.prepared(vecadd)` of a method returning `kernel.prepare(...)`
        return result

    def prepared_brand(
        self, expr: Expression | None, helper: FuncItem, call: CallExpr | None, method: bool = False
    ) -> str | None:
        """The kernel a helper's (or, with `method`, an instance method's) returned expression prepares a launch
        for (`calls.returned_prepared`, the CLI's `prepared_brand`): `saxpy.prepare(...)` of a kernel of the
        module, or `kernel.prepare(...)` of a parameter the helper never rebinds and `call` binds to a kernel;
        None for anything else."""
        if not (isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr)):
            return None
        if expr.callee.name != PREPARE_METHOD:
            return None
        target = expr.callee.expr
        if isinstance(target, NameExpr) and target.name in {arg.variable.name for arg in helper.arguments}:
            passed = _bind_call(helper, call, method).get(target.name) if call is not None else None
            stored = _rebound_names(helper)
            kernel = self.ctx.kernel(passed) if passed is not None and target.name not in stored else None
        else:
            kernel = self.ctx.kernel(target)
        return kernel.name if kernel is not None else None

    def bind_partial(self, node: CallExpr, name: str) -> ir.Value:
        """`name = functools.partial(target, a, k=b)` (the CLI's `bind_partial`): reads `partial` and `target`,
        evaluates the bound arguments in order and keeps each in its slot of `name`."""
        self.expr(node.callee)
        self.expr(node.args[0])
        slots: list[ir.Place] = []
        values: list[ir.Value] = []
        positional = [a for a, k in zip(node.args[1:], node.arg_kinds[1:], strict=True) if k == ARG_POS]
        keywords = [(key, a) for a, k, key in zip(node.args, node.arg_kinds, node.arg_names, strict=True)
                    if k == ARG_NAMED and key is not None]
        for index, arg in enumerate(positional):
            values.append(self.value(arg))
            slots.append(callables.partial_slot(self.name(name), index, tree.dotted(arg)))
        for key, arg in keywords:
            values.append(self.value(arg))
            slots.append(callables.partial_slot(self.name(name), key, tree.dotted(arg)))
        callables.bind_partial(slots, values, span_of(node), self)
        return ir.Fresh()

    def partial_operands(self, callee: NameExpr, partial: CallExpr) -> tuple[calls.Operand[Expression], ...]:
        """The bound arguments of the partial `callee` names, as operands naming its slots, read at the call (the
        CLI's `partial_operands`)."""
        name, span = self.partial_slots.get(callee.name, callee.name), span_of(callee)
        out: list[calls.Operand[Expression]] = []
        positional = [a for a, k in zip(partial.args[1:], partial.arg_kinds[1:], strict=True) if k == ARG_POS]
        pairs: list[tuple[int | str, str | None, Expression]] = [(i, None, a) for i, a in enumerate(positional)]
        pairs += [(key, key, a) for a, k, key in zip(partial.args, partial.arg_kinds, partial.arg_names, strict=True)
                  if k == ARG_NAMED and key is not None]
        for key, keyword, arg in pairs:
            slot = callables.partial_slot(self.name(name), key, tree.dotted(arg))
            device = self.is_device_place(arg) or self.expr_is_device(arg)
            out.append(calls.Operand(arg, span, slot, device, keyword=keyword))
        return tuple(out)

    def closure_of(self, name: str, args: Sequence[calls.Operand[Expression]] = ()) -> calls.NonlocalEffects | None:
        """What a call of the nested function `name` does to the caller's values: one defined in this body, or a
        sibling defined in the enclosing body that no local binding shadows; with `args`, also to the defaults the
        call omits (the CLI's `closure_of`)."""
        found = self.closures.get(name)
        if found is None and name not in self.local_names:
            found = self.unit.outer_closures.get(name)
        return parameter_defaults.with_defaults(found, self.defaults.get(name), args)

    def awaited_value(self, node: AwaitExpr, holder: ir.Place | None) -> ir.Value:
        """`await f(...)` runs the call here; `await asyncio.gather(f(a), g(b))` runs each coroutine in turn (the
        CLI's `awaited_value`)."""
        inner = node.expr
        called = self.ctx.names(inner.callee) if isinstance(inner, CallExpr) else ()
        no_delay = isinstance(inner, CallExpr) and bool(inner.args) and _zero_literal(inner.args[0])
        callables.suspend(called, no_delay, span_of(node), self)
        task = self.task_call(inner)
        if task is not None:
            # `await first` of `first = asyncio.create_task(submit(...))`: the coroutine's call runs here
            self.awaited.add(id(task))
            return callables.awaited_task(lambda: self.value(task, holder), span_of(task), span_of(node), self)
        if not isinstance(inner, CallExpr):
            self.expr(inner)
            return ir.Fresh()
        if (
            any(name in callables.GATHER_FUNCTIONS for name in self.ctx.names(inner.callee))
            and inner.args
            and all(kind == ARG_POS for kind in inner.arg_kinds)
        ):
            self.expr(inner.callee)
            self.awaited.update(id(a) for a in inner.args if isinstance(a, CallExpr))
            return callables.lower_gathered([(a, span_of(a)) for a in inner.args], self)
        self.awaited.add(id(inner))
        return self.value(inner, holder)

    def task_call(self, expr: Expression) -> CallExpr | None:
        """The coroutine call of the task `expr` names, when this function awaits it once (the CLI's)."""
        if not isinstance(expr, NameExpr):
            return None
        if self.tasks is None:
            unit = self.unit.node
            self.tasks = (
                {}
                if isinstance(unit, MypyFile | LambdaExpr)
                else _task_calls(unit.body.body, _params(unit), self.ctx.names)
            )
        return self.tasks.get(expr.name)

    def moving_callable(self, function: Expression) -> bool:
        """Whether a callable value moves what it is called with (the CLI's `moving_callable`)."""
        first_name = self.ctx.names(function)[:1]
        function_name = first_name[0] if first_name and resolve.is_safekernels(first_name[0]) else None
        return callables.moves_items(function_name, self.ctx.kernel(function))

    def higher_order_call(self, node: CallExpr, holder: ir.Place | None) -> ir.Value | None:
        """`functools.reduce(sk.zip, ops)` of a callable that moves its arguments (the CLI's
        `higher_order_call`)."""
        if not any(name in callables.HIGHER_ORDER_FUNCTIONS for name in self.ctx.names(node.callee)):
            return None
        if not 2 <= len(node.args) <= 3 or any(kind != ARG_POS for kind in node.arg_kinds):
            return None
        function, iterable, *initial = node.args
        if not self.moving_callable(function):
            return self.folded_call(node)
        spread = self.operand(iterable, star=True).items
        if spread is None:
            return None
        items = (*spread, *(self.operand(a) for a in initial))
        return callables.apply_to_items(
            node, span_of(node), (node.callee, function, iterable, *initial), items, holder, True, self
        )

    def folded_call(self, node: CallExpr) -> ir.Value | None:
        """`functools.reduce(f, items[, init])` of a lambda or a function of the module the checker follows: `acc =
        f(acc, item)` per item, `f`'s call summary applied at each step (the CLI's `folded_call`)."""
        found = next((f for n in self.ctx.names(node.callee)
                      if (f := stdlib_flow.folds(n, len(node.args), 0)) is not None), None)
        if found is None or any(kind != ARG_POS for kind in node.arg_kinds):
            return None
        function, iterable, *initial = node.args
        callee: FuncItem | None = None
        target: Expression = function
        bound: tuple[calls.Operand[Expression], ...] = ()
        if isinstance(function, CallExpr) and self.partial_call(function) and all(
            kind == ARG_POS for kind in function.arg_kinds
        ):
            # `functools.reduce(functools.partial(fold, stream), items, init)` (the CLI's rule)
            target, bound = function.args[0], tuple(self.operand(a) for a in function.args[1:])
        if isinstance(target, LambdaExpr):
            callee = target
        elif isinstance(target, NameExpr):
            callee = self.helper(target)
        if callee is None or not self.ctx.classes.runs_when_called(callee):
            return None
        nested = isinstance(target, LambdaExpr) or id(callee) in self.helpers or id(callee) in self.lambdas
        span = span_of(node)
        folded = callee

        def step(acc: calls.Operand[Expression], item: calls.Operand[Expression]) -> None:
            applied = applied_callee(self, folded, nested, (*bound, acc, item), span)
            if applied is not None:
                apply_summary(applied, node, span, self)

        items = self.operand(iterable, star=True).items
        source = self.iteration_source(iterable) if items is None else None
        return stdlib_flow.lower_fold(
            node, span, (node.callee, function, iterable, *initial), self.operand(initial[0]) if initial else None,
            items, source, self.expr_is_device(iterable), step, self,
        )

    def mapped_call(self, node: CallExpr, holder: ir.Place | None = None) -> ir.Value | None:
        """`list(map(f, [x, y]))` of a lambda or a function the checker follows (the CLI's `mapped_call`)."""
        inner = node.args[0] if len(node.args) == 1 and node.arg_kinds[0] == ARG_POS else None
        if not (isinstance(inner, CallExpr) and len(inner.args) == 2 and self.builtin(inner.callee) == "map"):
            return None
        if self.builtin(node.callee) not in callables.MAP_CONSUMERS:
            return None
        if inner.arg_kinds != [ARG_POS, ARG_POS]:
            return None
        function, items_node = inner.args
        callee: FuncItem | None = None
        if isinstance(function, LambdaExpr):
            callee = function
        elif isinstance(function, NameExpr):
            callee = self.helper(function)
        if callee is None and self.moving_callable(function):
            # `list(map(scale, parts))` of a callable the ownership table knows (the CLI's rule)
            spread = self.operand(items_node, star=True).items
            if spread is None:
                return None
            evaluated = (node.callee, inner.callee, function, items_node)
            return callables.apply_to_items(node, span_of(node), evaluated, spread, holder, False, self)
        display = self.literal_display(items_node)
        items = callables.mapped_items(None if display is None else [self.operand(item) for item in display])
        if callee is None or items is None or not self.ctx.classes.runs_when_called(callee):
            return None
        self.expr(node.callee)
        self.expr(inner.callee)
        self.expr(function)
        self.expr(items_node)
        nested = isinstance(function, LambdaExpr) or id(callee) in self.helpers or id(callee) in self.lambdas
        for item in items:
            applied = applied_callee(self, callee, nested, (item,), span_of(node))
            if applied is not None:
                apply_summary(applied, node, span_of(node), self)
        return ir.Fresh()

    def starmapped_call(self, node: CallExpr) -> ir.Value | None:
        """`list(itertools.starmap(f, rows))` / `list(map(f, rows))` of a partial, a launch or a function of the
        module, over known rows: one call `f(*row)` / `f(row)` per row at the consuming call (the CLI's
        `starmapped_call`)."""
        inner = node.args[0] if len(node.args) == 1 and node.arg_kinds[0] == ARG_POS else None
        if not isinstance(inner, CallExpr) or self.builtin(node.callee) not in callables.MAP_CONSUMERS:
            return None
        spread = any(n in callables.STARMAP_FUNCTIONS for n in self.ctx.names(inner.callee))
        if not (spread or self.builtin(inner.callee) == "map") or inner.arg_kinds != [ARG_POS, ARG_POS]:
            return None
        function, items = inner.args
        if isinstance(function, NameExpr):
            found = self.helper(function)
            if function.name not in self.partials and not (
                isinstance(found, FuncDef) and self.ctx.classes.runs_when_called(found)
            ):
                return None
        elif not (isinstance(function, MemberExpr) and self.ctx.kernel(function.expr) is not None):
            return None
        rows = self.spread_arguments(items, spread, inner)
        if rows is None:
            return None
        self.expr(node.callee)
        self.expr(inner.callee)
        self.expr(items)
        for args, kinds in rows:
            call = CallExpr(function, args, kinds, [None] * len(args))
            call.set_line(inner)
            self.expr(call)
        return ir.Fresh()

    def spread_arguments(
        self, items: Expression, spread: bool, at: Expression
    ) -> list[tuple[list[Expression], list[ArgKind]]] | None:
        """The argument lists of the calls `starmapped_call` lowers, one per row (the CLI's `spread_arguments`)."""
        display = self.literal_display(items)
        if display is not None:
            if spread:
                inner = [self.literal_display(row) for row in display]
                if any(row is None or any(self.place(e) is None for e in row) for row in inner):
                    return None
                return [(list(row), [ARG_POS] * len(row)) for row in inner if row is not None]
            if any(self.place(row) is None for row in display):
                return None
            return [([row], [ARG_POS]) for row in display]
        if not isinstance(items, NameExpr) or items.name not in self.containers or items.name not in self.lengths:
            return None
        container = self.containers[items.name]
        if container.mapping:
            return None
        lengths = dict(container.inner)
        rows = callables.spread_rows([lengths.get(i) for i in range(len(container.keys))], spread)
        if rows is None:
            return None
        out: list[tuple[list[Expression], list[ArgKind]]] = []
        for index, spreads in rows:
            key = IntExpr(index)
            key.set_line(at)
            item = IndexExpr(items, key)
            item.set_line(at)
            out.append(([item], [ARG_STAR if spreads else ARG_POS]))
        return out

    def returns_op(self, callee: FuncItem) -> bool:
        """Whether every `return` of `callee` gives a lazy op (`calls.returns_op`), for `AppliedSummary.returns_op`."""
        return calls.returns_op([self.launch_of(c) for c in _returned_calls(callee)])

    def returned_op_site(self, callee: FuncItem) -> Span | None:
        """Where `callee` builds the op its `return`s give, when that is one line (`AppliedSummary.op_built`)."""
        return one_line_site([span_of(c) if c is not None else None for c in _returned_calls(callee)])

    def launch_of(self, node: CallExpr | None) -> tuple[resolve.KernelInfo | None, str | None] | None:
        """`(kernel, method)` of a call that may launch (`k(...)`, `k.launch_async(...)`), for `calls.returns_op`."""
        if node is None:
            return None
        if isinstance(node.callee, MemberExpr):
            return self.ctx.kernel(node.callee.expr), node.callee.name
        return self.ctx.kernel(node.callee), None


def lower(unit: Unit, ctx: FileContext) -> Lowered:
    """The IR of one unit, with the origin of every cause operation."""
    tree.forget_walks()
    lowerer = FunctionLowerer(ctx, unit)
    function = lowerer.lower()
    return Lowered(function, lowerer.origins)


def device_names(unit: Unit, ctx: FileContext, nested: Node | None = None) -> frozenset[str]:
    """The device-like names a unit hands down to `nested`, a function or lambda defined in its body: the names as
    they stand where it is defined, after what the body's statements before it made device values (an object a
    constructor call built with device fields, `h = Bufs(a, b, c)`; an op a helper returned), as the CLI hands
    them down while it lowers the body.  Without `nested` (or where the lowering does not reach it), the prepass
    result."""
    lowerer = FunctionLowerer(ctx, unit)
    if nested is not None:
        lowerer.lower()
        found = lowerer.def_device.get(id(nested))
        if found is not None:
            return found
        lowerer = FunctionLowerer(ctx, unit)
    node = unit.node
    if isinstance(node, MypyFile):
        lowerer.prepass(node.defs, None)
    else:
        lowerer.prepass(node.body.body, node)
    return frozenset(lowerer.device)


def _loop_target(expr: Expression) -> callables.LoopTarget:
    """A `for` target as `callables.item_sources` reads it (the CLI's `_loop_target`)."""
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, TupleExpr | ListExpr):
        return tuple(_loop_target(e) for e in expr.items)
    return None
