"""Bounds of views compared symbolically: `buf[start : start + w]` and `buf[start + w :]` are disjoint whatever
`start` and `w` are, `buf[c * n : c * n + n + 1]` of `c = 0` and `c = 1` overlap by one element.

A view's region (`ir.Range`) keeps each bound as an integer, or as the canonical text of a polynomial
`k1 * t1 + k2 * t2 + ... + c` whose terms are *symbols* or products of up to three of them (`k*stride`, so
`(k - 1) * stride + stride` is `k * stride`).  Symbols are names with one value wherever the function reads them
(see `ir.Range`), attribute paths of such a name that no statement of the module stores (`planar.frames`), and
`s // k` / `s % k` of a symbol by a positive literal (kept whole: `n // 2` is one symbol).  A bound that is one
symbol is that symbol's name, so regions of plain names read as before; the text is kept a string so every rule
that treats a symbolic bound as "a name of this function" (`init_state._portable`) keeps doing so.

Both front ends describe a bound expression in a neutral form (`BoundForm`) and say what each name in it is
(`Resolve`: the symbol it is, or the bound it stands for at a call of a helper whose view the caller receives),
and `bound_of` folds it.  `at_most` decides `a <= b` for the disjointness test: literals compare as integers, and
two symbolic bounds only when their difference is identically 0, so they are the same number on every run.  A
positive constant difference is not used: a slice bound may be negative and Python counts it from the end
(`buf[0 : s - 1]` and `buf[s:]` overlap when `s` is 0), while equal numbers always land on the same element.
Anything not provably ordered is not disjoint, as before (the views conflict).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, TypeAlias

#: A bound of a view region: an integer, or the canonical text of a polynomial over symbols (module docstring).
Bound: TypeAlias = int | str

#: A neutral bound expression, built by the front ends: `("int", 3)`, `("name", "start")` (a name or a dotted
#: attribute path), `("add" | "sub" | "mul" | "floordiv" | "mod", left, right)`, `("neg", operand)`.
BoundForm: TypeAlias = "tuple[str, int] | tuple[str, str] | tuple[str, BoundForm, BoundForm] | tuple[str, BoundForm]"

#: What a name of a `BoundForm` is: the bound it stands for (a symbol's own name, or an argument's bound at a
#: call), or None when it has no known value (the whole bound is then unknown).
Resolve: TypeAlias = Callable[[str], "Bound | None"]

#: The binary operators a `BoundForm` may use.
OPERATORS: Final[frozenset[str]] = frozenset({"add", "sub", "mul", "floordiv", "mod"})

_PLUS: Final[str] = " + "
#: Joins the symbols of a product term (`k*stride`), sorted, so equal products have one text.
_TIMES: Final[str] = "*"
#: The most symbols one product term may multiply: a bound is a number of elements, low-degree in practice.
_MAX_DEGREE: Final[int] = 3


@dataclass(frozen=True)
class _Affine:
    """`sum(k * s for s, k in terms) + constant`, terms sorted by symbol, no zero coefficient."""

    terms: tuple[tuple[str, int], ...]
    constant: int

    def bound_names(self) -> frozenset[str]:
        """The symbols the expression reads (each factor of a product term)."""
        return frozenset(factor for name, _ in self.terms for factor in name.split(_TIMES))

    def bound(self) -> Bound:
        """The canonical bound: an integer without symbols, a symbol's name for one symbol, else the text."""
        if not self.terms:
            return self.constant
        pieces = [name if k == 1 else f"{k}*{name}" for name, k in self.terms]
        if self.constant:
            pieces.append(str(self.constant))
        return _PLUS.join(pieces)


def _combine(a: _Affine, b: _Affine, sign: int) -> _Affine:
    terms = dict(a.terms)
    for name, k in b.terms:
        terms[name] = terms.get(name, 0) + sign * k
    return _Affine(tuple(sorted((n, k) for n, k in terms.items() if k)), a.constant + sign * b.constant)


def _scale(a: _Affine, factor: int) -> _Affine:
    if factor == 0:
        return _Affine((), 0)
    return _Affine(tuple((n, k * factor) for n, k in a.terms), a.constant * factor)


@lru_cache(maxsize=4096)
def _parse(bound: Bound) -> _Affine:
    """The polynomial a canonical bound is (the inverse of `_Affine.bound`)."""
    if isinstance(bound, int):
        return _Affine((), bound)
    terms: dict[str, int] = {}
    constant = 0
    for piece in bound.split(_PLUS):
        head, star, rest = piece.partition("*")
        if _is_int(piece):
            constant += int(piece)
        elif star and _is_int(head):
            terms[rest] = terms.get(rest, 0) + int(head)
        else:
            terms[piece] = terms.get(piece, 0) + 1
    return _Affine(tuple(sorted((n, k) for n, k in terms.items() if k)), constant)


def _is_int(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _fold(form: BoundForm, resolve: Resolve, depth: int) -> _Affine | None:
    if depth > 16:
        return None
    kind = form[0]
    if kind == "int" and type(form[1]) is int:
        return _Affine((), form[1])
    if kind == "name" and isinstance(form[1], str):
        found = resolve(form[1])
        return None if found is None else _parse(found)
    if kind == "neg" and len(form) == 2 and isinstance(form[1], tuple):
        inner = _fold(form[1], resolve, depth + 1)
        return None if inner is None else _scale(inner, -1)
    if kind not in OPERATORS or len(form) != 3 or not isinstance(form[1], tuple) or not isinstance(form[2], tuple):
        return None
    left, right = _fold(form[1], resolve, depth + 1), _fold(form[2], resolve, depth + 1)
    if left is None or right is None:
        return None
    if kind in ("add", "sub"):
        return _combine(left, right, 1 if kind == "add" else -1)
    if kind == "mul":
        if left.terms and right.terms:
            return _product(left, right)
        return _scale(right, left.constant) if not left.terms else _scale(left, right.constant)
    # `//` and `%` by a positive literal: a constant folds; one symbol of coefficient 1 stays whole as a symbol
    if right.terms or right.constant <= 0:
        return None
    if not left.terms:
        value = left.constant // right.constant if kind == "floordiv" else left.constant % right.constant
        return _Affine((), value)
    if left.constant or len(left.terms) != 1 or left.terms[0][1] != 1:
        return None
    operator = "//" if kind == "floordiv" else "%"
    return _Affine(((f"{left.terms[0][0]}{operator}{right.constant}", 1),), 0)


def _product(a: _Affine, b: _Affine) -> _Affine | None:
    """`a * b` expanded into product terms (`(k - 1) * s` is `k*s - s`), so a frame helper's `k * stride` and
    `(k - 1) * stride + stride` compare equal; None past `_MAX_DEGREE` symbols in one term."""
    terms: dict[str, int] = {}
    constant = a.constant * b.constant
    for name, k in a.terms:
        if b.constant:
            terms[name] = terms.get(name, 0) + k * b.constant
    for name, k in b.terms:
        if a.constant:
            terms[name] = terms.get(name, 0) + k * a.constant
    for left, k1 in a.terms:
        for right, k2 in b.terms:
            factors = sorted((*left.split(_TIMES), *right.split(_TIMES)))
            if len(factors) > _MAX_DEGREE:
                return None
            name = _TIMES.join(factors)
            terms[name] = terms.get(name, 0) + k1 * k2
    return _Affine(tuple(sorted((n, k) for n, k in terms.items() if k)), constant)


def bound_of(form: BoundForm | None, resolve: Resolve) -> Bound | None:
    """The canonical bound of a neutral bound expression whose names `resolve` knows; None when some name has no
    known value or the expression is not a polynomial of low degree (`//` by a symbol)."""
    if form is None:
        return None
    folded = _fold(form, resolve, 0)
    return None if folded is None else folded.bound()


def at_most(a: Bound | None, b: Bound | None) -> bool:
    """Whether `a <= b` on every run, for the disjointness of two regions (`a` the stop of one, `b` the start of
    the other; a stop None runs to the end of the base and precedes nothing): two integers compare, symbolic
    bounds only when they are the same polynomial (see the module docstring for why not more)."""
    if a is None or b is None:
        return False
    if type(a) is int and type(b) is int:
        return a <= b
    difference = _combine(_parse(b), _parse(a), -1)
    return not difference.terms and difference.constant == 0


def range_counter_step(start: int | None, stop: int | None, step: int | None) -> int | None:
    """The step by which a `range(start, stop, step)` loop's counter moves (its absolute value), when the counter is
    never negative, so a slice bound reading it never counts from the end of the base: an ascending range of a
    literal `start >= 0` and `step >= 1` (`range(n)` is `start` 0, `step` 1), or a descending one of a literal
    `step <= -1` and `stop >= -1` (`range(n - 1, 0, -1)` runs down to 1; its `start` may be anything).  None
    otherwise (a loop whose counter bounds are not known)."""
    if step is None or step == 0:
        return None
    if step > 0:
        return step if start is not None and start >= 0 else None
    return -step if stop is not None and stop >= -1 else None


def counted(start: Bound, stop: Bound | None, counter: str, step: int) -> tuple[bool, bool]:
    """Whether the region `[start, stop)` reads a loop's `counter` (a name that takes the values `c0, c0 + step,
    ...`, `c0 >= 0`, `step >= 1`), and whether it is *strided*: `start = a * counter + b1`, `stop = a * counter +
    b2` with nothing else symbolic, `a > 0`, `b1 >= 0` and `b2 - b1 <= a * step`, so the region of one iteration
    ends at or before the next iteration's begins (`buf.view(k * 32, k * 32 + 32)`, `buf[k * n : (k + 1) * n]` of a
    literal `n`): two iterations' regions never overlap, and none counts from the end of the base."""
    if stop is None:
        return counter in _parse(start).bound_names(), False
    lo, hi = _parse(start), _parse(stop)
    mentions = counter in lo.bound_names() or counter in hi.bound_names()
    if not mentions or len(lo.terms) != 1 or lo.terms != hi.terms or lo.terms[0][0] != counter:
        return mentions, False
    coefficient = lo.terms[0][1]
    return True, coefficient > 0 and lo.constant >= 0 and hi.constant - lo.constant <= coefficient * step


@dataclass(frozen=True)
class HelperNames:
    """What the names of a helper returning a view are, to read its bounds in a caller's terms (`in_caller`).

    `stable`: the helper's names with one value wherever it reads them; `params`: its parameters; `receiver`:
    the helper's receiver parameter and the caller's name of that object, for a method; `symbol`: whether a
    caller's name is a symbol there (`obj.frames` of an object no statement of the module stores to);
    `argument_bound`: the caller's bound of the argument passed for a parameter (None when none was passed or
    its bound is unknown); `local_form`: the bound form of the value a local is bound to once (None otherwise);
    `module_number`: the value of a module integer constant the helper reads (`HEADER = 1`), None for any other
    name (one the helper binds itself included).
    Each front end fills it from its own tree; the resolution itself is this one function for both."""

    stable: frozenset[str]
    params: frozenset[str]
    receiver: tuple[str, str] | None
    symbol: Callable[[str], bool]
    argument_bound: Callable[[str], Bound | None]
    local_form: Callable[[str], BoundForm | None]
    module_number: Callable[[str], int | None]


def in_caller(
    forms: tuple[BoundForm | None, BoundForm | None], names: HelperNames
) -> tuple[Bound | None, Bound | None]:
    """The start and stop of a view a helper returns (`return self.buf[start : start + self.frames]`), in the
    caller's terms, each None where unknown: a parameter never rebound is the bound of its argument, a local bound
    once its value (expanded once: a name whose value mentions itself is unknown), `self.<path>` of a method's
    receiver the caller's `obj.<path>` when that is a symbol there, a module integer constant its value."""
    expanding: set[str] = set()

    def resolve(name: str) -> Bound | None:
        root, _, path = name.partition(".")
        if not path and root not in names.stable and root not in names.params:
            return names.module_number(root)
        if root not in names.stable or root in expanding:
            return None
        if names.receiver is not None and root == names.receiver[0]:
            outer = f"{names.receiver[1]}.{path}" if path else None
            return outer if outer is not None and names.symbol(outer) else None
        if path:
            return None
        if root in names.params:
            return names.argument_bound(root)
        form = names.local_form(root)
        if form is None:
            return None
        expanding.add(root)
        try:
            return bound_of(form, resolve)
        finally:
            expanding.discard(root)

    return bound_of(forms[0], resolve), bound_of(forms[1], resolve)
