"""Which binding of a name reaches a statement, read off the statement tree alone.

A front end asks what class of the module a name's object is (to run that class's method for `obj.method()`).
A name bound only by `name = Class(...)` is that class's object everywhere; a name bound to other things as well
(`held = Holder(...)` early, `with nullcontext(a) as held:` later) is still that class's object where only that
binding can reach.  This module answers the question for one use without a flow graph, from positions alone:

- a statement's position is its `Path` from the function's body: one `(block, index)` step per level, `block`
  numbering the statement lists of the enclosing compound statement in source order (an `if`'s body 0, its
  `else` 1; a `try`'s body, each handler, its `else`, its `finally`), so paths compare in source order and a
  compound statement's path is a prefix of (and sorts before) the paths inside it;
- a binding sits at the path of the statement that makes it (a `for` target or a `with ... as` name at the
  compound statement itself, which runs before its body; an `except ... as` name at index -1 of its handler).

The binding that reaches a use is the last one before it in source order, provided it dominates the use (its
statement list encloses the use: it runs on every path to it), no other binding of the name lies between the two,
and no loop around the use but not around the binding binds the name anywhere (its back edge could bring that
value).  A binding in the use's own statement is made after the use is read (`held = held.next()`) and is left
out.  Anything else is unknown (None): the answer is never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias, TypeVar

#: One step of a statement's position: (which statement list of the enclosing statement, index in it).
Step: TypeAlias = tuple[int, int]
#: A statement's position from the function's body (the body is block 0 of the function).
Path: TypeAlias = tuple[Step, ...]

T = TypeVar("T")


def reaching(bindings: Sequence[tuple[Path, T | None]], use: Path, loops: frozenset[Path]) -> T | None:
    """The value (`T`, None for a binding the caller cannot name) of the one binding of `bindings` that reaches
    the statement at `use` on every path, as the module docstring describes; None when no single one does.
    `loops`: the paths of the loop statements (`for`, `while`) of the function."""
    before = [(path, value) for path, value in bindings if path < use]
    if not before:
        return None
    last_path, last_value = max(before, key=lambda item: item[0])
    if last_value is None or not _dominates(last_path, use):
        return None
    for path, _ in bindings:
        if last_path < path < use:
            return None  # another binding between them may be the one that reached
    for depth in range(1, len(use) + 1):
        # a loop around the use (or the use's own loop header, a `while` test read again each round) that does
        # not hold the binding itself
        loop = use[:depth]
        if loop not in loops or (depth < len(use) and _within(last_path, loop, strict=False)):
            continue
        if any(_within(path, loop, strict=depth == len(use)) for path, _ in bindings):
            return None  # the loop binds the name again: its back edge may bring that value
    return last_value


def _within(path: Path, outer: Path, strict: bool) -> bool:
    """Whether `path` lies inside the statement at `outer` (or is that statement, unless `strict`)."""
    if len(path) < len(outer) or (strict and len(path) == len(outer)):
        return False
    return path[: len(outer)] == outer


def _dominates(binding: Path, use: Path) -> bool:
    """Whether the statement at `binding` runs on every path to `use`: its statement list encloses `use`, at an
    earlier (or the same, for a compound statement's own header) index."""
    if len(binding) > len(use):
        return False
    depth = len(binding) - 1
    if binding[:depth] != use[:depth]:
        return False
    block, index = binding[depth]
    use_block, use_index = use[depth]
    return block == use_block and index <= use_index
