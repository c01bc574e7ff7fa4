"""Items read at computed indices: two reads of one container at indices that are provably equal are one object.

`left = parts[i]` then `right = parts[i + 1] if odd else parts[i]`, or `cur = self.fields[self.step % 2]` then
`nxt = self.fields[(self.step + 2) % 2]`: the item read under a computed index is an object the checker does not
know (a new value), but two reads of one container under indices that always evaluate to the same number, with
nothing in between that could change the container, the index's variable or the modulus, read the same object.
Both front ends describe an index expression in a neutral form (`IndexForm`) and their statements by what they
may disturb; this module decides which reads are equal and binds them to one slot place (`$ix<n>`, a new object
bound at the first read), so passing `left` and `right` to one tile launch is a use after move and one launch
reading `cur` while writing `nxt` an aliasing error, as the runtime reports.

An index is compared as an affine expression `a * v + c` of one variable `v` (a name or an attribute path such as
`self.step`), optionally taken modulo `m` (a positive integer literal, a name, or `len(place)`): with a literal
modulus, coefficients and constants compare modulo `m` (`(t + 2) % 2` is `t % 2`).  Indices that are not equal by
this rule stay new values, as before: nothing here makes two reads differ from what the checker assumed.

The rule is kept sound by forgetting every read at anything that could change what the reads depend on: a
statement other than a plain assignment to names, a call other than a few pure builtins, an `await` or a `yield`
(the front ends decide: `ItemStatement`), an assignment to a name the container, index or modulus is rooted at, and
the end of the block the first read was in (each branch arm and loop body is a block of its own, so a read of one
iteration or arm is never taken for another's).  A first read is bound to its slot only when it is the whole value
of its assignment, so the slot is bound on every path that reaches a later read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from ownership_check.core import ir
from ownership_check.diagnostics import Span

#: A neutral index expression, built by the front ends: `("var", "self.step")` (a name or an attribute path),
#: `("int", 2)`, `("len", "self.bufs")` (builtin `len` of a place), `("add" | "sub" | "mul" | "mod", left, right)`,
#: `("neg", operand)`.
IndexForm: TypeAlias = "tuple[str, str] | tuple[str, int] | tuple[str, IndexForm, IndexForm] | tuple[str, IndexForm]"

#: Builtins whose calls in an assignment change nothing a computed read depends on.
PURE_BUILTINS: Final[frozenset[str]] = frozenset({"len", "abs", "int", "min", "max"})

#: The root prefix of the slot two equal computed reads share (`$ix0`).
SLOT_PREFIX: Final[str] = "$ix"


@dataclass(frozen=True)
class IndexKey:
    """An index in canonical form (`text`, equal for equal indices) and the names it depends on (`roots`)."""

    text: str
    roots: frozenset[str]


@dataclass(frozen=True)
class _Affine:
    """`coefficient * var + constant` (var None: a constant)."""

    var: str | None
    coefficient: int
    constant: int


def _root(dotted: str) -> str:
    return dotted.split(".", 1)[0]


def _affine(form: IndexForm) -> _Affine | None:
    kind = form[0]
    if kind == "var" and isinstance(form[1], str):
        return _Affine(form[1], 1, 0)
    if kind == "int" and isinstance(form[1], int) and not isinstance(form[1], bool):
        return _Affine(None, 0, form[1])
    if kind == "neg" and len(form) == 2 and isinstance(form[1], tuple):
        inner = _affine(form[1])
        return None if inner is None else _Affine(inner.var, -inner.coefficient, -inner.constant)
    if kind in ("add", "sub", "mul") and len(form) == 3 and isinstance(form[1], tuple) and isinstance(form[2], tuple):
        left, right = _affine(form[1]), _affine(form[2])
        if left is None or right is None:
            return None
        if kind == "mul":
            if left.var is not None and right.var is not None:
                return None
            factor, term = (left.constant, right) if left.var is None else (right.constant, left)
            return _Affine(term.var, term.coefficient * factor, term.constant * factor)
        sign = 1 if kind == "add" else -1
        if left.var is not None and right.var is not None and left.var != right.var:
            return None
        var = left.var if left.var is not None else right.var
        return _Affine(var, left.coefficient + sign * right.coefficient, left.constant + sign * right.constant)
    return None


def index_key(form: IndexForm | None) -> IndexKey | None:
    """The canonical key of an index of one variable (`i`, `i + 1`, `(t + 2) % 2`, `step % len(self.bufs)`); None
    for any other index (a constant one is a literal key, which the container rules read)."""
    if form is None:
        return None
    modulus: str | None = None
    roots: set[str] = set()
    if form[0] == "mod" and len(form) == 3 and isinstance(form[1], tuple) and isinstance(form[2], tuple):
        body, by = form[1], form[2]
        if by[0] == "int" and isinstance(by[1], int) and not isinstance(by[1], bool) and by[1] > 0:
            modulus = str(by[1])
        elif by[0] in ("var", "len") and isinstance(by[1], str):
            modulus = f"{by[0]}({by[1]})"
            roots.add(_root(by[1]))
        else:
            return None
    else:
        body = form
    affine = _affine(body)
    if affine is None or affine.var is None or affine.coefficient == 0:
        return None
    coefficient, constant = affine.coefficient, affine.constant
    if modulus is not None and modulus.isdigit():
        coefficient, constant = coefficient % int(modulus), constant % int(modulus)
        if coefficient == 0:
            return None
    roots.add(_root(affine.var))
    text = f"{coefficient}*{affine.var}+{constant}" + (f" mod {modulus}" if modulus is not None else "")
    return IndexKey(text, frozenset(roots))


def render(form: IndexForm) -> str:
    """How diagnostics spell an index (`t + 1`, `(t + 2) % 2`)."""
    kind = form[0]
    if kind in ("var", "int"):
        return str(form[1])
    if kind == "len":
        return f"len({form[1]})"
    if kind == "neg" and len(form) == 2 and isinstance(form[1], tuple):
        return f"-{render(form[1])}"
    if len(form) == 3 and isinstance(form[1], tuple) and isinstance(form[2], tuple):
        symbol = {"add": "+", "sub": "-", "mul": "*", "mod": "%"}.get(kind, "?")
        left, right = render(form[1]), render(form[2])
        if kind in ("mul", "mod"):
            left = f"({left})" if form[1][0] in ("add", "sub") else left
            right = f"({right})" if form[2][0] in ("add", "sub", "mul", "mod") else right
        return f"{left} {symbol} {right}"
    return "?"


def one_place(items: Sequence[str | None]) -> str | None:
    """The place every item of a display is (`[buf, buf]`, `deque([buf] * 3)`: the dotted text of each item, None
    for an item that is no place), else None.  A container bound once to such a display and never changed in place
    holds that one object at every index, so an item at any index, computed ones included, is it: the front ends
    then read it as any item of the container (each a place bound to that object), which is exact here."""
    first = items[0] if items else None
    return first if first is not None and all(item == first for item in items) else None


@dataclass(frozen=True)
class ItemStatement:
    """What a front end tells about one statement before lowering it: whether it is a plain assignment to names
    that can disturb no computed read (`calm`: only pure builtin calls, no `await`/`yield`/walrus/comprehension),
    the names it assigns (`stored`), and the nodes of its value that are subscripts: the value itself, or an arm of
    a conditional expression it is (`created`: a first read there binds a slot later equal reads share; on a path
    through another arm the slot is bound to nothing, so a later read there aliases no earlier one)."""

    calm: bool
    stored: frozenset[str] = frozenset()
    created: frozenset[int] = frozenset()


#: A statement that may change anything: every read known so far is forgotten.
DISTURBING: Final[ItemStatement] = ItemStatement(False)


@dataclass
class _Entry:
    slot: ir.Place
    scope: object
    roots: frozenset[str]


@dataclass
class _Frame:
    statement: ItemStatement
    scope: object
    pending: list[tuple[tuple[str, str], _Entry]] = field(default_factory=list)


class ComputedItems:
    """The computed reads of one function body known to be equal so far (one per front end lowerer)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], _Entry] = {}
        self._frames: list[_Frame] = []
        self._count = 0

    def begin(self, statement: ItemStatement, scope: object) -> None:
        """A statement of the block `scope` (the front end's current block object) starts being lowered."""
        if not statement.calm:
            self._entries.clear()
        self._frames.append(_Frame(statement, scope))

    def end(self) -> None:
        """The statement `begin` announced is lowered: forget what it may have changed, keep its first reads."""
        frame = self._frames.pop()
        if not frame.statement.calm:
            self._entries.clear()
            return
        stored = frame.statement.stored
        for key in [k for k, e in self._entries.items() if e.roots & stored]:
            del self._entries[key]
        for key, entry in frame.pending:
            if not entry.roots & stored:
                self._entries[key] = entry

    def read(
        self, container: ir.Place, raw: str, form: IndexForm | None, node: int, span: Span
    ) -> tuple[ir.Op | None, ir.Value] | None:
        """`container[index]` bound to a name (`raw`: the container's dotted source text): the slot an equal earlier
        read of this block bound (no op), or, for the whole value of a calm assignment, a new slot (the `Bind` to
        emit first) later equal reads share; None when the read stays a new value."""
        if not self._frames or not self._frames[-1].statement.calm:
            return None
        key = index_key(form)
        if key is None or form is None:
            return None
        frame = self._frames[-1]
        roots = key.roots | {_root(raw)}
        found = self._entries.get((raw, key.text))
        if found is not None and found.scope is frame.scope:
            return None, ir.FromPlace(found.slot, span)
        if node not in frame.statement.created:
            return None
        slot = ir.Place(f"{SLOT_PREFIX}{self._count}", (), f"{container.text}[{render(form)}]")
        self._count += 1
        frame.pending.append(((raw, key.text), _Entry(slot, frame.scope, roots)))
        return ir.Bind((slot,), (ir.Fresh(),), span), ir.FromPlace(slot, span)
