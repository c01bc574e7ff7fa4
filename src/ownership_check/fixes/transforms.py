"""The libcst edits behind each fix, applied to the one top-level statement that holds the diagnostic.

Only that statement (a function, a class, or a module-level statement) is parsed, with positions, and printed
back; every other byte of the file is kept as it was, and libcst keeps the edited statement's own formatting and
comments.  Each transform either returns the new file text or None when its pattern does not apply exactly (an
alias instead of a plain name, a launch inside a lambda, no import to spell the new call with): a fix is
mechanical or it is not offered.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, ParentNodeProvider, PositionProvider

from ownership_check.diagnostics import Span

#: Whether argument `position` of a launch call goes to a tile kernel's `Tensor` parameter.
TensorInputTest = Callable[[cst.Call, int], bool]


@dataclass
class Chunk:
    """One top-level statement of a file, as text, and where it sits."""

    lines: list[str]
    start: int  # first line (1-based)
    end: int  # last line

    @property
    def text(self) -> str:
        return "".join(self.lines[self.start - 1 : self.end])

    def splice(self, new_text: str) -> str:
        return "".join(self.lines[: self.start - 1]) + new_text + "".join(self.lines[self.end :])


def chunk_at(source: str, tree: ast.Module, line: int) -> Chunk | None:
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    for node in tree.body:
        decorators = getattr(node, "decorator_list", [])
        start = min([d.lineno for d in decorators] + [node.lineno])
        end = node.end_lineno or node.lineno
        if start <= line <= end:
            return Chunk(lines, start, end)
    return None


def fresh_name(base: str, text: str) -> str:
    """`base`, or `base2`, `base3`, ... : the first one the text does not use as a word."""
    name, n = base, 1
    while re.search(rf"\b{re.escape(name)}\b", text):
        n += 1
        name = f"{base}{n}"
    return name


class _Located:
    """A parsed chunk with positions and parents, for finding the nodes a diagnostic's spans point at."""

    def __init__(self, chunk: Chunk) -> None:
        self.chunk = chunk
        self.wrapper = MetadataWrapper(cst.parse_module(chunk.text))
        self.module = self.wrapper.module
        self.positions: dict[cst.CSTNode, CodeRange] = dict(self.wrapper.resolve(PositionProvider))
        self.parents: dict[cst.CSTNode, cst.CSTNode] = dict(self.wrapper.resolve(ParentNodeProvider))

    def _key(self, span: Span) -> tuple[int, int, int, int]:
        off = self.chunk.start - 1
        return (span.line - off, span.column - 1, span.end_line - off, span.end_column - 1)

    def exact(self, span: Span, kind: type[cst.CSTNode]) -> cst.CSTNode | None:
        want = self._key(span)
        for node, pos in self.positions.items():
            if isinstance(node, kind) and (pos.start.line, pos.start.column, pos.end.line, pos.end.column) == want:
                return node
        return None

    def enclosing(self, node: cst.CSTNode, kind: type[cst.CSTNode]) -> cst.CSTNode | None:
        current: cst.CSTNode | None = self.parents.get(node)
        while current is not None and not isinstance(current, kind):
            current = self.parents.get(current)
        return current

    def statement_in_block(self, node: cst.CSTNode) -> cst.BaseStatement | None:
        """The statement holding `node` that is a direct member of a block (the place to insert beside)."""
        current: cst.CSTNode | None = node
        while current is not None:
            parent = self.parents.get(current)
            if isinstance(current, cst.BaseStatement) and isinstance(parent, cst.IndentedBlock | cst.Module):
                return current
            if isinstance(current, cst.Lambda | cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp):
                return None
            current = parent
        return None

    def print(self, module: cst.Module) -> str:
        return self.chunk.splice(module.code)


class _Splice(cst.CSTTransformer):
    """Replace one statement by a sequence, and (optionally) nodes inside it by others."""

    def __init__(
        self,
        target: cst.CSTNode,
        build: Callable[[cst.BaseStatement], Sequence[cst.BaseStatement]],
        renames: dict[cst.CSTNode, cst.CSTNode] | None = None,
    ) -> None:
        self.target = target
        self.build = build
        self.renames = renames or {}

    def on_leave(  # type: ignore[override]  # libcst's signature is generic in the node type
        self, original_node: cst.CSTNode, updated_node: cst.CSTNode
    ) -> cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel[cst.CSTNode]:
        if original_node in self.renames:
            return self.renames[original_node]
        if original_node is self.target:
            assert isinstance(updated_node, cst.BaseStatement)
            return cst.FlattenSentinel(list(self.build(updated_node)))
        return updated_node


def local_name_of(imports: dict[str, str], qualified: str) -> str | None:
    """The local name this file binds to `qualified` (`sk` for `import safekernels as sk`), if any."""
    for local, target in sorted(imports.items()):
        if target == qualified:
            return local
    return None


def fresh_output_buffer(
    source: str, tree: ast.Module, imports: dict[str, str], shared: Span, mutable: Span
) -> tuple[str, str] | None:
    """E0502 on `k.launch(p, stream, c, b, c)`: write into a copy of `c`, then rebind `c` to it.

        c_out = sk.to_device(c.to_numpy(stream), stream, dtype=c.element_type)
        k.launch(p, stream, c, b, c_out)
        c = c_out

    The new output starts with `c`'s contents (elements the kernel does not write keep their values), the
    launch reads the old `c`, and later code sees the result under the name `c`, as the author meant.
    Returns (new source, new buffer name).
    """
    chunk = chunk_at(source, tree, mutable.line)
    if chunk is None or chunk_at(source, tree, shared.line) is None:
        return None
    located = _Located(chunk)
    out_name = located.exact(mutable, cst.Name)
    in_name = located.exact(shared, cst.Name)
    if not isinstance(out_name, cst.Name) or not isinstance(in_name, cst.Name) or out_name.value != in_name.value:
        return None
    call = located.enclosing(out_name, cst.Call)
    if not isinstance(call, cst.Call) or located.enclosing(in_name, cst.Call) is not call:
        return None
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "launch" and len(call.args) >= 3):
        return None
    if not all(a.keyword is None and a.star == "" for a in call.args):
        return None
    if located.parents.get(out_name) not in call.args:
        return None
    statement = located.statement_in_block(call)
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    sk = local_name_of(imports, "safekernels")
    to_device = f"{sk}.to_device" if sk else local_name_of(imports, "safekernels.to_device")
    if to_device is None:
        return None
    stream = located.module.code_for_node(call.args[1].value)
    name = out_name.value
    new = fresh_name(f"{name}_out", source)
    copy = f"{to_device}({name}.to_numpy({stream}), {stream}, dtype={name}.element_type)"
    alloc = cst.parse_statement(f"{new} = {copy}\n")
    rebind = cst.parse_statement(f"{name} = {new}\n")

    def build(stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
        assert isinstance(stmt, cst.SimpleStatementLine)
        moved = alloc.with_changes(leading_lines=stmt.leading_lines)
        return [moved, stmt.with_changes(leading_lines=()), rebind]

    module = located.module.visit(_Splice(statement, build, {out_name: out_name.with_changes(value=new)}))
    return located.print(module), new


def unsafe_block(source: str, tree: ast.Module, imports: dict[str, str], span: Span) -> str | None:
    """E0133: wrap the statement holding the operation in `with simt.unsafe():`."""
    chunk = chunk_at(source, tree, span.line)
    if chunk is None:
        return None
    simt = local_name_of(imports, "safekernels.simt")
    opener = f"{simt}.unsafe()" if simt else None
    if opener is None:
        sk = local_name_of(imports, "safekernels")
        unsafe = local_name_of(imports, "safekernels.simt.unsafe")
        opener = f"{sk}.simt.unsafe()" if sk else (f"{unsafe}()" if unsafe else None)
    if opener is None:
        return None
    located = _Located(chunk)
    node: cst.CSTNode | None = None
    want = located._key(span)
    for candidate, pos in located.positions.items():
        got = (pos.start.line, pos.start.column, pos.end.line, pos.end.column)
        if got == want:
            node = candidate
            break
    if node is None:
        return None
    statement = located.statement_in_block(node)
    if statement is None or isinstance(located.parents.get(statement), cst.Module):
        return None  # a module-level statement: the kernel-side and host-side cases are inside functions
    with_item = cst.WithItem(cst.parse_expression(opener))

    def build(stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
        leading = getattr(stmt, "leading_lines", ())  # every statement but a bare `else` clause has them
        inner = stmt.with_changes(leading_lines=())
        return [cst.With(items=[with_item], body=cst.IndentedBlock(body=[inner]), leading_lines=leading)]

    module = located.module.visit(_Splice(statement, build))
    return located.print(module)


def shared_input(source: str, tree: ast.Module, name: str, move: Span, is_tensor_input: TensorInputTest) -> str | None:
    """E0382 on a tile input moved by one launch and used by another: `x = x.shared()` before the first."""
    chunk = chunk_at(source, tree, move.line)
    if chunk is None:
        return None
    located = _Located(chunk)
    arg = located.exact(move, cst.Name)
    if not isinstance(arg, cst.Name) or arg.value != name:
        return None
    call = located.enclosing(arg, cst.Call)
    if not isinstance(call, cst.Call):
        return None
    position = next((i for i, a in enumerate(call.args) if a.value is arg and a.keyword is None), None)
    if position is None or not is_tensor_input(call, position):
        return None
    statement = located.statement_in_block(call)
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    share = cst.parse_statement(f"{name} = {name}.shared()\n")

    def build(stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
        assert isinstance(stmt, cst.SimpleStatementLine)
        return [share.with_changes(leading_lines=stmt.leading_lines), stmt.with_changes(leading_lines=())]

    module = located.module.visit(_Splice(statement, build))
    return located.print(module)
