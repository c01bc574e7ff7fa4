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

Not followed: an earlier run of the calling function (a cached object moved by the previous call of the function
that calls the memoised one), and a call in a loop, whose result is a new object at each iteration.
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
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
    if not earlier:
        emit.emit(ir.Bind((place,), (value,), span))
        return ir.FromPlace(place, span)
    arms: list[ir.Block] = [(ir.Bind((place,), (value,), span),)]
    arms.extend((ir.Bind((place,), (ir.FromPlace(source, span),), span),) for source in earlier)
    emit.emit(ir.Branch(tuple(arms), span))
    return ir.FromPlace(place, span)


__all__ = [
    "MEMOIZING_DECORATORS",
    "MEMO_PREFIX",
    "MemoCalls",
    "MemoKey",
    "MemoToken",
    "keyword_token",
    "literal_token",
    "memo_place",
    "memo_result",
    "memoizing_decorator",
    "returns_shared",
]
