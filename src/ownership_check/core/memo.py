"""Calls of memoised functions: `@functools.cache` / `@functools.lru_cache` hand back the same object for the same
arguments.

A memoised function's wrapper runs the body at the first call with given arguments and returns the object it
kept for them at every later one, so `t = ones(64)`, moving `t` into a tile launch, then `ones(64)` again gives the
moved tensor, and two `scratch("out", n)` calls give one buffer.  Both front ends describe each such call by its
function and a *key*, one token per argument (`MemoKey`), and the core binds its result through a place standing
for the object the cache keeps (`memo_result`):

- a token is an argument's literal (`"out"`, `64`) or a name with one value wherever the function reads it (a
  parameter or local bound once outside loops: the same name twice is the same value), or None (anything else);
- two calls whose keys have the same tokens everywhere give one object: the first call's result is what it gives
  today (its summary's returned value) and is kept in the key's place; a later one refers to it;
- two calls whose keys hold different literals at one position give distinct objects (`scratch("lo", n)` and
  `scratch("hi", n)`), as the cache keys them apart;
- otherwise (a None token, or a name against a literal or another name) the later call's result may be the object
  any such earlier call of the function gave, or a new one: one `Branch` arm each, so a conflict or use after move
  is reported when one of them is that object (sound: the arguments may be equal at run time).

A function that may run again (the module names it twice, or once inside a loop: `runs_again`) and moves such an
object gets it moved on its next run (`earlier_runs`); the move is seen after the call's result is bound to its
name, so the first use of the moved object is reported where the runtime raises.  A call in a loop whose key is
not exact gives a new object at each iteration of one run.
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ownership_check.core import ir
from ownership_check.diagnostics import Span
from safekernels.ownership_model import SHARED_RESULT_METHODS

#: One argument of a memoised call: `=<repr>` for a literal, a name with one value in the function, or None.
MemoToken = str | None
#: The arguments of a memoised call (the receiver first for a method), keyword arguments as `name:<token>`.
MemoKey = tuple[MemoToken, ...]

#: The standard-library decorators whose wrapper keeps each result per arguments; `functools.lru_cache` may also be
#: called with options first (`@lru_cache(maxsize=8)`).
MEMOIZING_DECORATORS = frozenset({"functools.cache", "functools.lru_cache"})
CONFIGURED_MEMOIZING_DECORATORS = frozenset({"functools.lru_cache"})


def memoizing_decorator(qualified: str | None, called: bool) -> bool:
    """Whether a decorator whose (callee's, with `called`) qualified name is `qualified` memoises what the function
    it wraps returns (`MEMOIZING_DECORATORS`)."""
    return qualified in (CONFIGURED_MEMOIZING_DECORATORS if called else MEMOIZING_DECORATORS)


#: The kind of a `.shared()` op's object (`calls.SHARED_OP`, which imports this module).
SHARED_OP = "shared_op"

#: The root prefix of the place standing for the object a memoised function's cache keeps (`$m3`).
MEMO_PREFIX = "$m"


def literal_token(value: object) -> MemoToken:
    """The token of a literal argument (a string or an integer that is no bool), else None."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return "=" + repr(value)
    return None


def keyword_token(keyword: str | None, token: MemoToken) -> MemoToken:
    """A keyword argument's token carries its keyword (`n=64` is kept apart from `64` by the cache)."""
    if keyword is None or token is None:
        return token
    return f"{keyword}:{token}"


class _Emit(Protocol):
    """What `memo_result` needs of a front end's lowering (`calls.Lowering` has it)."""

    def emit(self, op: ir.Op, origin: Any = None, /) -> None: ...


@dataclass(frozen=True)
class _Kept:
    function: str
    key: MemoKey
    place: ir.Place


@dataclass
class MemoCalls:
    """The memoised calls one function body made so far, in lowering order (one per front end's unit)."""

    calls: list[_Kept] = field(default_factory=list)
    # the `Bind` of each key's (or call site's) first call: where a later run of the function may find the cache's
    # object already moved (`earlier_runs`)
    first_binds: list[ir.Bind] = field(default_factory=list)


def _exact(key: MemoKey) -> bool:
    return all(token is not None for token in key)


def _distinct(a: MemoKey, b: MemoKey) -> bool:
    """Whether the cache keys `a` and `b` apart for sure: at one position both are different literals."""
    if len(a) != len(b):
        return False
    return any(_literal(x) and _literal(y) and x != y and _keyword(x) == _keyword(y) for x, y in zip(a, b, strict=True))


def _literal(token: MemoToken) -> bool:
    return token is not None and "=" in token


def _keyword(token: MemoToken) -> str:
    """The keyword part of a literal token (`n:` of `n:=64`, empty for a positional one)."""
    return "" if token is None else token.split("=", 1)[0]


def _shown(token: str) -> str:
    """A token as the call spells it (`="out"` for the literal `'out'`, a name as is)."""
    if not token.startswith("="):
        return token
    value = ast.literal_eval(token[1:])
    return json.dumps(value) if isinstance(value, str) else repr(value)


def _display(function: str, key: MemoKey) -> str:
    """How diagnostics spell the object a memoised call gives: the call (`scratch("out", 64)`, `...` for an
    argument that is no literal nor name with one value)."""
    shown = []
    for token in key:
        if token is None:
            shown.append("...")
        elif ":" in token.split("=", 1)[0]:
            name, rest = token.split(":", 1)
            shown.append(f"{name}={_shown(rest)}")
        else:
            shown.append(_shown(token))
    return f"{function}({', '.join(shown)})"


def memo_place(function: str, key: MemoKey, span: Span) -> ir.Place:
    """The place standing for what the call at `span` of the memoised `function` with `key` gives: one per key
    whose tokens are all known (every such call refers to it), else one per call site.  Its name depends on the
    call alone, so an operand naming the call (`calls.Operand.choices`) knows it before the call is lowered."""
    site = "" if _exact(key) else f"@{span.line}:{span.column}"
    digest = hashlib.sha1(repr((function, key)).encode()).hexdigest()[:10]
    return ir.Place(f"{MEMO_PREFIX}{digest}{site}", (), _display(function, key))


def returns_shared(returned_methods: Sequence[str | None]) -> bool:
    """Whether every `return` of a memoised function gives a `.shared()` op (`returned_methods`: the method each
    returned call calls, None for anything else): the one object its cache keeps is then read by every launch it
    is passed to, never moved, as a `.shared()` op written at the call would be."""
    return bool(returned_methods) and all(m is not None and m in SHARED_RESULT_METHODS for m in returned_methods)


def memo_result(
    memo: MemoCalls, function: str, key: MemoKey, value: ir.Value, span: Span, emit: _Emit, shared: bool = False
) -> ir.Value:
    """The value of a call of the memoised `function` with `key`, after the call was lowered (`value`: what it
    gives as a plain call; with `shared`, `returns_shared`, a plain new value is a shared op): see the module
    docstring.  A lazy op (`ir.Fresh("op")`) keeps its value: its result must be used where it is made (W0003),
    which a kept place would hide."""
    if isinstance(value, ir.Fresh) and value.kind == "op":
        return value
    if shared and value == ir.Fresh():
        value = ir.Fresh(SHARED_OP)
    place = memo_place(function, key, span)
    if _exact(key) and any(k.function == function and k.key == key for k in memo.calls):
        return ir.FromPlace(place, span)
    earlier = list(
        dict.fromkeys(
            k.place for k in memo.calls if k.function == function and k.place != place and not _distinct(k.key, key)
        )
    )
    memo.calls.append(_Kept(function, key, place))
    first = ir.Bind((place,), (value,), span)
    memo.first_binds.append(first)
    if not earlier:
        emit.emit(first)
        return ir.FromPlace(place, span)
    arms: list[ir.Block] = [(first,)]
    arms.extend((ir.Bind((place,), (ir.FromPlace(source, span),), span),) for source in earlier)
    emit.emit(ir.Branch(tuple(arms), span))
    return ir.FromPlace(place, span)


def runs_again(repeated: Sequence[bool]) -> bool:
    """Whether a function of the module may run again, from the places the module names it (`repeated`: for each,
    whether it is inside a loop's body or a comprehension's repeated part, `for ep in range(2): ... f()`): named at
    two places or more, or at one that repeats."""
    return len(repeated) >= 2 or any(repeated)


def earlier_runs(body: ir.Block, memo: MemoCalls, function: str, again: Callable[[], bool]) -> ir.Block:
    """`body` of `function`, which may run again (`again()`, asked last as it reads the whole module: the module
    names it at two places or more), where it moves an object a memoised call of it gave: a later run's call with
    equal arguments gets that moved object from the cache.  The first call's `Bind` of such an object becomes a
    `Branch`: the call's own value, or an object an earlier run moved where this run moves it (`Move` at that
    span), so a use of it is E0382 (the runtime raises at the second run).  A place counts as that object when
    every binding of it in the body is the object (`_moved_kept`); a `.shared()` op is never moved."""
    if not memo.first_binds:
        return body
    kept = {b.targets[0] for b in memo.first_binds}
    moved = _moved_kept(body, kept)
    if not moved or not again():
        return body
    # a call that may give an earlier call's object (`memo_result`'s arms: a key not known exactly) moved it: a
    # later run's earlier call finds that object moved too (`process` reading `window(self.kind)`, then moving
    # `window(self.kind)` into a tile launch: the next run's read is the use after move)
    # (reported there, at the first call: the later call's own earlier run would be a second report of one move)
    later: set[ir.Place] = set()
    for op in _ops(body):
        if isinstance(op, ir.Bind) and len(op.targets) == 1 and op.targets[0] in moved:
            value = op.values[0]
            if isinstance(value, ir.FromPlace) and value.source in kept:
                moved.setdefault(value.source, moved[op.targets[0]])
                later.add(op.targets[0])
    for place in later:
        del moved[place]
    firsts = {id(b) for b in memo.first_binds}

    def earlier(op: ir.Op, named: ir.Op | None) -> ir.Op:
        """The first call's `Bind` of a moved kept object, with `named` the `Bind` of the call's result to a name
        right after it (`raw = cached(i)`, else None): that `Bind` runs in both arms before the move, since binding
        the moved object to a name is no use of it (the runtime raises where the name is used)."""
        assert isinstance(op, ir.Bind)
        place, move = op.targets[0], moved[op.targets[0]]
        kept = op.values[0] if isinstance(op.values[0], ir.Fresh) else ir.Fresh()
        help = f"an earlier call of `{function}` moved the object the cache hands out again here"
        after = (named,) if named is not None else ()
        before = (ir.Bind((place,), (kept,), op.span), *after, ir.Move(place, move.span, help))
        return ir.Branch(((op, *after), before), op.span)

    def first(op: ir.Op) -> bool:
        return isinstance(op, ir.Bind) and id(op) in firsts and op.targets[0] in moved

    def rewrite(op: ir.Op) -> ir.Op:
        if first(op):
            return earlier(op, None)
        if isinstance(op, ir.Branch):
            return replace(op, arms=tuple(block(arm) for arm in op.arms))
        if isinstance(op, ir.Loop):
            return replace(op, head=block(op.head), body=block(op.body), orelse=block(op.orelse))
        if isinstance(op, ir.Try):
            return replace(
                op,
                body=block(op.body),
                handlers=tuple(block(h) for h in op.handlers),
                orelse=block(op.orelse),
                finalbody=block(op.finalbody),
            )
        if isinstance(op, ir.Unsafe):
            return replace(op, body=block(op.body))
        return op

    def block(ops: ir.Block) -> ir.Block:
        out: list[ir.Op] = []
        i = 0
        while i < len(ops):
            op = ops[i]
            named = ops[i + 1] if i + 1 < len(ops) else None
            if first(op) and _names_result(named, op):
                assert named is not None
                out.append(earlier(op, named))
                i += 2
                continue
            out.append(rewrite(op))
            i += 1
        return tuple(out)

    return block(body)


def _names_result(named: ir.Op | None, first: ir.Op) -> bool:
    """Whether `named` binds names to the object the kept place `first` binds, and to nothing else (`raw =
    cached(i)` right after the call)."""
    if not isinstance(named, ir.Bind) or not isinstance(first, ir.Bind):
        return False
    place = first.targets[0]
    return all(isinstance(v, ir.FromPlace) and v.source == place for v in named.values) and place not in named.targets


def _ops(body: ir.Block) -> list[ir.Op]:
    """Every operation of `body`, nested blocks included."""
    out: list[ir.Op] = []
    stack = list(body)
    while stack:
        op = stack.pop()
        out.append(op)
        if isinstance(op, ir.Branch):
            for arm in op.arms:
                stack.extend(arm)
        elif isinstance(op, ir.Loop):
            stack.extend((*op.head, *op.body, *op.orelse))
        elif isinstance(op, ir.Try):
            stack.extend((*op.body, *op.orelse, *op.finalbody))
            for handler in op.handlers:
                stack.extend(handler)
        elif isinstance(op, ir.Unsafe):
            stack.extend(op.body)
    return out


def _moved_kept(body: ir.Block, kept: set[ir.Place]) -> dict[ir.Place, ir.Move]:
    """The kept places (`kept`) whose object `body` moves: by a `Move` of the place itself, or of a place every
    binding of which (a `Bind` or `View` anywhere in the body, flow-insensitively) is such an object; the first
    such move in source order for each."""
    sources: dict[ir.Place, list[ir.Place | None]] = {}
    moves: list[ir.Move] = []
    for op in _ops(body):
        if isinstance(op, ir.Bind):
            for target, value in zip(op.targets, op.values, strict=False):
                sources.setdefault(target, []).append(value.source if isinstance(value, ir.FromPlace) else None)
        elif isinstance(op, ir.View):
            sources.setdefault(op.target, []).append(op.source)
        elif isinstance(op, ir.Move):
            moves.append(op)
    of: dict[ir.Place, frozenset[ir.Place]] = {place: frozenset((place,)) for place in kept}
    changed = True
    while changed:
        changed = False
        for target, found in sources.items():
            if target in kept or not found or any(s is None or s not in of for s in found):
                continue
            union = frozenset().union(*(of[s] for s in found if s is not None))
            if of.get(target) != union:
                of[target] = union
                changed = True
    moved: dict[ir.Place, ir.Move] = {}
    for move in sorted(moves, key=lambda m: (m.span.line, m.span.column)):
        for place in sorted(of.get(move.place, frozenset()), key=lambda p: p.key):
            moved.setdefault(place, move)
    return moved


__all__ = [
    "MEMOIZING_DECORATORS",
    "MEMO_PREFIX",
    "MemoCalls",
    "MemoKey",
    "MemoToken",
    "earlier_runs",
    "keyword_token",
    "literal_token",
    "memo_place",
    "memo_result",
    "memoizing_decorator",
    "returns_shared",
    "runs_again",
]
