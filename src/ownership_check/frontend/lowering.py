"""Lower libcst modules to the flow IR (one `ir.Function` per function body plus one for the module top
level).

Only ownership-relevant facts are emitted, in Python's evaluation order: reads of names (`Use`), aliasing
assignments (`Bind` with `FromPlace`), fresh results, the moves, borrows and brand checks of safekernels calls
(from `safekernels.ownership_model`, never restated here), views, unsafe blocks and control flow.  All borrow
logic lives in the core, and so does what a call means: this module resolves a call (or an assignment, or a `with`
statement), describes it as one of `core.calls`' neutral shapes and lets `core.calls` emit its operations, exactly
as the mypy plugin does.

Which calls are which is decided by qualified names (import bindings + the project index), so `from
safekernels import simt as s`, `import safekernels.tile` and re-exports all work.  Methods that other
libraries also define (`partition`, `sync`, `view`, slicing) only count on values that are *device-like*:
bound, somewhere in the function, from a safekernels call or another device-like value, or parameters
annotated with a safekernels type.  That keeps `line.partition(":")` in a file that happens to import
safekernels silent.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

import libcst as cst
from libcst.metadata import ByteSpanPositionProvider, CodeSpan, MetadataWrapper

from ownership_check.core import calls, ir
from ownership_check.core.checker import nonlocal_effects
from ownership_check.diagnostics import Span
from ownership_check.frontend.prescan import FileSummary, KernelSummary, is_safekernels_name, resolve_local
from ownership_check.frontend.project_index import ProjectIndex
from safekernels.ownership_model import (
    ALIASING_FUNCTIONS,
    DEVICE_ANNOTATIONS,
    SHARED_ARRAY_ANNOTATIONS,
    SHARED_ARRAY_CONSTRUCTOR,
    UNSAFE_CONTEXT,
    launch_form,
)


def ident(name: str) -> str:
    """An identifier as Python binds it: NFKC-normalized (PEP 3131), so `ﬁ` and `fi` are one name."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


def dotted(node: cst.BaseExpression) -> str | None:
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(ident(node.attr.value))
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(ident(node.value))
        return ".".join(reversed(parts))
    return None


def statements(body: cst.BaseSuite | Sequence[cst.BaseStatement]) -> Iterator[cst.CSTNode]:
    """Small and compound statements of a suite, in order."""
    items: Sequence[cst.CSTNode]
    if isinstance(body, cst.IndentedBlock):
        items = body.body
    elif isinstance(body, cst.SimpleStatementSuite):
        items = body.body
    else:
        items = body  # type: ignore[assignment]
    for stmt in items:
        if isinstance(stmt, cst.SimpleStatementLine):
            yield from stmt.body
        else:
            yield stmt


def _byte_spans(module: cst.Module) -> Mapping[cst.CSTNode, CodeSpan]:
    """Byte spans of every node.  Running the provider's code generation directly skips `MetadataWrapper`'s
    visitor pass, which halves the cost; the public path is the fallback if libcst's internals change."""
    provider = ByteSpanPositionProvider()
    try:
        provider._gen_impl(module)
        return cast(Mapping[cst.CSTNode, CodeSpan], provider._computed)
    except AttributeError:  # pragma: no cover - depends on the libcst version
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(ByteSpanPositionProvider)


class FileContext:
    """Positions and name resolution for one file."""

    def __init__(self, source: str, path: str, summary: FileSummary, index: ProjectIndex, module: cst.Module):
        self.path = path
        self.summary = summary
        self.index = index
        self.data = source.encode("utf-8")
        self.ascii = len(self.data) == len(source)
        self.line_starts = [0]
        pos = self.data.find(b"\n")
        while pos != -1:
            self.line_starts.append(pos + 1)
            pos = self.data.find(b"\n", pos + 1)
        self.positions = _byte_spans(module)
        self.toplevel = {ident(s.name.value) for s in module.body if isinstance(s, cst.FunctionDef | cst.ClassDef)}
        self.toplevel |= summary.kernels.keys()  # module-level kernel aliases (`fast_add = vecadd`) too
        # plain module-level functions (local helpers whose returned parameters an argument may evaluate to)
        self.functions = {
            ident(s.name.value): s for s in module.body if isinstance(s, cst.FunctionDef) and not s.decorators
        }
        self._qualified: dict[str, str] = {}

    def _point(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[line]
        if self.ascii:
            return line + 1, offset - start + 1
        return line + 1, len(self.data[start:offset].decode("utf-8", "replace")) + 1

    def span(self, node: cst.CSTNode) -> Span:
        code: CodeSpan | None = self.positions.get(node)
        if code is None:
            return Span(1, 1, 1, 2)
        line, col = self._point(code.start)
        end_line, end_col = self._point(code.start + code.length)
        return Span(line, col, end_line, end_col)

    def qualify(self, node: cst.BaseExpression) -> str | None:
        name = dotted(node)
        if name is None:
            return None
        found = self._qualified.get(name)
        if found is None:
            local = resolve_local(name, self.summary.imports, self.summary.module, self.toplevel)
            if local == name and self.summary.star_imports:
                local = self.index.qualify_star(name, self.summary.star_imports) or local
            found = self.index.resolve(local)
            self._qualified[name] = found
        return found

    def kernel(self, node: cst.BaseExpression) -> tuple[str, KernelSummary] | None:
        qualified = self.qualify(node)
        return self.index.kernel(qualified) if qualified else None

    def is_safekernels(self, node: cst.BaseExpression) -> bool:
        qualified = self.qualify(node)
        return qualified is not None and (qualified == "safekernels" or qualified.startswith("safekernels."))


@dataclass
class Unit:
    """A function body waiting to be lowered."""

    name: str
    node: cst.FunctionDef | cst.Module
    kind: str  # "module" | "function" | "simt" | "tile" | "device"
    outer_device: frozenset[str] = frozenset()
    outer_kernels: Mapping[str, KernelSummary] = field(default_factory=dict)


@dataclass
class _Scope:
    ops: list[ir.Op] = field(default_factory=list)


def _param_names(params: cst.Parameters) -> list[cst.Param]:
    out = [*params.posonly_params, *params.params, *params.kwonly_params]
    if isinstance(params.star_arg, cst.Param):
        out.append(params.star_arg)
    if params.star_kwarg is not None:
        out.append(params.star_kwarg)
    return out


def _target_names(target: cst.BaseExpression) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield ident(target.value)
    elif isinstance(target, cst.Tuple | cst.List):
        for el in target.elements:
            yield from _target_names(el.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_names(target.value)


_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}
_LAYOUT_FIELDS = (
    "whitespace",
    "lpar",
    "rpar",
    "comma",
    "semicolon",
    "header",
    "footer",
    "leading_lines",
    "lines_after",
    "newline",
    "indent",
    "trailing",
    "equal",
    "colon",
    "star",
)


def _kids(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Syntactic children in source order, read straight from the dataclass fields.

    libcst's own `children` property runs its visitor machinery (rebuilding nodes); this is ~8x cheaper and
    skips whitespace, parentheses and punctuation, which never matter for ownership.
    """
    names = _FIELDS.get(type(node))
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(node) if not f.name.startswith(_LAYOUT_FIELDS))
        _FIELDS[type(node)] = names
    for name in names:
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, tuple | list):
            for item in value:
                if isinstance(item, cst.CSTNode):
                    yield item


def _walk(node: cst.CSTNode, skip_scopes: bool = True) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        if skip_scopes and cur is not node and isinstance(cur, cst.FunctionDef | cst.ClassDef | cst.Lambda):
            continue
        stack.extend(reversed(list(_kids(cur))))


def _int_literal(node: cst.BaseExpression | None) -> int | None:
    if node is None:
        return None
    if isinstance(node, cst.Integer):
        try:
            return int(node.value, 0)
        except ValueError:
            return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _int_literal(node.expression)
        return -inner if inner is not None else None
    return None


def _returned_params(func: cst.FunctionDef) -> tuple[str, ...] | None:
    """The parameters a plain function may return (`return y if c else x` -> `y, x`); None when some `return`
    gives anything else (or none returns): then its result is a fresh value to the checker."""
    params = {ident(p.name.value) for p in _param_names(func.params)}
    found: list[str] = []
    returns = 0
    for node in _walk(func.body):
        if not isinstance(node, cst.Return):
            continue
        returns += 1
        stack: list[cst.BaseExpression | None] = [node.value]
        while stack:
            value = stack.pop()
            if isinstance(value, cst.Name) and ident(value.value) in params:
                found.append(ident(value.value))
            elif isinstance(value, cst.IfExp):
                stack.extend((value.orelse, value.body))
            elif isinstance(value, cst.BooleanOperation):
                stack.extend((value.right, value.left))
            else:
                return None
    return tuple(dict.fromkeys(found)) if returns else None


def _bind_call(func: cst.FunctionDef, call: cst.Call) -> dict[str, cst.BaseExpression]:
    """Parameter name -> argument expression, for the arguments a call binds plainly (no `*`/`**`)."""
    names = [ident(p.name.value) for p in (*func.params.posonly_params, *func.params.params)]
    bound: dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(call.args):
        if arg.star:
            break
        if arg.keyword is not None:
            bound[ident(arg.keyword.value)] = arg.value
        elif position < len(names):
            bound[names[position]] = arg.value
    return bound


#: How this front end lowered before the core owned call lowering (see `calls.Dialect`).
DIALECT = calls.Dialect(launch_move_events=calls.GROUP_LAUNCH_MOVES, distinct_methods_move_any_receiver=False)

#: Units whose bodies are kernel code (never host code): no host moves, launches or borrows happen there.
KERNEL_UNIT_KINDS = ("simt", "tile", "device")

#: How deep an operand's expression is followed to the places it may evaluate to (nested conditionals, helpers).
_CHOICE_DEPTH = 6


class FunctionLowerer(calls.PlaceNaming):
    def __init__(self, ctx: FileContext, unit: Unit) -> None:
        super().__init__()
        self.ctx = ctx
        self.unit = unit
        self.kernel_body = unit.kind in KERNEL_UNIT_KINDS
        self.dialect = DIALECT
        self.scopes: list[_Scope] = [_Scope()]
        self.nested: list[Unit] = []
        self.interesting = False
        self.local_names: set[str] = set()
        self.device: set[str] = set(unit.outer_device)
        self.kernels: dict[str, KernelSummary] = dict(unit.outer_kernels)  # kernels defined in this body
        self.helpers: dict[str, cst.FunctionDef] = {}  # plain functions defined in this body
        self.closures: dict[str, calls.NonlocalEffects] = {}  # nested functions that rebind or move `nonlocal`s
        self.containers: dict[str, int] = {}  # names only ever bound to tuple/list displays -> widest display

    # --- plumbing -------------------------------------------------------------------------------------------

    def emit(self, op: ir.Op, origin: cst.BaseExpression | None = None) -> None:
        """Append `op` (`origin`, the causing call, matters only to the mypy plugin's reporting)."""
        if isinstance(op, ir.Move | ir.Borrow | ir.CheckBrand | ir.RequireUnsafe | ir.Produce):
            self.interesting = True
        self.scopes[-1].ops.append(op)

    def lower_expr(self, node: cst.BaseExpression) -> None:
        self.expr(node)

    def block(self, build: Callable[[], None]) -> ir.Block:
        self.scopes.append(_Scope())
        try:
            build()
        finally:
            scope = self.scopes.pop()
        return tuple(scope.ops)

    def span(self, node: cst.CSTNode) -> Span:
        return self.ctx.span(node)

    def place(self, node: cst.BaseExpression) -> ir.Place | None:
        parts: list[str] = []
        cur: cst.BaseExpression = node
        while isinstance(cur, cst.Attribute):
            parts.append(ident(cur.attr.value))
            cur = cur.value
        if isinstance(cur, cst.Name) and not (ident(cur.value) in calls.CONSTANT_NAMES and not parts):
            return self.dotted_place(ident(cur.value), tuple(reversed(parts)))
        return None

    def literal_items(self, node: cst.BaseExpression) -> tuple[cst.BaseExpression, ...] | None:
        """The elements of a tuple/list display of places and literals (`((x, y), (y, x))`), else None."""
        if not isinstance(node, cst.Tuple | cst.List) or not node.elements:
            return None
        items = tuple(el.value for el in node.elements)
        if any(isinstance(el, cst.StarredElement) for el in node.elements):
            return None
        return items if all(self._plain_item(item) for item in items) else None

    def _plain_item(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Tuple | cst.List):
            return all(not isinstance(el, cst.StarredElement) and self._plain_item(el.value) for el in node.elements)
        if isinstance(node, cst.Name | cst.Attribute):
            return self.place(node) is not None or isinstance(node, cst.Name)
        return isinstance(node, cst.SimpleString | cst.Integer | cst.Float)

    # --- device-likeness (a cheap flow-insensitive pre-pass) -----------------------------------------------

    def annotation_is_device(self, annotation: cst.Annotation | None) -> bool:
        """Whether an annotation names a device class: one of safekernels (under any import alias) or one defined
        here; an imported class of another library (`torch.Tensor`, `from torch import Tensor`) is not."""
        if annotation is None:
            return False
        for node in _walk(annotation.annotation):
            imported = isinstance(node, cst.Name) and node.value in self.ctx.summary.imports
            if isinstance(node, cst.Name) and node.value in DEVICE_ANNOTATIONS and not imported:
                return True
            named = isinstance(node, cst.Attribute) and node.attr.value in DEVICE_ANNOTATIONS
            if isinstance(node, cst.Name | cst.Attribute) and (imported or named):
                qualified = self.ctx.qualify(node)  # `DisjointSlice as Out`, `tile.Tensor`
                if qualified is not None and qualified.rsplit(".", 1)[-1] in DEVICE_ANNOTATIONS:
                    if is_safekernels_name(qualified):
                        return True
        return False

    def expr_is_device(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name):
            return node.value in self.device
        if isinstance(node, cst.Attribute):
            text = dotted(node)
            return text is not None and (text in self.device or text.split(".")[0] in self.device)
        if isinstance(node, cst.Call):
            func = node.func
            if self.kernel_of(func) is not None or self.ctx.is_safekernels(func):
                return True
            if isinstance(func, cst.Attribute):
                receiver = func.value
                return calls.method_result_is_device(
                    func.attr.value, self.kernel_of(receiver) is not None, lambda: self.expr_is_device(receiver)
                )
            return False
        if isinstance(node, cst.Subscript):
            return self.expr_is_device(node.value)
        if isinstance(node, cst.Tuple | cst.List):
            return any(self.expr_is_device(el.value) for el in node.elements)
        if isinstance(node, cst.IfExp):
            return self.expr_is_device(node.body) or self.expr_is_device(node.orelse)
        if isinstance(node, cst.NamedExpr):
            return self.expr_is_device(node.value)
        return False

    def prepass(self, body: cst.CSTNode, params: Sequence[cst.Param]) -> None:
        for param in params:
            self.local_names.add(ident(param.name.value))
            if self.annotation_is_device(param.annotation):
                self.device.add(ident(param.name.value))
        pairs: list[tuple[list[str], cst.BaseExpression]] = []
        unsure: set[str] = set()
        launched: list[cst.Call] = []
        for node in _walk(body):
            if isinstance(node, cst.Assign):
                names = [n for t in node.targets for n in self._target_texts(t.target)]
                pairs.append((names, node.value))
            elif isinstance(node, cst.AnnAssign):
                names = list(self._target_texts(node.target))
                if self.annotation_is_device(node.annotation):
                    self.device.update(names)
                if node.value is not None:
                    pairs.append((names, node.value))
            elif isinstance(node, cst.NamedExpr):
                pairs.append((list(self._target_texts(node.target)), node.value))
            elif isinstance(node, cst.For):
                pairs.append((list(self._target_texts(node.target)), node.iter))
            elif isinstance(node, cst.WithItem) and node.asname is not None:
                pairs.append((list(self._target_texts(node.asname.name)), node.item))
            elif isinstance(node, cst.FunctionDef | cst.ClassDef) and node is not body:
                self.local_names.add(ident(node.name.value))
                if isinstance(node, cst.FunctionDef):
                    self.local_function(node)
            elif isinstance(node, cst.AugAssign | cst.Del):
                unsure.update(_target_names(node.target))
            elif isinstance(node, cst.Call):
                launched.append(node)
        for names, _ in pairs:
            self.local_names.update(n for n in names if "." not in n)
        self.find_containers(pairs, unsure)
        for call in launched:
            # A place passed to a kernel is a device value (the launch refuses anything else).
            if self.launched_kernel(call.func) is not None:
                for arg in call.args:
                    text = dotted(arg.value)
                    if text is not None and not arg.star:
                        self.device.add(text)
        for _ in range(4):
            before = len(self.device)
            for names, value in pairs:
                if self.expr_is_device(value):
                    self.device.update(names)
            if len(self.device) == before:
                break

    def local_function(self, node: cst.FunctionDef) -> None:
        """A function defined in this body: a kernel (from the prescan's record of where it is defined), or a
        plain helper."""
        name = ident(node.name.value)
        key = f"{self.span(node.name).line}:{node.name.value}"
        kernel = self.ctx.summary.local_kernels.get(key)
        if kernel is not None:
            self.kernels[name] = kernel
        elif not node.decorators:
            self.helpers[name] = node
            self.kernels.pop(name, None)

    def find_containers(self, pairs: Sequence[tuple[list[str], cst.BaseExpression]], unsure: set[str]) -> None:
        """Names bound only by plain assignments of tuple/list displays (`pair = (a, c)`): `pair[1]` is `c`."""
        widths: dict[str, int] = {}
        for names, value in pairs:
            items = self.literal_display(value)
            for name in names:
                if items is None or len(names) != 1 or "." in name:
                    unsure.add(name)
                else:
                    widths[name] = max(widths.get(name, 0), len(items))
        self.containers = {n: w for n, w in widths.items() if n not in unsure and 0 < w <= 16}

    def launched_kernel(self, func: cst.BaseExpression) -> KernelSummary | None:
        """The kernel a call's callee launches (`k(...)`, `k.launch(...)`, ...), or None."""
        found = self.kernel_of(func)
        if found is not None:
            return found
        if isinstance(func, cst.Attribute):
            receiver = self.kernel_of(func.value)
            if receiver is not None and launch_form(receiver.track, receiver.autotuned, func.attr.value) is not None:
                return receiver
        return None

    def kernel_of(self, node: cst.BaseExpression) -> KernelSummary | None:
        """The kernel `node` names: one defined in this function (or an enclosing one), or a module's."""
        if isinstance(node, cst.Name):
            local = self.kernels.get(ident(node.value))
            if local is not None:
                return local
            if ident(node.value) in self.local_names and self.unit.kind != "module":
                return None  # a local binding shadows the module's name (a module's own names are its kernels)
        found = self.ctx.kernel(node)
        return found[1] if found is not None else None

    def shared_array_params(self, node: cst.FunctionDef) -> None:
        """Kernel code: a parameter annotated `SharedArray[T]` is a shared array (element access needs unsafe)."""
        if not self.kernel_body:
            return
        for param in _param_names(node.params):
            if param.annotation is None:
                continue
            annotation = param.annotation.annotation
            head = annotation.value if isinstance(annotation, cst.Subscript) else annotation
            name = dotted(head)
            qualified = self.ctx.qualify(head) if name is not None else None
            if name is not None and (qualified or name).rsplit(".", 1)[-1] in SHARED_ARRAY_ANNOTATIONS:
                place = ir.Place(self.name(ident(param.name.value)))
                start, end = self.span(param.name), self.span(annotation)  # `buf: SharedArray[T]`
                span = Span(start.line, start.column, end.end_line, end.end_column)
                self.emit(ir.Bind((place,), (ir.Fresh("shared_array"),), span))
                self.interesting = True  # its element accesses may need unsafe

    def _target_texts(self, target: cst.BaseExpression) -> Iterator[str]:
        if isinstance(target, cst.Name | cst.Attribute):
            text = dotted(target)
            if text:
                yield text
        elif isinstance(target, cst.Tuple | cst.List):
            for el in target.elements:
                yield from self._target_texts(el.value)
        elif isinstance(target, cst.StarredElement):
            yield from self._target_texts(target.value)

    def is_device_place(self, node: cst.BaseExpression) -> bool:
        text = dotted(node)
        return text is not None and (text in self.device or text.split(".")[0] in self.device)

    # --- entry points ---------------------------------------------------------------------------------------

    def lower(self) -> ir.Function:
        node = self.unit.node
        if isinstance(node, cst.Module):
            self.prepass(node, ())
            ops = self.block(lambda: self.suite(node.body))
            return ir.Function(self.unit.name, ops, Span(1, 1, 1, 2), self.ctx.path)
        self.prepass(node.body, _param_names(node.params))
        def lower_body() -> None:
            self.shared_array_params(node)
            self.suite(node.body)

        ops = self.block(lower_body)
        return ir.Function(self.unit.name, ops, self.span(node.name), self.ctx.path)

    # --- statements -----------------------------------------------------------------------------------------

    def suite(self, body: cst.BaseSuite | Sequence[cst.BaseStatement]) -> None:
        for stmt in statements(body):
            self.stmt(stmt)

    def stmt(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
            call = node.value
            calls.discard_result(self.call(call, None), call, self.span(call), dotted(call.func), self)
        elif isinstance(node, cst.Expr):
            self.expr(node.value)
        elif isinstance(node, cst.Assign):
            self.assign([t.target for t in node.targets], node.value)
        elif isinstance(node, cst.AnnAssign):
            if node.value is not None:
                self.assign([node.target], node.value)
        elif isinstance(node, cst.AugAssign):
            self.expr(node.value)
            self.expr(node.target)
        elif isinstance(node, cst.Return):
            if node.value is not None:
                self.expr(node.value)
            self.emit(ir.Return(self.span(node)))
        elif isinstance(node, cst.Raise):
            if node.exc is not None:
                self.expr(node.exc)
            if node.cause is not None:
                self.expr(node.cause.item)
            self.emit(ir.Raise(self.span(node)))
        elif isinstance(node, cst.Del):
            self.delete(node.target)
        elif isinstance(node, cst.Break):
            self.emit(ir.Break(self.span(node)))
        elif isinstance(node, cst.Continue):
            self.emit(ir.Continue(self.span(node)))
        elif isinstance(node, cst.Assert):
            self.expr(node.test)
            msg = node.msg

            def fail_path() -> None:
                if msg is not None:
                    self.expr(msg)
                self.raise_at(node)

            fail = self.block(fail_path)
            self.emit(ir.Branch(((), fail), self.span(node)))
        elif isinstance(node, cst.If):
            self.if_stmt(node)
        elif isinstance(node, cst.While):
            self.while_stmt(node)
        elif isinstance(node, cst.For):
            self.for_stmt(node)
        elif isinstance(node, cst.Try | cst.TryStar):
            self.try_stmt(node)
        elif isinstance(node, cst.With):
            self.with_stmt(node)
        elif isinstance(node, cst.Match):
            self.match_stmt(node)
        elif isinstance(node, cst.FunctionDef):
            self.function_def(node)
        elif isinstance(node, cst.ClassDef):
            for dec in node.decorators:
                self.expr(dec.decorator)
            for arg in node.bases:
                self.expr(arg.value)
            for stmt in statements(node.body):
                if isinstance(stmt, cst.FunctionDef):
                    method = f"{ident(node.name.value)}.{ident(stmt.name.value)}"
                    self.nested.append(Unit(method, stmt, self.kind_of(stmt)))
                else:
                    self.stmt(stmt)
            self.bind_fresh(ir.Place(self.name(ident(node.name.value))), node.name)
        # Pass, Global, Nonlocal, Import, ImportFrom, TypeAlias: nothing ownership-relevant.

    def raise_at(self, node: cst.CSTNode) -> None:
        self.emit(ir.Raise(self.span(node)))

    def if_stmt(self, node: cst.If) -> None:
        narrowed = self.none_test(node.test)
        if narrowed is None:
            self.expr(node.test)  # `x is None` only compares identities: it never reads a (moved) object
        body = self.block(lambda: self.suite(node.body))
        orelse_node = node.orelse
        if orelse_node is None:
            orelse: ir.Block = ()
        elif isinstance(orelse_node, cst.If):
            orelse = self.block(lambda: self.if_stmt(orelse_node))
        else:
            orelse = self.block(lambda: self.suite(orelse_node.body))
        if narrowed is not None:
            place, is_none = narrowed
            arm = calls.none_arm(place, self.span(node.test))
            body, orelse = ((arm, *body), orelse) if is_none else (body, (arm, *orelse))
        self.emit(ir.Branch((body, orelse), self.span(node.test)))

    def none_test(self, test: cst.BaseExpression) -> tuple[ir.Place, bool] | None:
        """`(place, True)` for `place is None`, `(place, False)` for `place is not None`, else None."""
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        comparison = test.comparisons[0]
        right = comparison.comparator
        if not (isinstance(right, cst.Name) and right.value == "None"):
            return None
        place = self.place(test.left)
        if place is None or place.attrs:
            return None
        if isinstance(comparison.operator, cst.Is):
            return place, True
        if isinstance(comparison.operator, cst.IsNot):
            return place, False
        return None

    def while_stmt(self, node: cst.While) -> None:
        head = self.block(lambda: self.expr(node.test))
        body = self.block(lambda: self.suite(node.body))
        orelse = self.else_block(node.orelse)
        infinite = isinstance(node.test, cst.Name) and node.test.value == "True"
        self.emit(ir.Loop(head, body, orelse, self.span(node.test), infinite))

    def for_stmt(self, node: cst.For) -> None:
        self.expr(node.iter)
        items = self.literal_items(node.iter)
        if items is not None:
            # `for out, inp in ((x, x), (y, z)):` binds the target to one of the displayed items per iteration.
            arms = tuple(self.block(functools.partial(self.assign, [node.target], item)) for item in items)
            head = self.block(lambda: self.emit(ir.Branch(arms, self.span(node.target))))
        else:
            head = self.block(lambda: self.bind(node.target, ir.Fresh()))
        body = self.block(lambda: self.suite(node.body))
        orelse = self.else_block(node.orelse)
        self.emit(ir.Loop(head, body, orelse, self.span(node.target), unrolled=items is not None))

    def else_block(self, node: cst.Else | cst.Finally | None) -> ir.Block:
        if node is None:
            return ()
        suite = node.body
        return self.block(lambda: self.suite(suite))

    def try_stmt(self, node: cst.Try | cst.TryStar) -> None:
        body = self.block(lambda: self.suite(node.body))
        handlers: list[ir.Block] = []
        for handler in node.handlers:

            def lower_handler(h: cst.ExceptHandler | cst.ExceptStarHandler = handler) -> None:
                if h.type is not None:
                    self.expr(h.type)
                bound = h.name.name if h.name is not None else None
                if isinstance(bound, cst.Name):
                    self.bind_fresh(ir.Place(self.name(ident(bound.value))), bound)
                self.suite(h.body)
                if isinstance(bound, cst.Name):
                    self.emit(ir.Del(ir.Place(self.name(ident(bound.value))), self.span(bound)))

            handlers.append(self.block(lower_handler))
        orelse = self.else_block(node.orelse)
        final = self.else_block(node.finalbody)
        self.emit(ir.Try(body, tuple(handlers), orelse, final, self.span(node)))

    def with_stmt(self, node: cst.With) -> None:
        items = [
            calls.WithItem(
                item.item,
                isinstance(item.item, cst.Call) and self.ctx.qualify(item.item.func) == UNSAFE_CONTEXT,
                self.target(item.asname.name) if item.asname is not None else None,
                isinstance(item.item, cst.Call) and self.ctx.qualify(item.item.func) == calls.SUPPRESS_CONTEXT,
            )
            for item in node.items
        ]
        calls.lower_with(items, lambda: self.block(lambda: self.suite(node.body)), self.span(node), self)

    def match_stmt(self, node: cst.Match) -> None:
        self.expr(node.subject)
        arms: list[ir.Block] = []
        irrefutable = False
        # A guard runs whenever its pattern matches, also when it then fails and a later case is tried: every later
        # arm (and falling out of the match) starts with "maybe the earlier guards ran".
        failed_guards: list[ir.Op] = []

        def bind_pattern(c: cst.MatchCase) -> None:
            for sub in _walk(c.pattern):
                if isinstance(sub, cst.MatchAs | cst.MatchStar) and isinstance(sub.name, cst.Name):
                    self.bind_fresh(ir.Place(self.name(ident(sub.name.value))), sub.name)
                elif isinstance(sub, cst.MatchValue):
                    self.expr(sub.value)

        for case in node.cases:

            def lower_case(c: cst.MatchCase = case, prior: tuple[ir.Op, ...] = tuple(failed_guards)) -> None:
                for op in prior:
                    self.emit(op)
                bind_pattern(c)
                if c.guard is not None:
                    self.expr(c.guard)
                self.suite(c.body)

            arms.append(self.block(lower_case))
            guard = case.guard
            if guard is not None:

                def run_guard(c: cst.MatchCase = case, g: cst.BaseExpression = guard) -> None:
                    bind_pattern(c)
                    self.expr(g)

                failed_guards.append(ir.Branch((self.block(run_guard), ()), self.span(guard)))
            if case.guard is None and isinstance(case.pattern, cst.MatchAs) and case.pattern.pattern is None:
                irrefutable = True
        if not irrefutable:
            arms.append(tuple(failed_guards))
        self.emit(ir.Branch(tuple(arms), self.span(node.subject)))

    def kind_of(self, node: cst.FunctionDef) -> str:
        for dec in node.decorators:
            target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
            qualified = self.ctx.qualify(target)
            if qualified == "safekernels.simt.kernel":
                return "simt"
            if qualified == "safekernels.tile.kernel":
                return "tile"
            if qualified == "safekernels.simt.device":
                return "device"
        return "function"

    def function_def(self, node: cst.FunctionDef) -> None:
        for dec in node.decorators:
            self.expr(dec.decorator)
        for param in _param_names(node.params):
            if param.default is not None:
                self.expr(param.default)
        captured: list[str] = []
        if self.unit.kind != "module":
            captured = self.captures(node, {ident(p.name.value) for p in _param_names(node.params)})
        outer = frozenset(self.device)
        unit = Unit(ident(node.name.value), node, self.kind_of(node), outer, self.kernels)
        self.nested.append(unit)
        self.bind_fresh(ir.Place(self.name(ident(node.name.value))), node.name)
        self.closures.pop(unit.name, None)
        if self.unit.kind != "module" and unit.kind == "function":
            # a call of it may move the captured values, and rebind the names it declares `nonlocal`
            declared = [
                ident(item.name.value) for sub in _walk(node) if isinstance(sub, cst.Nonlocal) for item in sub.names
            ]
            if captured or declared:
                effects = nonlocal_effects(FunctionLowerer(self.ctx, unit).lower(), [*captured, *declared])
                if effects.reads or effects.rebound or effects.moves:
                    self.closures[unit.name] = effects

    def captures(self, node: cst.CSTNode, params: set[str]) -> list[str]:
        """A nested function or lambda reads the enclosing names it mentions: each counts as a use, here.  Returns
        those names as the nested body spells them."""
        assigned: set[str] = set(params)
        for sub in _walk(node, skip_scopes=False):
            if isinstance(sub, cst.AssignTarget):
                assigned.update(_target_names(sub.target))
        seen: set[str] = set()
        body = node.body if isinstance(node, cst.FunctionDef | cst.Lambda) else node
        # `nonlocal x` / `global x` declare a name, they do not read it (mypy's AST has no name node there)
        declared = {
            id(item.name)
            for sub in _walk(body, skip_scopes=False)
            if isinstance(sub, cst.Nonlocal | cst.Global)
            for item in sub.names
        }
        found: list[str] = []
        for sub in _walk(body, skip_scopes=False):
            if isinstance(sub, cst.Name) and id(sub) not in declared:
                raw = ident(sub.value)
                name = self.name(raw)
                if raw in assigned or name in seen or (name == raw and raw not in self.local_names):
                    continue
                seen.add(name)
                found.append(raw)
                self.emit(ir.Use(ir.Place(name, (), raw if name != raw else None), self.span(sub)))
        return found

    # --- assignment -----------------------------------------------------------------------------------------

    def bind_fresh(self, place: ir.Place, node: cst.CSTNode, kind: str = "value") -> None:
        self.emit(ir.Bind((place,), (ir.Fresh(kind),), self.span(node)))

    def target(self, node: cst.BaseExpression) -> calls.Target[cst.BaseExpression]:
        """An assignment target as the core's neutral shape (`a, *b` items are bound like `a, b`)."""
        if isinstance(node, cst.Tuple | cst.List):
            items = tuple(self.target(el.value) for el in node.elements)
            starred = any(isinstance(el, cst.StarredElement) for el in node.elements)
            return calls.UnpackTarget(items, self.span(node), starred)
        if isinstance(node, cst.StarredElement):
            return calls.StarTarget(self.target(node.value))
        place = self.place(node)
        if place is not None:
            root_span = self.span(node.value) if isinstance(node, cst.Attribute) else None
            return calls.PlaceTarget(place, self.span(node), root_span)
        return calls.OtherTarget(node)

    def bind(self, target: cst.BaseExpression, value: ir.Value) -> None:
        calls.bind_target(self.target(target), value, self)

    def assign(self, targets: Sequence[cst.BaseExpression], value: cst.BaseExpression) -> None:
        split: calls.SplitAt[cst.BaseExpression] | None = None
        items: tuple[cst.BaseExpression, ...] | None = None
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == calls.SPLIT_METHOD
        ):
            base = self.place(value.func.value)
            if base is not None:
                split = calls.SplitAt(base, tuple(a.value for a in value.args), self.span(value))
        elif isinstance(value, cst.Tuple | cst.List) and not any(
            isinstance(e, cst.StarredElement) for e in value.elements
        ):
            items = tuple(el.value for el in value.elements)
        shape = calls.Assignment(tuple(self.target(t) for t in targets), value, split, items)
        calls.lower_assignment(shape, self)
        for target in targets:
            if isinstance(target, cst.Name) and ident(target.value) in self.containers:
                raw = ident(target.value)
                elements = [self.place(item) for item in items] if items is not None else []
                calls.bind_elements(
                    self.name(raw), raw, self.containers[raw], elements, [self.span(i) for i in items or ()],
                    self.span(target), self,
                )

    def value(self, node: cst.BaseExpression, holder: ir.Place | None = None) -> ir.Value:
        """Lower an expression whose result is bound to a name: an alias, a view or a fresh object."""
        place = self.place(node)
        if place is not None:
            return ir.FromPlace(place, self.span(node))
        if isinstance(node, cst.NamedExpr):
            inner = self.value(node.value, self.place(node.target))
            self.bind(node.target, inner)
            target = self.place(node.target)
            return ir.FromPlace(target, self.span(node.target)) if target is not None else ir.Fresh()
        view = self.view_shape(node)
        if view is not None:
            bound = calls.bind_view(view, self.span(node), self)
            if bound is not None:
                return bound
        if isinstance(node, cst.IfExp):
            self.expr(node.test)
            tmp = self.temp("value")
            body_node, else_node = node.body, node.orelse
            body = self.block(
                lambda: self.emit(ir.Bind((tmp,), (self.value(body_node),), self.span(body_node)))
            )
            orelse = self.block(
                lambda: self.emit(ir.Bind((tmp,), (self.value(else_node),), self.span(else_node)))
            )
            self.emit(ir.Branch((body, orelse), self.span(node.test)))
            return ir.FromPlace(tmp, self.span(node))
        if isinstance(node, cst.Call):
            return self.call(node, holder)
        self.expr(node)
        return ir.Fresh()

    def view_shape(
        self, node: cst.BaseExpression
    ) -> calls.ViewCall[cst.BaseExpression] | calls.SliceView[cst.BaseExpression] | None:
        """`c.view(a, b)` or `c[a:b]` of a place, described for the core (which decides whether it counts)."""
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == calls.VIEW_METHOD
        ):
            base = self.place(node.func.value)
            if base is None:
                return None
            bounds = tuple(_int_literal(a.value) for a in node.args if a.keyword is None)
            args = tuple(a.value for a in node.args)
            return calls.ViewCall(base, self.is_device_place(node.func.value), args, bounds)
        if isinstance(node, cst.Subscript) and len(node.slice) == 1:
            sl = node.slice[0].slice
            if not isinstance(sl, cst.Slice):
                return None
            base = self.place(node.value)
            if base is None:
                return None
            parts = tuple(part for part in (sl.lower, sl.upper, sl.step) if part is not None)
            return calls.SliceView(
                base,
                self.is_device_place(node.value),
                parts,
                sl.lower is not None,
                _int_literal(sl.lower),
                sl.upper is not None,
                _int_literal(sl.upper),
                sl.step is not None,
            )
        return None

    def delete(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Tuple | cst.List):
            for el in target.elements:
                self.delete(el.value)
            return
        place = self.place(target)
        if place is not None:
            self.emit(ir.Del(place, self.span(target)))
        else:
            self.expr(target)

    # --- expressions ----------------------------------------------------------------------------------------

    def use(self, node: cst.BaseExpression, element: bool = False) -> bool:
        place = self.place(node)
        if place is None:
            return False
        self.emit(ir.Use(place, self.span(node), element=element))
        return True

    def expr(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name | cst.Attribute):
            if not self.use(node) and isinstance(node, cst.Attribute):
                self.expr(node.value)
        elif isinstance(node, cst.Call):
            self.call(node, None)
        elif isinstance(node, cst.Subscript):
            self.subscript(node, store=False)
        elif isinstance(node, cst.NamedExpr):
            self.value(node)
        elif isinstance(node, cst.BooleanOperation):
            self.expr(node.left)
            right = node.right
            self.emit(ir.Branch((self.block(lambda: self.expr(right)), ()), self.span(node)))
        elif isinstance(node, cst.IfExp):
            self.expr(node.test)
            body = self.block(lambda: self.expr(node.body))
            orelse = self.block(lambda: self.expr(node.orelse))
            self.emit(ir.Branch((body, orelse), self.span(node.test)))
        elif isinstance(node, cst.Lambda):
            for param in _param_names(node.params):
                if param.default is not None:
                    self.expr(param.default)
            self.captures(node, {ident(p.name.value) for p in _param_names(node.params)})
        elif isinstance(node, cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp):
            self.comprehension(node)
        elif isinstance(node, cst.SimpleString | cst.Integer | cst.Float | cst.Imaginary | cst.Ellipsis):
            return
        else:
            self._expr_children(node)

    def _expr_children(self, node: cst.CSTNode) -> None:
        for child in _kids(node):
            if isinstance(child, cst.BaseExpression):
                self.expr(child)
            else:
                self._expr_children(child)

    def subscript(self, node: cst.Subscript, store: bool) -> None:
        if not self.use(node.value, element=True):
            self.expr(node.value)
        for element in node.slice:
            self._expr_children(element)

    def comprehension(self, node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp) -> None:
        self.expr(node.for_in.iter)
        renames: dict[str, str] = {}
        self.renames.append(renames)
        try:
            self._comp_for(node, node.for_in, renames, first=True)
        finally:
            self.renames.pop()

    def _comp_for(
        self,
        node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp,
        comp: cst.CompFor,
        renames: dict[str, str],
        first: bool,
    ) -> None:
        if not first:
            self.expr(comp.iter)
        self.tmp += 1
        for raw in _target_names(comp.target):
            renames[raw] = f"{raw}$c{self.tmp}"
        head = self.block(lambda: self.bind(comp.target, ir.Fresh()))

        def body() -> None:
            for cond in comp.ifs:
                self.expr(cond.test)
            if comp.inner_for_in is not None:
                self._comp_for(node, comp.inner_for_in, renames, first=False)
            elif isinstance(node, cst.DictComp):
                self.expr(node.key)
                self.expr(node.value)
            else:
                self.expr(node.elt)

        self.emit(ir.Loop(head, self.block(body), (), self.span(comp.target)))

    # --- calls: resolve, describe as a neutral shape, let the core decide (core/calls.py) --------------------

    def operand(
        self, node: cst.BaseExpression, keyword: str | None = None, star: bool = False, with_view: bool = True
    ) -> calls.Operand[cst.BaseExpression]:
        place = self.place(node)
        span = self.span(node)
        if place is not None:
            return calls.Operand(node, span, place, self.is_device_place(node), None, keyword, star)
        if star:
            items = self.literal_display(node)
            spread = tuple(self.operand(item) for item in items) if items is not None else None
            return calls.Operand(node, span, None, False, None, keyword, star, items=spread)
        view = self.view_shape(node) if with_view else None
        found = self.choices(node, span, 0) if view is None else None
        if found is not None:
            prelude, choices = found
            return calls.Operand(node, span, None, True, None, keyword, star, choices, prelude)
        return calls.Operand(node, span, None, self.expr_is_device(node), view, keyword, star)

    # --- operands that are expressions over places ----------------------------------------------------------

    def literal_display(self, node: cst.BaseExpression) -> tuple[cst.BaseExpression, ...] | None:
        """The items of a tuple/list display without starred items (`(a, b)`, `[a, b]`), else None."""
        if isinstance(node, cst.Tuple | cst.List) and not any(
            isinstance(el, cst.StarredElement) for el in node.elements
        ):
            return tuple(el.value for el in node.elements)
        return None

    def choices(
        self, node: cst.BaseExpression, span: Span, depth: int
    ) -> tuple[tuple[cst.BaseExpression, ...], tuple[calls.Operand[cst.BaseExpression], ...]] | None:
        """The places `node` may evaluate to, and what is evaluated before its value is known (see
        `calls.Operand`); None when it is not an expression over places.  Each choice carries `span`, the
        argument's own."""
        if depth > _CHOICE_DEPTH:
            return None
        if isinstance(node, cst.IfExp):
            return self._alternatives((node.test,), (node.body, node.orelse), span, depth)
        if isinstance(node, cst.BooleanOperation):
            return self._alternatives((node.left,), (node.left, node.right), span, depth)
        if isinstance(node, cst.NamedExpr):
            target = self.place(node.target)
            if target is None:
                return None
            return (node,), (calls.Operand(node.target, span, target, True),)
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            index = node.slice[0].slice.value
            literal = _int_literal(index)
            items = self.literal_display(node.value)
            if items is not None:
                picked = (items[literal],) if literal is not None and -len(items) <= literal < len(items) else items
                return self._alternatives((node.value, index), picked, span, depth)
            if isinstance(node.value, cst.Name) and ident(node.value.value) in self.containers:
                name = self.name(ident(node.value.value))
                width = self.containers[ident(node.value.value)]
                indices = [literal % width] if literal is not None and -width <= literal < width else range(width)
                elements: tuple[calls.Operand[cst.BaseExpression], ...] = tuple(
                    calls.Operand(node, span, calls.element_place(name, i, ident(node.value.value)), True)
                    for i in indices
                )
                return (node.value, index), elements
            return None
        if isinstance(node, cst.Call) and (aliased := self.aliasing_index(node.func)) is not None:
            if aliased >= len(node.args) or any(a.star or a.keyword is not None for a in node.args):
                return None
            found = self._alternatives((), (node.args[aliased].value,), span, depth)
            return ((node,), found[1]) if found is not None else None
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            helper = self.helper(ident(node.func.value))
            if helper is None:
                return None
            returned = _returned_params(helper)
            if returned is None:
                return None
            bound = _bind_call(helper, node)
            picked = tuple(bound[name] for name in returned if name in bound)
            found = self._alternatives((), picked, span, depth)
            return ((node,), found[1]) if found is not None else None
        return None

    def _alternatives(
        self,
        prelude: tuple[cst.BaseExpression, ...],
        options: Sequence[cst.BaseExpression],
        span: Span,
        depth: int,
    ) -> tuple[tuple[cst.BaseExpression, ...], tuple[calls.Operand[cst.BaseExpression], ...]] | None:
        before = list(prelude)
        out: list[calls.Operand[cst.BaseExpression]] = []
        for option in options:
            place = self.place(option)
            if place is not None:
                if all(o.place != place for o in out):
                    out.append(calls.Operand(option, span, place, True))
                continue
            found = self.choices(option, span, depth + 1)
            if found is None:
                before.append(option)  # a value that is no place (a fresh object): evaluated, never borrowed
                continue
            before.extend(found[0])
            out.extend(o for o in found[1] if all(p.place != o.place for p in out))
        return (tuple(before), tuple(out)) if out else None

    def aliasing_index(self, func: cst.BaseExpression) -> int | None:
        """Which argument a safekernels function's result aliases (`sk.as_buffer(t)` is `t`), or None."""
        qualified = self.ctx.qualify(func)
        if qualified is None or not qualified.startswith("safekernels."):
            return None
        return ALIASING_FUNCTIONS.get(qualified.rsplit(".", 1)[-1])

    def helper(self, name: str) -> cst.FunctionDef | None:
        """The plain (undecorated) function `name` refers to here: one defined in this body, or at the module's top
        level when no local binding shadows it."""
        found = self.helpers.get(name)
        if found is not None:
            return found
        if name in self.local_names and self.unit.kind != "module":
            return None
        return self.ctx.functions.get(name)

    def call(self, node: cst.Call, holder: ir.Place | None) -> ir.Value:
        func = node.func
        kernel = self.kernel_of(func)
        method: calls.MethodCall[cst.BaseExpression] | None = None
        if isinstance(func, cst.Attribute):
            receiver = func.value
            method = calls.MethodCall(
                func.attr.value,
                self.span(func.attr),
                self.operand(receiver, with_view=False),
                self.kernel_of(receiver),
                self.ctx.is_safekernels(receiver),
            )
        qualified = self.ctx.qualify(func)
        args = tuple(
            self.operand(a.value, a.keyword.value if a.keyword is not None else None, bool(a.star)) for a in node.args
        )
        shape = calls.Call(
            node,
            self.span(node),
            func,
            args,
            kernel,
            method,
            qualified == SHARED_ARRAY_CONSTRUCTOR,
            qualified if qualified is not None and qualified.startswith("safekernels.") else None,
            self.closures.get(ident(func.value)) if isinstance(func, cst.Name) else None,
        )
        return calls.lower_call(shape, holder, self)


def lower_module(ctx: FileContext, module: cst.Module) -> list[ir.Function]:
    """Every function of the module (nested ones included) plus its top level, as IR functions."""
    out: list[ir.Function] = []
    pending = [Unit("<module>", module, "module")]
    while pending:
        unit = pending.pop(0)
        lowerer = FunctionLowerer(ctx, unit)
        function = lowerer.lower()
        if lowerer.interesting:
            out.append(function)
        pending.extend(lowerer.nested)
    return out
