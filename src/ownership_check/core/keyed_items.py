"""Items under a literal key of a container the checker did not see built: one object per key.

`bufs["a"]` of a parameter `bufs`, of `self.bufs` filled in a loop, or of a dict a helper returned is an object
the checker cannot name by what was stored there, but two reads of the same container under the same literal key,
with nothing in between that could have changed the container, are the same object, as the runtime sees them:
`k.launch(p, s, bufs["a"], bufs["a"])` is an aliasing error, and a tile launch moving `state["x"]` in a loop
moves it again on the next iteration.  Each such item is the place `bufs.[<key>]`: a path below the container's
place, so everything the core does for attribute paths applies (a parameter's item is the caller's object, a
store `bufs["a"] = v` rebinds it, rebinding `bufs` forgets it, a callee's summary exports its moves).

What could change the container's items without a store the front end sees is forgotten: a statement that hands
the container (or an object it is reached from: `self` of `self.bufs`) to anything else, calls a method of it
other than the reading ones, stores under a key that is not a literal or deletes an item rebinds every item this
function reads under a literal key to a new object (`forgotten`).  The front ends say what a statement does with
each place it names (`Mention`); this module decides.  Keys are integer or string literals; reads under other keys
stay new values (`computed_items` relates equal computed indices).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from ownership_check.core import ir
from ownership_check.diagnostics import Span

#: Methods of a dict or list that only read it: calling one changes none of its items.
READING_METHODS: Final[frozenset[str]] = frozenset(
    {"get", "keys", "values", "items", "copy", "count", "index", "__getitem__", "__contains__", "__len__"}
)

#: Builtins, and stdlib functions by their dotted name, that only read a container they are given (`len(bufs)`,
#: `itertools.cycle(self.scratch)`): its items stay what they were.
READING_CALLS: Final[frozenset[str]] = frozenset(
    {
        "len", "print", "repr", "str", "isinstance", "sorted", "list", "tuple", "set", "iter", "enumerate", "id",
        "bool", "hash", "type", "any", "all", "min", "max", "sum", "zip", "reversed", "dict", "format", "next",
        "itertools.cycle", "itertools.islice", "itertools.chain", "itertools.pairwise", "itertools.zip_longest",
        "itertools.product", "itertools.combinations", "itertools.permutations", "itertools.repeat",
    }
)


def reading_call(callee: str | None) -> bool:
    """Whether a call of `callee` (a builtin's name, or the dotted text of a stdlib function) only reads the
    containers it is given."""
    return callee in READING_CALLS


#: How a key that is a parameter of the function is spelled as a `ContainerKey` (`param_key`): `bufs[key]` of a
#: parameter `key` the body never rebinds is one object per key, as `bufs["a"]` is, and a caller passing a literal
#: for `key` names its own item under that literal (`call_effects`).  No source string starts so.
PARAM_KEY_PREFIX: Final[str] = "\x00="


def param_key(name: str) -> str:
    """The key of `bufs[name]` for a parameter `name` the function never rebinds."""
    return PARAM_KEY_PREFIX + name


def param_of(key: int | str | None) -> str | None:
    """The parameter a `param_key` names, None for any other key."""
    return key[len(PARAM_KEY_PREFIX):] if isinstance(key, str) and key.startswith(PARAM_KEY_PREFIX) else None


def segment(key: int | str) -> str | None:
    """The path segment of the item under `key` (`['a']`, `[0]`), or None for a key whose spelling would not stay
    one segment of a dotted path (it holds `.` or `$`)."""
    if isinstance(key, bool):
        return None
    shown = f"[{key!r}]"
    return None if "." in shown or "$" in shown else shown


def keyed_item(container: ir.Place, key: int | str) -> ir.Place | None:
    """The place of the item under literal `key` of the container at `container` (`bufs.['a']`)."""
    part = segment(key)
    if part is None:
        return None
    name = param_of(key)
    shown = f"{container.text}[{key!r}]" if name is None else f"{container.text}[{name}]"
    return ir.Place(container.root, (*container.attrs, part), shown)


def segment_key(part: str) -> int | str | None:
    """The literal key an item's path segment names (`['a']` -> `"a"`, `[0]` -> `0`), None for another segment."""
    if not is_item_segment(part):
        return None
    try:
        key = ast.literal_eval(part[1:-1])
    except (ValueError, SyntaxError):
        return None
    return key if isinstance(key, int | str) and not isinstance(key, bool) else None


def is_item_segment(part: str) -> bool:
    """Whether a path segment is an item's (`keyed_item`), not an attribute's."""
    return part.startswith("[")


#: How a statement names a place (`Mention.how`).
READ: Final[str] = "read"
BOUND: Final[str] = "bound"
HANDED: Final[str] = "handed"


@dataclass(frozen=True)
class Mention:
    """A place a statement names, and how: `"read"` (reading it, an item under a literal key of it, an attribute
    of it, a reading method or a reading builtin's argument: nothing changes), `"bound"` (a whole-name or attribute
    assignment target: the core forgets its paths), or `"handed"` (anything else: a call argument, the receiver of
    another method, a store under a computed key, a `del` of an item, an alias taken)."""

    dotted: str
    how: str


def renewed(name: str, body: ir.Block, span: Span) -> tuple[ir.Bind, ...]:
    """The rebinds to emit where a loop binds its target `name` anew (`for axis in readings:`): every item under it
    (`param_key`) the loop's `body` names, its own reads (`self.centered[axis]`) and those a called function's
    summary made the caller's (`self.submit(axis, ...)` borrowing `self.centered[axis]`), becomes a new object, as
    the next iteration takes another key: what one iteration did to its item (a pending op borrowing it) is not the
    next one's."""
    part = segment(param_key(name))
    found: dict[str, ir.Place] = {}

    for op in ir.all_ops(body):
        if isinstance(op, ir.Branch | ir.Loop | ir.Try | ir.Unsafe):
            continue
        places: tuple[ir.Place | None, ...] = (getattr(op, "place", None),)
        if isinstance(op, ir.Bind):
            sources = (v.source for v in op.values if isinstance(v, ir.FromPlace))
            places = (*op.targets, *sources)
        for place in places:
            if place is not None and part in place.attrs:
                attrs = place.attrs[: place.attrs.index(part) + 1]
                item = ir.Place(place.root, attrs)
                found.setdefault(item.key, item)
    return tuple(ir.Bind((found[key],), (ir.Fresh(renewed=True),), span) for key in sorted(found))


def renewed_head(head: ir.Block, name: str, body: ir.Block, span: Span) -> ir.Block:
    """A loop's `head` followed by the rebinds `renewed` gives for its target `name`: inside each arm of a head
    that is one `Branch` (a loop unrolled over a display or a table, `ir.Loop.unrolled`, whose head must stay one
    `Branch`), else after it."""
    renew = renewed(name, body, span)
    if not renew:
        return head
    if len(head) == 1 and isinstance(head[0], ir.Branch):
        return (replace(head[0], arms=tuple((*arm, *renew) for arm in head[0].arms)),)
    return (*head, *renew)


def forgotten(
    mentions: Iterable[Mention],
    read_keys: Mapping[str, frozenset[int | str]],
    place_of: Callable[[str, tuple[str, ...]], ir.Place],
    span: Span,
) -> tuple[ir.Bind, ...]:
    """The rebinds to emit for a statement: every item this function reads under a literal key (`read_keys`: the
    container's dotted text -> its keys) of a container the statement handed on, or reached through a handed
    object (`self` handed on hands `self.bufs` too), becomes a new object.  `place_of` is the front end's place of
    a root name and attributes (`PlaceNaming.dotted_place`: renames applied)."""
    handed = {m.dotted for m in mentions if m.how == HANDED}
    if not handed:
        return ()
    binds: list[ir.Bind] = []
    for dotted in sorted(read_keys):
        if not any(dotted == h or dotted.startswith(h + ".") for h in handed):
            continue
        root, *attrs = dotted.split(".")
        container = place_of(root, tuple(attrs))
        for key in sorted(read_keys[dotted], key=repr):
            item = keyed_item(container, key)
            if item is not None:
                binds.append(ir.Bind((item,), (ir.Fresh(renewed=True),), span))
    return tuple(binds)
