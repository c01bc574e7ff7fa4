"""The adapter: mypy's semantically analyzed AST of one function (or module top level) -> the core's flow IR.

It lowers exactly as the libcst front end does (`ownership_check.frontend.lowering`, same operations, same order,
same spans), because both front ends must report the same diagnostics on the same code; the differences are only
in how names are resolved.  mypy already resolved every name, so the adapter reads its answers
(`RefExpr.fullname`, `NameExpr.node`, analyzed kernel signatures; see `resolve`) instead of an import table.  It
never reads expression *types*: it runs from inside a call hook, before the statements after that call have been
type checked.

Compiled mypy forbids subclassing its AST visitors, so this is a plain `isinstance` walk in evaluation order.
Which call does what to ownership comes from `safekernels.ownership_model`; whether that is an error is the core's
business.

Besides the IR, the adapter records which call (or subscript) expression produced each *cause* operation: a move,
a borrow, a brand check, an unsafe requirement, an element access.  The hook of a call reports exactly the
diagnostics caused there (see `reporting`), so each diagnostic has one owner, however many hooks fire in the
function and however often mypy re-checks it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    AssertStmt,
    AssignmentExpr,
    AssignmentStmt,
    Block,
    BreakStmt,
    BytesExpr,
    CallExpr,
    ClassDef,
    ComplexExpr,
    ConditionalExpr,
    ContinueStmt,
    Decorator,
    DelStmt,
    DictionaryComprehension,
    EllipsisExpr,
    Expression,
    ExpressionStmt,
    FloatExpr,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    IfStmt,
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
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    RaiseStmt,
    ReturnStmt,
    SetComprehension,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    UnaryExpr,
    WhileStmt,
    WithStmt,
)
from mypy.patterns import AsPattern, StarredPattern, ValuePattern
from mypy.types import Instance, Type, TypeAliasType, UnionType, get_proper_type

from mypy_plugin import resolve, tree
from ownership_check.core import ir
from ownership_check.core.messages import move_help
from ownership_check.diagnostics import Span
from safekernels.ownership_model import (
    DEVICE_ANNOTATIONS,
    DEVICE_DECORATOR,
    DISTINCT_MOVING_METHODS,
    MOVING_ARGUMENT_CALLS,
    MOVING_METHODS,
    PREPARE_METHOD,
    SHARED_ARRAY_CONSTRUCTOR,
    SIMT_LAUNCH_METHODS,
    UNSAFE_CONTEXT,
    UNSAFE_OPERATIONS,
    WITNESS_CONSUMERS,
    ParamMode,
)

_LITERALS = (StrExpr, BytesExpr, IntExpr, FloatExpr, ComplexExpr, EllipsisExpr)


def span_of(node: Node) -> Span:
    """mypy positions (1-based lines, 0-based columns, exclusive end) as the diagnostics model's 1-based span."""
    line = max(node.line, 1)
    column = max(node.column, 0) + 1
    end_line = node.end_line if node.end_line is not None else line
    end_column = node.end_column + 1 if node.end_column is not None else column + 1
    if (end_line, end_column) <= (line, column):
        end_line, end_column = line, column + 1
    return Span(line, column, end_line, end_column)


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


@dataclass
class Lowered:
    """One unit's IR plus, for each cause span, the call (or subscript) expression that produced it."""

    function: ir.Function
    origins: dict[Span, Node] = field(default_factory=dict)


class FileContext:
    """Name resolution for one module (mypy did the work; this only reads it through the module's imports)."""

    def __init__(self, module: MypyFile, path: str) -> None:
        self.module = module
        self.path = path
        self.imports = resolve.import_table(module)

    def kernel(self, expr: Expression) -> resolve.KernelInfo | None:
        return resolve.kernel_of(expr)

    def refers_to(self, expr: Expression, table_name: str) -> bool:
        return resolve.refers_to(expr, self.imports, table_name)

    def is_safekernels(self, expr: Expression) -> bool:
        return resolve.refers_to_safekernels(expr, self.imports)

    def decorator_kind(self, decorators: Sequence[Expression]) -> str:
        for dec in decorators:
            track = resolve.decorator_track(dec)
            if track is not None:
                return track
            target = dec.callee if isinstance(dec, CallExpr) else dec
            if self.refers_to(target, DEVICE_DECORATOR):
                return "device"
        return "function"


def _type_is_device(typ: Type | None) -> bool:
    """Whether an analyzed annotation mentions one of the device classes (as the libcst front end reads text)."""
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
            if current.type.name in DEVICE_ANNOTATIONS:
                return True
            stack.extend(current.args)
        elif isinstance(current, UnionType):
            stack.extend(current.items)
    return False


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


def _int_literal(expr: Expression | None) -> int | None:
    if isinstance(expr, IntExpr):
        return expr.value
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        inner = _int_literal(expr.expr)
        return -inner if inner is not None else None
    return None


def _params(func: FuncItem) -> list[str]:
    return [arg.variable.name for arg in func.arguments]


class FunctionLowerer:
    def __init__(self, ctx: FileContext, unit: Unit) -> None:
        self.ctx = ctx
        self.unit = unit
        self.kernel_body = unit.kind in ("simt", "device")
        self.scopes: list[list[ir.Op]] = [[]]
        self.renames: list[dict[str, str]] = []
        self.group = 0
        self.tmp = 0
        self.local_names: set[str] = set()
        self.device: set[str] = set()
        self.origins: dict[Span, Node] = {}

    # --- plumbing --------------------------------------------------------------------------------------------

    def emit(self, op: ir.Op, origin: Node | None = None) -> None:
        if origin is not None:
            span = getattr(op, "span", None)
            if isinstance(span, Span):
                self.origins.setdefault(span, origin)
        self.scopes[-1].append(op)

    def block(self, build: Callable[[], None]) -> ir.Block:
        self.scopes.append([])
        try:
            build()
        finally:
            ops = self.scopes.pop()
        return tuple(ops)

    def name(self, raw: str) -> str:
        for renames in reversed(self.renames):
            if raw in renames:
                return renames[raw]
        return raw

    def place(self, expr: Expression) -> ir.Place | None:
        if isinstance(expr, NameExpr):
            renamed = self.name(expr.name)
            return ir.Place(renamed, (), expr.name if renamed != expr.name else None)
        if isinstance(expr, MemberExpr):
            parts: list[str] = []
            cur: Expression = expr
            while isinstance(cur, MemberExpr):
                parts.append(cur.name)
                cur = cur.expr
            if isinstance(cur, NameExpr):
                root = self.name(cur.name)
                attrs = tuple(reversed(parts))
                display = ".".join((cur.name, *attrs)) if root != cur.name else None
                return ir.Place(root, attrs, display)
        return None

    def temp(self, display: str) -> ir.Place:
        self.tmp += 1
        return ir.Place(f"$t{self.tmp}", (), display)

    def next_group(self) -> int:
        self.group += 1
        return self.group

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
            if isinstance(func, MemberExpr):
                method = func.name
                if method in DISTINCT_MOVING_METHODS or method == "split_at":
                    return True
                if self.ctx.kernel(func.expr) is not None:
                    return True
                return self.expr_is_device(func.expr) and (
                    method in MOVING_METHODS or method in ("view", "to_numpy", "load")
                )
            return False
        if isinstance(expr, IndexExpr):
            return self.expr_is_device(expr.base)
        if isinstance(expr, TupleExpr | ListExpr):
            return any(self.expr_is_device(i.expr if isinstance(i, StarExpr) else i) for i in expr.items)
        if isinstance(expr, ConditionalExpr):
            return self.expr_is_device(expr.if_expr) or self.expr_is_device(expr.else_expr)
        if isinstance(expr, AssignmentExpr):
            return self.expr_is_device(expr.value)
        return False

    def prepass(self, body: Sequence[Statement], func: FuncItem | None) -> None:
        if func is not None:
            signature = func.type
            arg_types = getattr(signature, "arg_types", None)
            for index, param in enumerate(_params(func)):
                self.local_names.add(param)
                typ = arg_types[index] if arg_types is not None and index < len(arg_types) else None
                annotated = func.arguments[index].type_annotation is not None
                if annotated and _type_is_device(typ):
                    self.device.add(param)
        pairs: list[tuple[list[str], Expression]] = []
        mentioned: set[str] = set()
        for node in tree.walk_many(list(body)):
            if isinstance(node, NameExpr):
                mentioned.add(node.name)
            elif isinstance(node, AssignmentStmt):
                names = [n for t in node.lvalues for n in _target_texts(t)]
                if node.unanalyzed_type is not None and _type_is_device(node.type):
                    self.device.update(names)
                if not isinstance(node.rvalue, TempNode):
                    pairs.append((names, node.rvalue))
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
        for names, _ in pairs:
            self.local_names.update(n for n in names if "." not in n)
        candidates = self.unit.outer_candidates
        if candidates is None or (candidates and not candidates.isdisjoint(mentioned | self.local_names)):
            self.device.update(self.unit.outer_device())
        for _ in range(4):
            before = len(self.device)
            for names, value in pairs:
                if self.expr_is_device(value):
                    self.device.update(names)
            if len(self.device) == before:
                break

    def is_device_place(self, expr: Expression) -> bool:
        text = tree.dotted(expr)
        return text is not None and (text in self.device or text.split(".")[0] in self.device)

    # --- entry point -----------------------------------------------------------------------------------------

    def lower(self) -> ir.Function:
        node = self.unit.node
        if isinstance(node, MypyFile):
            self.prepass(node.defs, None)
            ops = self.block(lambda: self.suite(node.defs))
            return ir.Function("<module>", ops, Span(1, 1, 1, 2), self.ctx.path)
        body = node.body.body
        self.prepass(body, node)
        ops = self.block(lambda: self.suite(body))
        name = node.name if isinstance(node, FuncDef) else "<lambda>"
        return ir.Function(name, ops, span_of(node), self.ctx.path)

    # --- statements ------------------------------------------------------------------------------------------

    def suite(self, body: Sequence[Statement] | Block | None) -> None:
        if body is None:
            return
        for stmt in body.body if isinstance(body, Block) else body:
            self.stmt(stmt)

    def stmt(self, node: Statement) -> None:
        if isinstance(node, ExpressionStmt):
            self.expr(node.expr)
        elif isinstance(node, AssignmentStmt):
            if not isinstance(node.rvalue, TempNode):
                self.assign(node.lvalues, node.rvalue)
        elif isinstance(node, OperatorAssignmentStmt):
            self.expr(node.rvalue)
            self.expr(node.lvalue)
        elif isinstance(node, ReturnStmt):
            if node.expr is not None:
                self.expr(node.expr)
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
        self.expr(node.expr[index])
        body = self.block(lambda: self.suite(node.body[index]))
        if index + 1 < len(node.expr):
            orelse = self.block(lambda: self.if_stmt(node, index + 1))
        else:
            orelse = self.block(lambda: self.suite(node.else_body))
        self.emit(ir.Branch((body, orelse), span_of(node.expr[index])))

    def while_stmt(self, node: WhileStmt) -> None:
        head = self.block(lambda: self.expr(node.expr))
        body = self.block(lambda: self.suite(node.body))
        orelse = self.block(lambda: self.suite(node.else_body))
        infinite = isinstance(node.expr, NameExpr) and node.expr.name == "True"
        self.emit(ir.Loop(head, body, orelse, span_of(node.expr), infinite))

    def for_stmt(self, node: ForStmt) -> None:
        self.expr(node.expr)
        head = self.block(lambda: self.bind_target(node.index, ir.Fresh(), node.index))
        body = self.block(lambda: self.suite(node.body))
        orelse = self.block(lambda: self.suite(node.else_body))
        self.emit(ir.Loop(head, body, orelse, span_of(node.index)))

    def try_stmt(self, node: TryStmt) -> None:
        body = self.block(lambda: self.suite(node.body))
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
        unsafe = False
        for item, target in zip(node.expr, node.target, strict=True):
            if isinstance(item, CallExpr) and self.ctx.refers_to(item.callee, UNSAFE_CONTEXT):
                unsafe = True
                continue
            self.expr(item)
            if target is not None:
                self.bind_target(target, ir.Fresh(), target)
        body = self.block(lambda: self.suite(node.body))
        if unsafe:
            self.emit(ir.Unsafe(body, span_of(node)))
        else:
            for op in body:
                self.emit(op)

    def match_stmt(self, node: MatchStmt) -> None:
        self.expr(node.subject)
        arms: list[ir.Block] = []
        irrefutable = False
        for pattern, guard, body in zip(node.patterns, node.guards, node.bodies, strict=True):

            def lower_case(p: Node = pattern, g: Expression | None = guard, b: Block = body) -> None:
                for sub in tree.walk(p):
                    if isinstance(sub, AsPattern) and sub.name is not None:
                        self.bind_fresh(ir.Place(self.name(sub.name.name)), sub.name)
                    elif isinstance(sub, StarredPattern) and sub.capture is not None:
                        self.bind_fresh(ir.Place(self.name(sub.capture.name)), sub.capture)
                    elif isinstance(sub, ValuePattern):
                        self.expr(sub.expr)
                if g is not None:
                    self.expr(g)
                self.suite(b)

            arms.append(self.block(lower_case))
            if guard is None and isinstance(pattern, AsPattern) and pattern.pattern is None:
                irrefutable = True
        if not irrefutable:
            arms.append(())
        self.emit(ir.Branch(tuple(arms), span_of(node.subject)))

    def function_def(self, node: FuncDef | Decorator | OverloadedFuncDef) -> None:
        if isinstance(node, Decorator):
            for dec in node.original_decorators:
                self.expr(dec)
            func: FuncItem | None = node.func
        elif isinstance(node, FuncDef):
            func = node
        else:
            func = None
        if func is not None:
            for arg in func.arguments:
                if arg.initializer is not None:
                    self.expr(arg.initializer)
            if self.unit.kind != "module":
                self.captures(func, set(_params(func)))
        self.bind_fresh(ir.Place(self.name(node.name)), node)

    def captures(self, func: FuncItem, params: set[str]) -> None:
        """A nested function or lambda reads the enclosing names it mentions: each counts as a use, here."""
        assigned: set[str] = set(params)
        for sub in tree.walk(func.body, skip_scopes=False):
            if isinstance(sub, AssignmentStmt) and sub.unanalyzed_type is None:
                for lvalue in sub.lvalues:
                    assigned.update(_target_names(lvalue))
        seen: set[str] = set()
        for sub in tree.walk(func.body, skip_scopes=False):
            mentions: list[tuple[str, Span]] = []
            if isinstance(sub, NameExpr):
                mentions.append((sub.name, span_of(sub)))
            elif isinstance(sub, MemberExpr):
                mentions.append((sub.name, attr_span(sub)))
            elif isinstance(sub, FuncDef | ClassDef) and sub is not func:
                mentions.append((sub.name, span_of(sub)))
            for raw, span in mentions:
                name = self.name(raw)
                if raw in assigned or name in seen or (name == raw and raw not in self.local_names):
                    continue
                seen.add(name)
                self.emit(ir.Use(ir.Place(name, (), raw if name != raw else None), span))

    # --- assignment ------------------------------------------------------------------------------------------

    def bind_fresh(self, place: ir.Place, node: Node, kind: str = "value") -> None:
        self.emit(ir.Bind((place,), (ir.Fresh(kind),), span_of(node)))

    def bind_target(self, target: Expression, value: ir.Value, node: Node) -> None:
        if isinstance(target, TupleExpr | ListExpr):
            for item in target.items:
                self.bind_target(item, ir.Fresh(), item)
            return
        if isinstance(target, StarExpr):
            self.bind_target(target.expr, ir.Fresh(), target.expr)
            return
        place = self.place(target)
        if place is not None:
            if isinstance(target, MemberExpr):
                self.emit(ir.Use(ir.Place(place.root, (), None), span_of(target.expr)))
            self.emit(ir.Bind((place,), (value,), span_of(node)))
            return
        if isinstance(target, IndexExpr):
            self.subscript(target)
            return
        self.expr(target)

    def assign(self, targets: Sequence[Expression], value: Expression) -> None:
        single = targets[0] if len(targets) == 1 else None
        if (
            isinstance(single, TupleExpr | ListExpr)
            and len(single.items) == 2
            and isinstance(value, CallExpr)
            and isinstance(value.callee, MemberExpr)
            and value.callee.name == "split_at"
        ):
            base = self.place(value.callee.expr)
            if base is not None:
                for arg in value.args:
                    self.expr(arg)
                site = self.next_group()
                for index, item in enumerate(single.items):
                    tgt = self.place(item)
                    if tgt is not None:
                        self.emit(ir.View(tgt, base, ir.Half(site, index), span_of(value)))
                    else:
                        self.bind_target(item, ir.Fresh(), item)
                return
        if (
            isinstance(single, TupleExpr | ListExpr)
            and isinstance(value, TupleExpr | ListExpr)
            and len(single.items) == len(value.items)
            and not any(isinstance(e, StarExpr) for e in (*single.items, *value.items))
        ):
            values = [self.value(item) for item in value.items]
            places = [self.place(item) for item in single.items]
            pairs = [(p, v) for p, v in zip(places, values, strict=True) if p is not None]
            if pairs:
                self.emit(ir.Bind(tuple(p for p, _ in pairs), tuple(v for _, v in pairs), span_of(single)))
            for place, item in zip(places, single.items, strict=True):
                if place is None:
                    self.bind_target(item, ir.Fresh(), item)
            return
        holder = self.place(single) if isinstance(single, NameExpr) else None
        val = self.value(value, holder)
        for target in targets:
            self.bind_target(target, val, target)

    def value(self, expr: Expression, holder: ir.Place | None = None) -> ir.Value:
        """Lower an expression whose result is bound to a name: an alias, a view or a fresh object."""
        place = self.place(expr)
        if place is not None:
            return ir.FromPlace(place, span_of(expr))
        if isinstance(expr, AssignmentExpr):
            inner = self.value(expr.value, self.place(expr.target))
            self.bind_target(expr.target, inner, expr.target)
            target = self.place(expr.target)
            return ir.FromPlace(target, span_of(expr.target)) if target is not None else ir.Fresh()
        view = self.view_of(expr)
        if view is not None:
            tmp = self.temp(view[0].text)
            self.emit(ir.View(tmp, view[0], view[1], span_of(expr)))
            return ir.FromPlace(tmp, span_of(expr))
        if isinstance(expr, ConditionalExpr):
            self.expr(expr.cond)
            tmp = self.temp("value")
            yes, no = expr.if_expr, expr.else_expr
            body = self.block(lambda: self.emit(ir.Bind((tmp,), (self.value(yes),), span_of(yes))))
            orelse = self.block(lambda: self.emit(ir.Bind((tmp,), (self.value(no),), span_of(no))))
            self.emit(ir.Branch((body, orelse), span_of(expr.cond)))
            return ir.FromPlace(tmp, span_of(expr))
        if isinstance(expr, CallExpr):
            return self.call(expr, holder)
        self.expr(expr)
        return ir.Fresh()

    def view_of(self, expr: Expression) -> tuple[ir.Place, ir.Region] | None:
        """`c.view(a, b)` or `c[a:b]` of a device-like place: the base and the region it covers."""
        if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name == "view":
            base = self.place(expr.callee.expr)
            if base is None or not self.is_device_place(expr.callee.expr):
                return None
            for arg in expr.args:
                self.expr(arg)
            bounds = [_int_literal(a) for a, k in zip(expr.args, expr.arg_kinds, strict=True) if k == ARG_POS]
            if len(bounds) == 2 and bounds[0] is not None and bounds[1] is not None:
                return base, ir.Range(bounds[0], bounds[1])
            return base, ir.Whole()
        if isinstance(expr, IndexExpr) and isinstance(expr.index, SliceExpr):
            sl = expr.index
            base = self.place(expr.base)
            if base is None or not self.is_device_place(expr.base):
                return None
            for part in (sl.begin_index, sl.end_index, sl.stride):
                if part is not None:
                    self.expr(part)
            lo = 0 if sl.begin_index is None else _int_literal(sl.begin_index)
            hi = _int_literal(sl.end_index) if sl.end_index is not None else None
            if sl.stride is None and lo is not None and lo >= 0 and (
                sl.end_index is None or (hi is not None and hi >= 0)
            ):
                return base, ir.Range(lo, hi)
            return base, ir.Whole()
        return None

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

    def expr(self, expr: Expression) -> None:
        if isinstance(expr, NameExpr | MemberExpr):
            if not self.use(expr) and isinstance(expr, MemberExpr):
                self.expr(expr.expr)
        elif isinstance(expr, CallExpr):
            self.call(expr, None)
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
            self.captures(expr, set(_params(expr)))
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

    def comprehension(
        self, expr: GeneratorExpr | ListComprehension | SetComprehension | DictionaryComprehension
    ) -> None:
        gen: GeneratorExpr | DictionaryComprehension = (
            expr.generator if isinstance(expr, ListComprehension | SetComprehension) else expr
        )
        self.expr(gen.sequences[0])
        renames: dict[str, str] = {}
        self.renames.append(renames)
        try:
            self._comp_for(gen, 0, renames)
        finally:
            self.renames.pop()

    def _comp_for(self, gen: GeneratorExpr | DictionaryComprehension, index: int, renames: dict[str, str]) -> None:
        if index > 0:
            self.expr(gen.sequences[index])
        self.tmp += 1
        target = gen.indices[index]
        for raw in _target_names(target):
            renames[raw] = f"{raw}$c{self.tmp}"
        head = self.block(lambda: self.bind_target(target, ir.Fresh(), target))

        def body() -> None:
            for cond in gen.condlists[index]:
                self.expr(cond)
            if index + 1 < len(gen.indices):
                self._comp_for(gen, index + 1, renames)
            elif isinstance(gen, DictionaryComprehension):
                if gen.key is not None:
                    self.expr(gen.key)
                self.expr(gen.value)
            else:
                self.expr(gen.left_expr)

        self.emit(ir.Loop(head, self.block(body), (), span_of(target)))

    # --- calls -----------------------------------------------------------------------------------------------

    def call(self, node: CallExpr, holder: ir.Place | None) -> ir.Fresh:
        func = node.callee
        kernel = self.ctx.kernel(func)
        if kernel is not None and kernel.track == "tile":
            self.launch_args(node, list(range(len(node.args))), kernel, None, None)
            return ir.Fresh("op")
        if isinstance(func, MemberExpr):
            method = func.name
            receiver = func.expr
            recv_kernel = self.ctx.kernel(receiver)
            if recv_kernel is not None and method in SIMT_LAUNCH_METHODS:
                return self.simt_launch(node, func, method, recv_kernel, holder)
            if recv_kernel is not None and method == PREPARE_METHOD:
                for arg in node.args:
                    self.expr(arg)
                return ir.Fresh("prepared", brand=recv_kernel.name)
            if method in UNSAFE_OPERATIONS and method != "shared_array":
                self.receiver(receiver)
                for arg in node.args:
                    self.expr(arg)
                self.emit(ir.RequireUnsafe(method, span_of(node)), node)
                return ir.Fresh()
            if method in WITNESS_CONSUMERS and self.kernel_body:
                return self.get_mut(node, receiver, holder)
            recv_place = self.place(receiver)
            moving = method in DISTINCT_MOVING_METHODS or (
                method in MOVING_METHODS and self.is_device_place(receiver)
            )
            if moving and recv_place is not None and not self.ctx.is_safekernels(receiver):
                self.call_args(node, move_places=method in MOVING_ARGUMENT_CALLS)
                kind = {"sync_on": "sync_on", "sync": "sync_on", "partition": "partition",
                        "unpartition": "unpartition"}.get(method, "combinator")
                self.emit(ir.Move(recv_place, span_of(receiver), move_help(kind)), node)
                return ir.Fresh("op" if kind == "combinator" else "value")
            if method == "to_numpy" and recv_place is not None:
                self.call_args(node, move_places=False)
                self.emit(ir.Borrow(recv_place, False, self.next_group(), span_of(receiver)), node)
                return ir.Fresh()
        if self.ctx.refers_to(func, SHARED_ARRAY_CONSTRUCTOR):
            for arg in node.args:
                self.expr(arg)
            self.emit(ir.RequireUnsafe("shared_array", span_of(node)), node)
            return ir.Fresh("shared_array")
        if any(
            resolve.is_safekernels(n) and n.rsplit(".", 1)[-1] in MOVING_ARGUMENT_CALLS
            for n in resolve.names(func, self.ctx.imports)[:1]
        ):
            self.call_args(node, move_places=True)
            return ir.Fresh("op")
        if isinstance(func, MemberExpr):
            self.receiver(func.expr)
        else:
            self.expr(func)
        self.call_args(node, move_places=False)
        return ir.Fresh()

    def receiver(self, expr: Expression) -> None:
        if not self.use(expr):
            self.expr(expr)

    def call_args(self, node: CallExpr, move_places: bool) -> None:
        for arg in node.args:
            place = self.place(arg) if move_places else None
            if place is not None and self.is_device_place(arg):
                self.emit(ir.Move(place, span_of(arg), move_help("combinator")), node)
            else:
                self.expr(arg)

    def get_mut(self, node: CallExpr, receiver: Expression, holder: ir.Place | None) -> ir.Fresh:
        slice_place = self.place(receiver)
        for i, arg in enumerate(node.args):
            witness = self.place(arg) if i == 0 else None
            if witness is not None:
                self.emit(ir.Move(witness, span_of(arg), move_help("get_mut")), node)
            else:
                self.expr(arg)
        if slice_place is not None:
            self.emit(ir.Borrow(slice_place, True, self.next_group(), span_of(receiver), holder), node)
        else:
            self.expr(receiver)
        return ir.Fresh("elem")

    def simt_launch(
        self, node: CallExpr, func: MemberExpr, method: str, kernel: resolve.KernelInfo, holder: ir.Place | None
    ) -> ir.Fresh:
        offset = SIMT_LAUNCH_METHODS[method]
        positional = [i for i, kind in enumerate(node.arg_kinds) if kind == ARG_POS]
        if positional and method != "launch_unchecked":
            prepared = node.args[positional[0]]
            place = self.place(prepared)
            if place is not None:
                self.emit(ir.CheckBrand(place, kernel.name, span_of(prepared), attr_span(func)), node)
            else:
                self.expr(prepared)
        elif positional:
            self.expr(node.args[positional[0]])
        for extra in positional[1:offset]:
            self.expr(node.args[extra])
        if method == "launch_unchecked":
            self.emit(ir.RequireUnsafe("launch_unchecked", span_of(node)), node)
        group = self.next_group()
        taken = set(positional[:offset])
        rest = [i for i in range(len(node.args)) if i not in taken]
        self.launch_args(node, rest, kernel, group, holder if method == "launch_async" else None)
        return ir.Fresh("op" if method == "launch_async" else "value")

    def launch_args(
        self, node: CallExpr, indexes: Sequence[int], kernel: resolve.KernelInfo, group: int | None,
        holder: ir.Place | None,
    ) -> None:
        modes = dict(kernel.params)
        names = [name for name, _ in kernel.params]
        if group is None:
            group = self.next_group()
        position = 0
        for index in indexes:
            arg, kind, keyword = node.args[index], node.arg_kinds[index], node.arg_names[index]
            if kind in (ARG_STAR, ARG_STAR2):
                self.expr(arg)
                continue
            if kind == ARG_NAMED and keyword is not None:
                mode = modes.get(keyword, ParamMode.VALUE)
            else:
                mode = modes.get(names[position], ParamMode.VALUE) if position < len(names) else ParamMode.VALUE
                position += 1
            self.launch_arg(node, arg, mode, group, holder)

    def launch_arg(
        self, node: CallExpr, value: Expression, mode: ParamMode, group: int, holder: ir.Place | None
    ) -> None:
        if mode is ParamMode.MOVE:
            place = self.place(value)
            if place is not None:
                self.emit(ir.Move(place, span_of(value), move_help("launch")), node)
            else:
                self.expr(value)
            return
        if mode in (ParamMode.SHARED, ParamMode.MUT):
            mutable = mode is ParamMode.MUT
            place = self.place(value)
            if place is None:
                view = self.view_of(value)
                if view is not None:
                    place = self.temp(view[0].text)
                    self.emit(ir.View(place, view[0], view[1], span_of(value)))
            if place is not None:
                self.emit(ir.Borrow(place, mutable, group, span_of(value), holder), node)
            else:
                self.expr(value)
            return
        self.expr(value)


def lower(unit: Unit, ctx: FileContext) -> Lowered:
    """The IR of one unit, with the origin of every cause operation."""
    lowerer = FunctionLowerer(ctx, unit)
    function = lowerer.lower()
    return Lowered(function, lowerer.origins)


def device_names(unit: Unit, ctx: FileContext) -> frozenset[str]:
    """The device-like names a unit hands down to the functions nested in it (its prepass result)."""
    lowerer = FunctionLowerer(ctx, unit)
    node = unit.node
    if isinstance(node, MypyFile):
        lowerer.prepass(node.defs, None)
    else:
        lowerer.prepass(node.body.body, node)
    return frozenset(lowerer.device)
