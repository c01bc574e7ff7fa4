"""Items a loop moved out of a container, which the container still holds.

A loop over a container the checker did not see built (a parameter, an attribute, a helper's result:
`for name, plane in planes.items():`) binds each iteration's item to an object derived from the container's
(`<container>.$it<site>`, `ir.ITEM_ATTR`).  A launch moving that item leaves the moved object in the container:
the loop rebinds only its own names, so a later read of the container's items (`planes["r"]`, another loop over
it, a helper reading them) reads a moved value, and the runtime raises `UseAfterMoveError` there.

The checker keeps that fact as a marker among a path's moved objects: `<container>.$moved<site>` (the loop that
moved the item), or `<container>.$moved` for a callee's loop (its call summary moves the caller's place
`<argument>.$moved`, `ir.MOVED_ITEM_ATTR`).  The marker lives as long as its container object, and a store under a
key of the container (`planes[name] = out`, the usual store back) or a call taking items out (`clear`, `pop`)
removes it: after that the moved item may no longer be there, and the checker stays silent rather than guess.
The same loop's later items are not read against its own marker (each iteration takes another item).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from ownership_check.core import ir
from ownership_check.diagnostics import Span

_ITEM: Final[str] = "." + ir.ITEM_ATTR
_MARK: Final[str] = "." + ir.MOVED_ITEM_ATTR


def item_of(obj: str) -> tuple[str, str] | None:
    """For a loop item's object (`n4.0.$it3`, `@planes.$it3~`, `n4.0.$it3.$0`): its container's object and the
    loop's site (`("n4.0", "3")`); None for any other object."""
    at = obj.rfind(_ITEM)
    if at <= 0:
        return None
    start = at + len(_ITEM)
    end = start
    while end < len(obj) and obj[end].isdigit():
        end += 1
    if end == start:
        return None
    return obj[:at], obj[start:end]


def marker(container: str, tag: str = "") -> str:
    """The marker saying an item of `container` (an object) was moved by the loop `tag` names (`loop_sites`; ""
    for a callee's loop)."""
    return f"{container}{_MARK}{tag}"


def marker_container(obj: str) -> str | None:
    """The container object a marker (`marker`) is about; None for any other object."""
    at = obj.rfind(_MARK)
    if at <= 0 or _TAG.fullmatch(obj[at + len(_MARK) :]) is None:
        return None
    return obj[:at]


def marker_tag(obj: str) -> str:
    """The loop tag of a marker ("" for a callee's loop)."""
    return obj[obj.rfind(_MARK) + len(_MARK) :]


#: A loop tag: the loop's first item site, and for one of several parts its loop binds from one container (`for
#: op, out in pending:`) which part of how many (`3p1of2`).
_TAG: Final = re.compile(r"(\d+(p\d+of\d+)?)?")


def same_item(mark: str, read: str | None) -> bool:
    """Whether an item read by the loop tagged `read` (None: not by a loop, or by a callee's) may be the item a
    loop tagged `mark` moved: not when the same loop reads it (each iteration takes another item), nor when both
    name different parts of the items (`for op, _ in pending: op.sync_on(s)`, then `for _, out in pending:`)."""
    if read is None or not mark or not read:
        return True
    mark_loop, _, mark_part = mark.partition("p")
    read_loop, _, read_part = read.partition("p")
    if mark_loop == read_loop:
        return False
    return not (mark_part and read_part and mark_part != read_part)


def is_marker_place(place: ir.Place) -> bool:
    """Whether `place` is `<container>.$moved`: a callee's summary moved an item of that container."""
    return place.attrs[-1:] == (ir.MOVED_ITEM_ATTR,)


def container_key(place: ir.Place) -> str | None:
    """The key of the container whose item `place` reads (`planes.['r']`, `planes.$it3`, the element place
    `planes$e0` of a display), or None when `place` is no container's item."""
    if place.attrs:
        last = place.attrs[-1]
        if last.startswith("[") or last.startswith(ir.ITEM_ATTR):
            return ".".join((place.root, *place.attrs[:-1]))
        return None
    at = place.root.rfind("$e")
    if at > 0 and place.root[at + 2 :].isdigit():
        return place.root[:at]
    return None


def param_path(obj: str, params: frozenset[str]) -> tuple[str, tuple[str, ...]] | None:
    """The caller's place a callee's marker is about, as a parameter path ending in `ir.MOVED_ITEM_ATTR`
    (`@planes.$moved3` -> `("planes", ("$moved",))`), when its container is a parameter's value or a plain
    attribute path below one; else None."""
    container = marker_container(obj)
    if container is None or container[0] != "@" or "~" in container:
        return None
    parts = container[1:].split(".")
    if parts[0] not in params or any("$" in part for part in parts[1:]):
        return None
    return parts[0], (*parts[1:], ir.MOVED_ITEM_ATTR)


def loop_sites(body: ir.Block) -> dict[str, str]:
    """Each loop item site of `body` (the digits of the `ir.ITEM_ATTR` sources its binds read) -> its loop's tag
    (`marker`): one loop binds its target's parts from sites of their own (`for rid, op in inflight:`), and a
    generator's application reads an item's parts at one call (`for out, op in launches(jobs):`), so the sites of
    one loop head, or of one call, are one loop, told apart by part when several read one container."""
    parent: dict[str, str] = {}

    def find(site: str) -> str:
        while parent.setdefault(site, site) != site:
            site = parent[site]
        return site

    groups: list[list[tuple[str, str]]] = []  # the (site, container key) of one loop head or one call
    by_span: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for op in ir.all_ops(body):
        if isinstance(op, ir.Loop):
            groups.append([entry for inner in ir.all_ops(op.head) for entry in _item_entries(inner)])
        for site, container, span in _item_entries_spanned(op):
            find(site)
            if span.line:  # a loop head's item has no span of its own
                by_span.setdefault((span.line, span.column), []).append((site, container))
    groups.extend(by_span.values())
    for entries in groups:
        for site, _ in entries[1:]:
            a, b = find(entries[0][0]), find(site)
            if a != b:
                parent[max(a, b, key=int)] = min(a, b, key=int)
    parts: dict[str, str] = {}
    for entries in groups:
        by_container: dict[str, list[str]] = {}
        for site, container in entries:
            sites = by_container.setdefault(container, [])
            if site not in sites:
                sites.append(site)
        for sites in by_container.values():
            if len(sites) > 1:
                for position, site in enumerate(sites):
                    parts.setdefault(site, f"p{position}of{len(sites)}")
    return {site: find(site) + parts.get(site, "") for site in parent}


def _item_entries_spanned(op: ir.Op) -> list[tuple[str, str, Span]]:
    """The loop item sites a bind reads from, each with the key of its container and the value's span."""
    if not isinstance(op, ir.Bind):
        return []
    found = []
    for value in op.values:
        site = _item_site(value)
        if site is not None:
            assert isinstance(value, ir.FromPlace)
            found.append((site, ".".join((value.source.root, *value.source.attrs[:-1])), value.span))
    return found


def _item_entries(op: ir.Op) -> list[tuple[str, str]]:
    """`_item_entries_spanned` without the spans."""
    return [(site, container) for site, container, _ in _item_entries_spanned(op)]


def _item_site(value: ir.Value) -> str | None:
    """The loop item site a bound value reads from (`xs.$it3` -> "3"), else None."""
    if isinstance(value, ir.FromPlace) and value.source.attrs:
        last = value.source.attrs[-1]
        if last.startswith(ir.ITEM_ATTR):
            digits = last[len(ir.ITEM_ATTR) :].rstrip(ir.PAIRED_MARK + ir.RECURRING_MARK)
            if digits.isdigit():
                return digits
    return None


def item_store(target: ir.Place) -> bool:
    """Whether binding `target` stores into a container: an item of it, or its stored objects."""
    return bool(target.attrs) and (target.attrs[-1].startswith("[") or target.attrs[-1] == ir.STORED_ATTR)


def store_lines(ops: Iterable[ir.Op | None]) -> set[tuple[str, tuple[str, ...], int]]:
    """The containers stored into, with the line of the statement: an element use of the container and a bind
    of an item of it (or of its stored objects) on one line (`d[k] = v`, `res, d[k] = op.sync_on(s)`).  Any
    other element use of a container (not a callee's, `inside`) reads one of its items."""
    binds: set[tuple[str, tuple[str, ...], int]] = set()
    uses: set[tuple[str, tuple[str, ...], int]] = set()
    for op in ops:
        if isinstance(op, ir.Bind):
            binds.update((t.root, t.attrs[:-1], op.span.line) for t in op.targets if item_store(t))
        elif isinstance(op, ir.Use) and op.element and op.inside is None:
            uses.add((op.place.root, op.place.attrs, op.span.line))
    return binds & uses
