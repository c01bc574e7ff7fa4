"""What iterating a table the source fixes gives, item by item, and the dict comprehension built over it.

Both front ends list the items of such iterables from their own trees (each one's `static_iterables`: displays and
names bound once to one, in the function, at the module's top level or in a class body); the rules for what
`zip`, `enumerate`, `sorted`, `reversed`, a dict's `keys()` / `values()` / `items()` and the comprehension make of
those items live here, once.  A row is what one iteration gives, as the tuple `for a, b in ...` unpacks (a
1-tuple for a plain item).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ownership_check.core.calls import MAX_CONTAINER_ITEMS, ContainerKey

E = TypeVar("E")
K = TypeVar("K")
Row = tuple[E, ...]

#: Builtins whose result iterates as their one operand does, reordered or not.
WRAPPERS = frozenset({"list", "tuple", "reversed", "sorted"})
#: Methods of a table that only read it: any other attribute of the table's name may change it.
READS = frozenset({"items", "keys", "values", "get", "index", "count"})


@dataclass(frozen=True)
class StaticComprehension(Generic[E]):
    """`{key: value for targets in iterable}` over an iterable listed item by item: one item per iteration, in
    order.  `keys`: each iteration's key (a literal); `bindings`: what each target name takes in that iteration."""

    node: E
    keys: tuple[ContainerKey, ...]
    bindings: tuple[dict[str, E], ...]


def zipped(columns: Sequence[Sequence[E] | None]) -> list[Row[E]] | None:
    """`zip(a, b, ...)` of listed operands: one row per index, stopping at the shortest operand."""
    if not columns or any(c is None for c in columns):
        return None
    listed = [c for c in columns if c is not None]
    length = min(len(c) for c in listed)
    return [tuple(c[i] for c in listed) for i in range(length)]


def wrapped(name: str, rows: list[Row[E]], key_of: Callable[[E], ContainerKey | None]) -> list[Row[E]] | None:
    """`list(...)`, `tuple(...)`, `reversed(...)` or `sorted(...)` of listed rows.  `sorted` is followed only for
    plain items that are all string or all integer literals, which Python orders as their values do."""
    if name == "reversed":
        return rows[::-1]
    if name != "sorted":
        return rows
    if any(len(row) != 1 for row in rows):
        return None
    keys = [key_of(row[0]) for row in rows]
    if any(k is None for k in keys) or len({type(k) for k in keys}) > 1:
        return None
    order = sorted(range(len(rows)), key=lambda i: keys[i])  # type: ignore[arg-type,return-value]
    return [rows[i] for i in order]


def mapping_rows(
    entries: Sequence[tuple[ContainerKey, E]], method: str | None, literal: Callable[[ContainerKey], E]
) -> list[Row[E]] | None:
    """Iterating a dict (`method` None: its keys) or its `keys()`, `values()` or `items()`."""
    if method is None or method == "keys":
        return [(literal(k),) for k, _ in entries]
    if method == "values":
        return [(v,) for _, v in entries]
    if method == "items":
        return [(literal(k), v) for k, v in entries]
    return None


def comprehension(
    node: E,
    names: Sequence[str | None],
    key_name: str,
    rows: list[Row[E]] | None,
    key_of: Callable[[E], ContainerKey | None],
    unpack: Callable[[E], Sequence[E] | None],
) -> StaticComprehension[E] | None:
    """The items of `{key_name: ... for names in ...}` over listed `rows` (`unpack`: a tuple display's items, for
    `for n, k in PAIRS` over a display of pairs): None unless every row binds every target and every key is a
    distinct literal."""
    if rows is None or not rows or len(rows) > MAX_CONTAINER_ITEMS or key_name not in names:
        return None
    if len(names) > 1:
        rows = [tuple(unpack(row[0]) or row) if len(row) == 1 else row for row in rows]
    if any(len(row) != len(names) for row in rows):
        return None
    position = list(names).index(key_name)
    keys = [key_of(row[position]) for row in rows]
    if any(k is None for k in keys) or len(set(keys)) != len(keys):
        return None
    bindings = tuple({name: item for name, item in zip(names, row, strict=True) if name is not None} for row in rows)
    return StaticComprehension(node, tuple(k for k in keys if k is not None), bindings)


def column_kernels(
    names: Sequence[str | None], rows: Sequence[Row[E]], unpack: Callable[[E], Sequence[E] | None],
    kernel_of: Callable[[E], K | None],
) -> dict[str, list[K]]:
    """`for name, kernel in ROWS` over listed rows: each target name every row binds to a kernel, with those
    kernels in order (a name some row binds to anything else is left out)."""
    found: dict[str, list[K]] = {}
    unpacked = [tuple(unpack(row[0]) or row) if len(names) > 1 and len(row) == 1 else row for row in rows]
    if not unpacked or any(len(row) != len(names) for row in unpacked):
        return found
    for position, name in enumerate(names):
        if name is None:
            continue
        kernels = [kernel_of(row[position]) for row in unpacked]
        if all(k is not None for k in kernels):
            found[name] = [k for k in kernels if k is not None]
    return found
