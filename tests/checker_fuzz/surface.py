"""Programs over the whole ownership surface, built from the ownership table (`safekernels.ownership_model`).

The grammar is the table crossed with expression forms and flow forms:

    table entry (a launch form, a moving method, a moving-argument call, a borrowing method, a parameter mode,
                 an unsafe operation)          -> one statement template that exercises it
      x expression form of each argument       -> plain, `p if flag else q`, `p or q`, `(w := p)`, `(p, q)[k % 2]`,
                                                  an attribute `h.p`, a container `bufs[i]` / `named["p"]`,
                                                  a local helper returning a parameter `first_of(p, q)`,
                                                  a standard-library call the checker's table follows
                                                  (`next(itertools.cycle([p]))`, `dict(item=p)["item"]`...)
      x flow form around the statement         -> if/elif/else, for/while with break/continue/else,
                                                  try/except/else/finally, match with guards, with-blocks,
                                                  comprehensions (one launching per item), nested functions
                                                  (with parameters too), `async def` run by `asyncio.run` or
                                                  awaited from another, a method of a class holding buffers,
                                                  helpers returning a tile op or a pending `launch_async` op,
                                                  a kernel defined in `main`
      x call form reaching a launching function -> `CALL_FORMS`: a plain call, an object's `__call__`, static,
                                                  class and instance methods, objects in a list, an `Enum`
                                                  member's method, a forwarding decorator, `singledispatch`,
                                                  `partial`, a dict of functions, a callback loop, `starmap`,
                                                  `map`, a lambda bound to a name, a returned closure

`table_entries()` reads the table; `TEMPLATES` must have a template for every entry (a test fails the day an entry
lands without one), and every generated program records which entries and forms it used, so the runner prints
the table's coverage.  Places: SIMT buffers `a`, `b`, `c` (and views of them), tile tensors `x`, `y`, a partition
`z`, atomic-kernel tensors `keys`, `counts`, a pending tile op `op` and a pending SIMT op `p`.  Programs are valid
Python, mostly typed by mypy, and run on the CPU executor (`main(flag, k)` over a few arguments), which is the
oracle: a runtime ownership error on a line that neither front end reports is a miss.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import hypothesis.strategies as st

from safekernels import ownership_model as model

T = TypeVar("T")
Chooser = Callable[[Sequence[T]], T]

HEADER = '''import argparse
import asyncio
import collections
import contextlib
import copy
import dataclasses
import enum
import functools
import heapq
import itertools
import operator
import random
import types
from dataclasses import dataclass
from typing import Annotated, Any

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, SharedArray, Slice, thread
from safekernels.tile import AtomicTensor, Partition, Tensor
from surface_kernels import *  # noqa: F403  (star_add, star_vecadd: kernels that arrive through a star import)

Vec = Slice[f32]  # a module-level alias in a kernel parameter
Out = DisjointSlice[f32]
BLOCK = 16


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Vec, b: Slice[f32], c: Out) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=64)
def count(a: Slice[f32], hits: AtomicSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(a):
        hits.fetch_add(i, a[i])


@simt.autotune(configs=[64], key=[], warmup=1, rep=1)
@simt.kernel
@simt.launch_contract(domain=1)
def tuned_add(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def histogram(z: Partition[f32], counts: AtomicTensor[i32], keys: Tensor[i32]) -> None:
    k = tile.load_like(keys, z)
    tile.atomic_add(counts, k, 1)
    z.store(k.astype(f32))


@tile.autotune(configs=[tile.Config(BLOCK=16)], key=[], warmup=1, rep=1)
@tile.kernel
def tuned_tile(z: Annotated[Partition[f32], tile.Dims(BLOCK)], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@simt.kernel
@simt.launch_contract(block=64)
def vecmul(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * b[i])


fast_add = vecadd  # module-level aliases of kernels
tile_sum = add


def make_tile_kernel() -> Any:
    """A kernel factory: the kernel is defined in a function body and returned."""

    @tile.kernel
    def made(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) * tile.load_like(y, z))

    return made


@dataclass
class Bufs:
    a: Any
    b: Any
    c: Any


def first_of(u: Any, v: Any) -> Any:
    return u


def launch_op(z: Any, x: Any, y: Any) -> Any:
    return add(z, x, y)


def pending_add(prep: Any, a: Any, b: Any, c: Any) -> Any:
    """A helper returning a pending `launch_async` op: it keeps borrowing `a`, `b`, `c` until it runs."""
    return vecadd.launch_async(prep, a, b, c)


def start_pending(prep: Any, stream: Any, a: Any, b: Any) -> Any:
    """A helper returning a new buffer and the pending `launch_async` op writing it: the op keeps borrowing it."""
    out = sk.zeros(64, f32, stream)
    return out, vecadd.launch_async(prep, a, b, out)


def keep(values: Any) -> Any:
    """A `then` callback handing back the values it is given (the launch's own buffers)."""
    return values


def none_yet() -> Any:
    return None


def passthrough(fn: Any) -> Any:
    """A decorator whose wrapper calls the decorated function with the arguments it is given."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


'''

#: What `main` starts with: every place bound, a prepared launch, a holder of the buffers and containers of them.
SETUP = '''    dev = sk.Device.default()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    cfg = simt.LaunchConfig1D.for_len(64, block=64)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    h = Bufs(a, b, c)
    bufs = [a, b, c]
    named = {"a": a, "b": b, "c": c}
    fresh = tile.zeros((64,), f32).partition((16,))
    z0, counts, keys = histogram(fresh, tile.zeros((16,), i32), tile.zeros((64,), i32)).sync_on(stream)
    z, x, y = add(z0, tile.ones((64,), f32), tile.ones((64,), f32)).sync_on(stream)
    op: sk.DeviceOp[Any] | None = none_yet()  # not narrowed to None: mypy checks the `op is not None` arms
    p: sk.DeviceOp[tuple[Any, ...]] | None = none_yet()
    q: Any = None
'''

#: A module every program star-imports (`from surface_kernels import *`), written beside the programs.
COMPANION_SOURCE = '''"""Kernels that surface programs get through a star import."""

from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

__all__ = ["star_add", "star_vecadd"]


@simt.kernel
@simt.launch_contract(block=64)
def star_vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def star_add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))
'''

#: The project the programs are written into: the companion module, and a `pyproject.toml` that makes the folder a
#: project (the CLI reads the other modules of a program's project, found by its pyproject.toml or `.git`).
COMPANIONS: dict[str, str] = {
    "surface_kernels.py": COMPANION_SOURCE,
    "pyproject.toml": '[project]\nname = "surface-programs"\nversion = "0"\n',
}

BUFFERS = ("a", "b", "c")
TENSORS = ("x", "y")
VIEWS = ("a.view(0, 32)", "a.view(32, 64)", "c.view(16, 48)", "c[0:32]")

#: Expression forms of an argument over places (`{p}`, `{q}` are places; `{i}`/`{key}` index the containers).
EXPRESSION_FORMS: dict[str, str] = {
    "plain": "{p}",
    "conditional": "({p} if flag else {q})",
    "or": "({p} or {q})",
    "walrus": "(w := {p})",
    "subscript": "({p}, {q})[k % 2]",
    "attribute": "h.{p}",
    "container-list": "bufs[{i}]",
    "container-dict": 'named["{p}"]',
    "helper": "first_of({p}, {q})",
    # `dict.get` of a dict display that has the key (the item) or lacks it (the fallback)
    "mapping-get": 'named.get("{p}", {q})',
    "mapping-get-fallback": 'named.get("absent", {p})',
    "stdlib": "",  # a call of the standard library the checker follows (`STDLIB_TEMPLATES`, one per table entry)
}

#: One expression per entry of the checker's standard-library table (`ownership_check.core.stdlib_flow`) whose
#: value at run time is the place `{p}` (or, where the call may give either, `{p}` or `{q}`): the generator checks
#: the table's relations the day an entry lands (`test_every_stdlib_table_entry_has_a_template`).
STDLIB_TEMPLATES: dict[str, str] = {
    "next": "next(iter([{p}]), None)",
    "max": "max({p}, {p}, key=id)",
    "min": "min([{p}], key=id)",
    "random.choice": "random.choice([{p}])",
    "list": "list([{p}])[0]",
    "tuple": "tuple(({p},))[0]",
    "sorted": "sorted([{p}], key=id)[0]",
    "reversed": "next(reversed([{p}]))",
    "iter": "next(iter(({p}, {q})))",
    "filter": "next(filter(lambda item: True, [{p}]))",
    "heapq.nsmallest": "heapq.nsmallest(1, [{p}], key=id)[0]",
    "heapq.nlargest": "heapq.nlargest(2, [{p}, {p}], key=id)[0]",
    "itertools.cycle": "next(itertools.cycle([{p}]))",
    "itertools.islice": "next(itertools.islice([{p}, {q}], 1))",
    "itertools.chain": "next(itertools.chain([{p}], [{q}]))",
    "itertools.chain.from_iterable": "next(itertools.chain.from_iterable([[{p}]]))",
    "itertools.repeat": "next(itertools.repeat({p}, 2))",
    "itertools.pairwise": "next(itertools.pairwise([{p}, {q}]))[0]",
    "zip": "next(zip([{p}], [{q}]))[0]",
    # the first tuple's part of an empty display is the fillvalue itself
    "itertools.zip_longest": "next(itertools.zip_longest([], [{q}], fillvalue={p}))[0]",
    "dict": 'dict(item={p}, other={q})["item"]',
    "dataclasses.replace": "dataclasses.replace(h, a={p}).a",
    "copy.copy": "copy.copy(Bufs({p}, {q}, {q})).a",
    # the two getters over the program's holder and list of the SIMT buffers, the fold over a module helper: the
    # checker follows these only for a name (a getter's operand) and gives a fold's result a new value, so each
    # stands beside `{p}` in a display the expression takes item 0 of
    "operator.attrgetter": '[{p}, operator.attrgetter("a")(h)][0]',
    "operator.itemgetter": "[{p}, operator.itemgetter(0)(bufs)][0]",
    "functools.reduce": "[{p}, functools.reduce(first_of, [{q}], {q})][0]",
    # a lookup finds the item of the first map that has the key
    "collections.ChainMap": 'collections.ChainMap({{"item": {p}}}, {{"other": {q}}})["item"]',
    # every key's value is the one value operand
    "dict.fromkeys": 'dict.fromkeys(["item", "other"], {p})["other"]',
    # an object whose fields are the keyword operands
    "types.SimpleNamespace": "types.SimpleNamespace(item={p}, other={q}).item",
    "argparse.Namespace": "argparse.Namespace(other={q}, item={p}).item",
}
#: The forms that only make sense for the SIMT buffers `a`, `b`, `c` (the holder and containers hold them).
_BUFFER_ONLY = frozenset({"attribute", "container-list", "container-dict", "mapping-get", "mapping-get-fallback"})

#: How host code reaches a function that launches: each form defines a module-level callable (`{name}`, `{Name}`)
#: whose body `{body}` launches with its parameters `u`, `v`, `w` (a SIMT launch, or a tile launch whose op it
#: returns), and calls it from `main` with the caller's places (`{args}`, or `{a0}`, `{a1}`, `{a2}` one by one;
#: `{assign}` binds the tile op; a name a form binds is the callable's own, `run_{name}`: a name bound to two
#: functions in one body is taken to be either at each call).  A test of the runtime's moves and loans through
#: Python's ways of calling.
_PARAMS = "prep: Any, stream: Any, u: Any, v: Any, w: Any"
_FUNCTION = f"def {{name}}({_PARAMS}) -> Any:\n    {{body}}"
_CALLABLE_OBJECT = (
    "class {Name}:\n    def __init__(self, prep: Any, stream: Any) -> None:\n        self.prep = prep\n"
    "        self.stream = stream\n\n    def __call__(self, u: Any, v: Any, w: Any) -> Any:\n"
    "        prep, stream = self.prep, self.stream\n        {body}"
)
CALL_FORMS: dict[str, tuple[str, str]] = {
    "direct": (_FUNCTION, "{assign}{name}(prep, stream, {args})"),
    "call-object": (_CALLABLE_OBJECT, "{assign}{Name}(prep, stream)({args})"),
    "call-object-bound": (_CALLABLE_OBJECT, "runner_{name} = {Name}(prep, stream)\n{assign}runner_{name}({args})"),
    "staticmethod": (
        f"class {{Name}}:\n    @staticmethod\n    def go({_PARAMS}) -> Any:\n        {{body}}",
        "{assign}{Name}.go(prep, stream, {args})",
    ),
    "classmethod": (
        f"class {{Name}}:\n    @classmethod\n    def go(cls, {_PARAMS}) -> Any:\n        {{body}}",
        "{assign}{Name}.go(prep, stream, {args})",
    ),
    "instance-method": (
        f"class {{Name}}:\n    def go(self, {_PARAMS}) -> Any:\n        {{body}}",
        "{assign}{Name}().go(prep, stream, {args})",
    ),
    "objects-in-list": (
        f"class {{Name}}:\n    def go(self, {_PARAMS}) -> Any:\n        {{body}}",
        "for obj in [{Name}()]:\n    {assign}obj.go(prep, stream, {args})",
    ),
    "enum-member": (
        f"class {{Name}}(enum.Enum):\n    GO = 1\n\n    def go(self, {_PARAMS}) -> Any:\n        {{body}}",
        "{assign}{Name}.GO.go(prep, stream, {args})",
    ),
    "decorated": (f"@passthrough\n{_FUNCTION}", "{assign}{name}(prep, stream, {args})"),
    "singledispatch": (
        f"@functools.singledispatch\ndef {{name}}({_PARAMS}) -> Any:\n    {{body}}\n\n\n"
        "@{name}.register\ndef {name}_for_int(prep: int, stream: Any, u: Any, v: Any, w: Any) -> Any:\n"
        "    return None",
        "{assign}{name}(prep, stream, {args})",
    ),
    "partial": (_FUNCTION, "run_{name} = functools.partial({name}, prep, stream)\n{assign}run_{name}({args})"),
    "dict-dispatch": (
        _FUNCTION, 'handlers_{name} = {{"go": {name}}}\n{assign}handlers_{name}["go"](prep, stream, {args})'
    ),
    "callback-loop": (_FUNCTION, "for callback in [{name}]:\n    {assign}callback(prep, stream, {args})"),
    "starmap": (_FUNCTION, "{assign}list(itertools.starmap({name}, [(prep, stream, {args})]))[0]"),
    "map": (_FUNCTION, "{assign}list(map(lambda w: {name}(prep, stream, {a0}, {a1}, w), [{a2}]))[0]"),
    "lambda": (
        _FUNCTION, "run_{name} = lambda p, s, u, v, w: {name}(p, s, u, v, w)\n{assign}run_{name}(prep, stream, {args})"
    ),
    "returned-closure": (
        f"def make_{{name}}() -> Any:\n    def inner({_PARAMS}) -> Any:\n        {{body}}\n\n    return inner",
        "made_{name} = make_{name}()\n{assign}made_{name}(prep, stream, {args})",
    ),
}

#: Call forms whose rows a consumer spreads into the calls (`list(itertools.starmap(f, rows))`): drawn as places.
_PLACE_ROWS = frozenset({"starmap", "map"})

FLOW_FORMS = (
    "if", "elif", "for", "for-break", "for-continue-else", "while", "while-break-else", "try-except-else",
    "try-finally", "try-except-else-finally", "match-guard", "with-suppress", "with-nullcontext", "comprehension",
    "comprehension-loop", "nested-function", "nested-params", "async", "async-await", "method", "dataclass-method",
    "helper-op", "helper-pending", "local-kernel", "kernel-factory", "module-alias", "star-import",
    "escaping-closure", "prefetch-loop", "returned-pending", "context-pending", "attribute-items",
    "keyed-items", "uniform-attribute", "name-alias", "stored-pending-pairs", "appended-list", "display-objects",
    "attribute-alias", "pool-peek", "kernel-table", "plan-cache", "keyed-argument", "accessor-item",
    "filled-containers", "kernel-choice", "returned-pair", "moved-items", "pending-display", "init-alias",
    "subclass-kernel", "local-alias-attribute", "pending-one-path", "uniform-outside", "nested-view",
    "generator-method", "captured-closure", "exhaustive-chain", "unbound-method",
    *(f"call:{name}" for name in CALL_FORMS),
)

#: The tests of `prefetch-loop` on its index `i` of `range(k)`, and whether the body's arm is the one with a next
#: iteration (`i < k` is always true: the last iteration starts an op that never runs).
_PREFETCH_TESTS = (
    ("i + 1 < k", True), ("i < k - 1", True), ("i != k - 1", True), ("i == k - 1", False), ("i + 1 >= k", False),
    ("i < k", True),
)


def table_entries() -> list[str]:
    """Every entry of the ownership table a program can exercise, named `kind:name`."""
    entries = [f"launch:{kind}.{method or '__call__'}" for kind, method in model.LAUNCH_FORMS]
    entries += [f"moves-receiver:{name}" for name in sorted(model.MOVING_METHODS)]
    entries += [f"moves-argument:{name}" for name in sorted(model.MOVING_ARGUMENT_CALLS)]
    entries += [f"borrows:{name}" for name in sorted(model.BORROWING_METHODS)]
    entries += [f"param:{name}" for name in sorted(model.PARAM_MODES)]
    entries += [f"unsafe:{name}" for name in sorted(model.UNSAFE_OPERATIONS)]
    entries += [f"aliases:{name}" for name in sorted(model.ALIASING_FUNCTIONS)]
    entries += [f"loans:{name}" for name in sorted(model.LOAN_INHERITING_METHODS)]
    entries += [f"witness:{name}" for name in sorted(model.WITNESS_CONSUMERS)]
    entries += [f"annotation:{name}" for name in sorted(model.SHARED_ARRAY_ANNOTATIONS)]
    entries += [f"brand:{model.PREPARE_METHOD}"]
    return entries


@dataclass
class Program:
    source: str
    seed: int | None = None
    entries: Counter[str] = field(default_factory=Counter)
    expressions: Counter[str] = field(default_factory=Counter)
    flows: Counter[str] = field(default_factory=Counter)


class _Gen:
    def __init__(self, choose: Chooser[object], statements: int) -> None:
        self.choose = choose
        self.budget = statements
        self.lines: list[str] = []
        self.extra: list[str] = []  # module-level code after the header (methods, local helpers)
        self.program = Program("")
        self.local_kernel = False
        self.kernel_variants: list[str] = []
        self.stdlib_turn: int | None = None

    def pick(self, options: Sequence[T]) -> T:
        return self.choose(options)  # type: ignore[return-value]

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    # --- arguments ------------------------------------------------------------------------------------------

    def arg(self, places: Sequence[str], allow_views: bool = False) -> str:
        form = self.pick((*EXPRESSION_FORMS, "stdlib"))  # twice as often: it stands for the table's many entries
        if form in _BUFFER_ONLY and not set(places) <= set(BUFFERS):
            form = "plain"
        first = self.pick(tuple(places))
        if form == "plain" and allow_views and self.pick((False, False, False, True)):
            first = self.pick(VIEWS)
        second = self.pick(tuple(places))
        self.program.expressions[form] += 1
        if form == "stdlib":
            # the entries in turn from a drawn start, so every one is generated about equally often
            if self.stdlib_turn is None:
                self.stdlib_turn = self.pick(range(len(STDLIB_TEMPLATES)))
            name = tuple(STDLIB_TEMPLATES)[self.stdlib_turn % len(STDLIB_TEMPLATES)]
            self.stdlib_turn += 1
            self.program.expressions[f"stdlib:{name}"] += 1
            return STDLIB_TEMPLATES[name].format(p=first, q=second)
        return EXPRESSION_FORMS[form].format(p=first, q=second, i=BUFFERS.index(first) if first in BUFFERS else 0)

    def buffers(self) -> tuple[str, str, str]:
        if self.pick((True, False)):  # a launch that is fine as written (inputs `a`, `b`, output `c`)
            return self.arg(("a", "b")), self.arg(("a", "b")), self.arg(("c",))
        return self.arg(BUFFERS, True), self.arg(BUFFERS, True), self.arg(BUFFERS, True)

    def tensors(self) -> tuple[str, str]:
        if self.pick((True, False)):
            return "x", "y"
        return self.arg(TENSORS), self.arg(TENSORS)

    # --- statements -----------------------------------------------------------------------------------------

    def entry(self, depth: int, name: str) -> None:
        self.program.entries[name] += 1
        TEMPLATES[name](self, depth)

    def simple(self, depth: int) -> None:
        self.entry(depth, self.pick(tuple(TEMPLATES)))

    def block(self, depth: int, loop: bool = False) -> None:
        for _ in range(self.pick((1, 1, 2))):
            self.statement(depth, loop)
        if loop and self.pick((False, False, False, True)):
            self.emit(depth, f"if k == {self.pick((1, 2))}:")  # a jump that never makes later code unreachable
            self.emit(depth + 1, self.pick(("break", "continue")))

    def statement(self, depth: int, loop: bool = False) -> None:
        self.budget -= 1
        if depth < 3 and self.budget > 0 and self.pick((False, True)):
            self.flow(depth, loop)
        else:
            self.simple(depth)

    def flow(self, depth: int, loop: bool) -> None:
        form = self.pick(FLOW_FORMS)
        self.program.flows[form] += 1
        emit = self.emit
        if form == "if":
            emit(depth, self.pick(("if flag:", "if k > 1:", "if p is not None:", "if op is None:")))
            self.block(depth + 1, loop)
            emit(depth, "else:")
            self.block(depth + 1, loop)
        elif form == "elif":
            emit(depth, "if k == 0:")
            self.block(depth + 1, loop)
            emit(depth, "elif flag:")
            self.block(depth + 1, loop)
        elif form in ("for", "for-break", "for-continue-else"):
            emit(depth, "for _ in range(k):")
            if form == "for-break":
                emit(depth + 1, "if flag:")
                emit(depth + 2, "break")
            if form == "for-continue-else":
                emit(depth + 1, "if not flag:")
                emit(depth + 2, "continue")
            self.block(depth + 1, True)
            if form == "for-continue-else":
                emit(depth, "else:")
                self.block(depth + 1, loop)
        elif form == "while":
            counter = f"n{depth}"
            emit(depth, f"{counter} = 0")
            emit(depth, f"while {counter} < k:")
            emit(depth + 1, f"{counter} += 1")
            self.block(depth + 1, True)
        elif form == "while-break-else":
            counter = f"n{depth}"
            emit(depth, f"{counter} = 0")
            emit(depth, f"while {counter} < k:")
            emit(depth + 1, f"{counter} += 1")
            emit(depth + 1, f"if flag and {counter} == 2:")
            emit(depth + 2, "break")
            self.block(depth + 1, True)
            emit(depth, "else:")
            self.block(depth + 1, loop)
        elif form == "try-except-else":
            emit(depth, "try:")
            self.block(depth + 1, loop)
            emit(depth, "except (RuntimeError, sk.SafeKernelsError):")
            self.block(depth + 1, loop)
            emit(depth, "else:")
            self.block(depth + 1, loop)
        elif form == "try-except-else-finally":
            emit(depth, "try:")
            self.block(depth + 1, loop)
            emit(depth, "except (RuntimeError, sk.SafeKernelsError):")
            self.block(depth + 1, loop)
            emit(depth, "else:")
            self.block(depth + 1, loop)
            emit(depth, "finally:")
            self.block(depth + 1, loop)
        elif form == "try-finally":
            emit(depth, "try:")
            self.block(depth + 1, loop)
            if self.pick((True, False)):
                emit(depth + 1, "if flag:")
                emit(depth + 2, "return")
            emit(depth, "finally:")
            self.block(depth + 1, loop)
        elif form == "match-guard":
            emit(depth, "match k:")
            emit(depth + 1, "case 0 if flag:")
            self.block(depth + 2, loop)
            emit(depth + 1, "case 1:")
            self.block(depth + 2, loop)
            emit(depth + 1, "case _:")
            self.block(depth + 2, loop)
        elif form == "with-suppress":
            emit(depth, "with contextlib.suppress(ValueError):")
            self.block(depth + 1, loop)
        elif form == "with-nullcontext":
            emit(depth, "with contextlib.nullcontext(a) as held:")
            emit(depth + 1, "print(held)")
            self.block(depth + 1, loop)
        elif form == "comprehension":
            emit(depth, f"print([t for t in ({self.pick(BUFFERS)}, {self.pick(BUFFERS)})])")
            self.simple(depth)
        elif form == "comprehension-loop":
            # a comprehension over the buffers that runs a launch per item, then the statement after it
            first, second = self.arg(("a", "b")), self.pick(BUFFERS)
            emit(depth, f"print([vecadd.launch_async(prep, {first}, t, {second}).sync_on(stream) for t in (a, b)])")
            self.program.entries["launch:simt.launch_async"] += 1
            self.simple(depth)
        elif form == "nested-params":
            # a nested function with parameters and captured names, called directly with the caller's places
            name = f"inner{len(self.lines)}"
            emit(depth, f"def {name}(u: Any, v: Any) -> None:")
            emit(depth + 1, f"vecadd.launch(prep, stream, u, v, {self.arg(BUFFERS)})")
            emit(depth, f"{name}({self.arg(BUFFERS, True)}, {self.arg(BUFFERS)})")
            self.program.entries["launch:simt.launch"] += 1
        elif form == "async-await":
            # an `async def` awaited from another one (not a direct call in `main`: the error index lists it)
            name = f"awaited{len(self.lines)}"
            emit(depth, f"async def {name}() -> None:")
            emit(depth + 1, "nonlocal a, b, c, x, y, z, op, p")
            self.block(depth + 1)
            emit(depth, f"async def outer_{name}() -> None:")
            emit(depth + 1, f"await {name}()")
            emit(depth, f"asyncio.run(outer_{name}())")
        elif form == "helper-pending":
            first, second, third = self.buffers()
            emit(depth, f"p = pending_add(prep, {first}, {second}, {third})")
            self.program.entries["launch:simt.launch_async"] += 1
            if self.pick((True, False)):
                self.simple(depth)
            emit(depth, "if p is not None:")
            emit(depth + 1, "p.sync_on(stream)")
        elif form == "nested-function":
            name = f"inner{len(self.lines)}"
            emit(depth, f"def {name}() -> None:")
            emit(depth + 1, "nonlocal a, b, c, x, y, z, op, p")
            self.block(depth + 1)
            emit(depth, f"{name}()")
        elif form == "async":
            name = f"step{len(self.lines)}"
            emit(depth, f"async def {name}() -> None:")
            emit(depth + 1, "nonlocal a, b, c, x, y, z, op, p")
            emit(depth + 1, "await asyncio.sleep(0)")
            self.block(depth + 1)
            emit(depth, f"asyncio.run({name}())")
        elif form == "method":
            self.method(depth)
        elif form == "dataclass-method":
            self.method(depth, dataclass=True)
        elif form == "helper-op":
            emit(depth, f"op = launch_op(z, {self.pick(TENSORS)}, {self.pick(TENSORS)})")
            emit(depth, "z, x, y = op.sync_on(stream)")
        elif form == "kernel-factory":
            emit(depth, "made = make_tile_kernel()")
            emit(depth, f"z, x, y = made(z, {self.arg(TENSORS)}, {self.arg(TENSORS)}).sync_on(stream)")
        elif form == "module-alias":
            if self.pick((True, False)):
                first, second, third = self.buffers()
                emit(depth, f"fast_add.launch(prep, stream, {first}, {second}, {third})")
                self.program.entries["launch:simt.launch"] += 1
            else:
                emit(depth, f"op = tile_sum(z, {self.arg(TENSORS)}, {self.arg(TENSORS)})")
                self.program.entries["launch:tile.__call__"] += 1
        elif form == "star-import":
            if self.pick((True, False)):
                first, second, third = self.buffers()
                emit(depth, f"star_vecadd.launch(star_vecadd.prepare(cfg, dev), stream, {first}, {second}, {third})")
                self.program.entries["launch:simt.launch"] += 1
            else:
                emit(depth, f"z, x, y = star_add(z, {self.arg(TENSORS)}, {self.arg(TENSORS)}).sync_on(stream)")
                self.program.entries["launch:tile.__call__"] += 1
        elif form == "escaping-closure":
            self.escaping_closure(depth)
        elif form == "prefetch-loop":
            self.prefetch_loop(depth)
        elif form == "returned-pending":
            # a helper returns a new buffer beside the pending op writing it; the buffer is used before or after
            # the op runs
            first, second = self.arg(("a", "b")), self.arg(BUFFERS, True)
            emit(depth, f"got, pending = start_pending(prep, stream, {first}, {second})")
            self.program.entries["launch:simt.launch_async"] += 1
            early = self.pick((True, False))
            if not early:
                emit(depth, "pending.sync_on(stream)")
            use = self.pick((
                "print(got.partition((16,)).unpartition().to_numpy(stream)[:1])",
                f"vecadd.launch(prep, stream, {self.arg(('a', 'b'))}, got, c)",
            ))
            emit(depth, use)
            if early:
                emit(depth, "pending.sync_on(stream)")
        elif form == "context-pending":
            self.context_pending(depth)
        elif form == "attribute-items":
            self.attribute_items(depth)
        elif form == "keyed-items":
            self.keyed_items(depth)
        elif form == "uniform-attribute":
            self.uniform_attribute(depth)
        elif form == "name-alias":
            self.name_alias(depth)
        elif form == "stored-pending-pairs":
            self.stored_pending_pairs(depth)
        elif form == "appended-list":
            self.appended_list(depth)
        elif form == "display-objects":
            self.display_objects(depth)
        elif form == "attribute-alias":
            self.attribute_alias(depth)
        elif form == "pool-peek":
            self.pool_peek(depth)
        elif form == "kernel-table":
            self.kernel_table(depth)
        elif form == "plan-cache":
            self.plan_cache(depth)
        elif form == "keyed-argument":
            self.keyed_argument(depth)
        elif form == "accessor-item":
            self.accessor_item(depth)
        elif form == "filled-containers":
            self.filled_containers(depth)
        elif form == "kernel-choice":
            self.kernel_choice(depth)
        elif form == "returned-pair":
            self.returned_pair(depth)
        elif form == "moved-items":
            self.moved_items(depth)
        elif form == "pending-display":
            self.pending_display(depth)
        elif form == "init-alias":
            self.init_alias(depth)
        elif form == "subclass-kernel":
            self.subclass_kernel(depth)
        elif form == "local-alias-attribute":
            self.local_alias_attribute(depth)
        elif form == "pending-one-path":
            self.pending_one_path(depth)
        elif form == "uniform-outside":
            self.uniform_outside(depth)
        elif form == "nested-view":
            self.nested_view(depth)
        elif form == "generator-method":
            self.generator_method(depth)
        elif form == "captured-closure":
            self.captured_closure(depth)
        elif form == "exhaustive-chain":
            self.exhaustive_chain(depth)
        elif form == "unbound-method":
            self.unbound_method(depth)
        elif form.startswith("call:"):
            self.indirect_call(depth, form.removeprefix("call:"))
        else:
            self.kernel_in_main(depth)

    def prefetch_loop(self, depth: int) -> None:
        """A double-buffered loop over `range(k)`: each iteration runs the pending op, then starts the next one
        unless the iteration is the last (`_PREFETCH_TESTS`, some written the other way round, one always true),
        maybe runs it once more after the loop (a use of the op the last iteration ran)."""
        first, second, third = self.buffers()
        test, more = self.pick(_PREFETCH_TESTS)
        self.emit(depth, f"pre = vecadd.launch_async(prep, {first}, {second}, {third})")
        self.emit(depth, "for i in range(k):")
        self.emit(depth + 1, "pre.sync_on(stream)")
        self.emit(depth + 1, f"if {test}:")
        start = f"pre = vecadd.launch_async(prep, {first}, {second}, {third})"
        if more:
            self.emit(depth + 2, start)
        else:
            self.emit(depth + 2, "print(i)")
            self.emit(depth + 1, "else:")
            self.emit(depth + 2, start)
        self.simple(depth + 1)
        if self.pick((False, False, True)):
            self.emit(depth, "pre.sync_on(stream)")
        self.program.entries["launch:simt.launch_async"] += 2

    def context_pending(self, depth: int) -> None:
        """A `@contextlib.contextmanager` generator of the module keeps a `launch_async` op in a local across its
        `yield` (of the op's output) and runs it in its `finally`; the `with` block reads, partitions or launches
        with the yielded buffer while the op is pending."""
        number = len(self.extra)
        self.extra.append(
            "@contextlib.contextmanager\n"
            f"def holding{number}(prep: Any, u: Any, v: Any, w: Any, stream: Any) -> Any:\n"
            "    op = vecadd.launch_async(prep, u, v, w)\n"
            "    try:\n"
            "        yield w\n"
            "    finally:\n"
            "        op.sync_on(stream)\n"
        )
        first, second, third = self.buffers()
        self.emit(depth, f"with holding{number}(prep, {first}, {second}, {third}, stream) as held:")
        self.emit(depth + 1, self.pick((
            "print(len(held))",
            "print(held.partition((16,)).unpartition().to_numpy(stream)[:1])",
            f"vecadd.launch(prep, stream, {self.arg(BUFFERS)}, held, {self.arg(('a', 'b', 'c'))})",
        )))
        self.program.entries["launch:simt.launch_async"] += 1

    def attribute_items(self, depth: int) -> None:
        """A class whose `__init__` stores a dict display of its own buffers under literal keys; a method launches
        with items read under literal keys, a conditional key, and through a method returning one item."""
        name = f"Items{len(self.extra)}"
        first, second, third = (self.pick(("a", "b", "c")) for _ in range(3))
        other = self.pick(("a", "b", "c"))
        key = self.pick((f'"{second}"', f'"{second}" if flag else "{other}"', f'key or "{second}"'))
        read = self.pick(("self.pick()", f'self.bufs["{first}"]'))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, prep: Any, stream: Any) -> None:\n"
            "        self.prep = prep\n"
            "        self.stream = stream\n"
            "        self.bufs: dict[str, Any] = {\n"
            '            "a": sk.zeros(64, f32, stream),\n'
            '            "b": sk.zeros(64, f32, stream),\n'
            '            "c": sk.zeros(64, f32, stream),\n'
            "        }\n\n"
            "    def pick(self) -> Any:\n"
            f'        return self.bufs["{first}"]\n\n'
            "    def run(self, flag: bool, key: str | None) -> None:\n"
            f"        got = {read}\n"
            f'        vecadd.launch(self.prep, self.stream, got, self.bufs[{key}], self.bufs["{third}"])\n'
        )
        flag = self.pick(("True", "False"))
        self.emit(depth, f"{name}(prep, stream).run({flag}, {self.pick(('None', repr(other)))})")
        self.program.entries["launch:simt.launch"] += 1

    def keyed_items(self, depth: int) -> None:
        """A helper taking a dict of new buffers (or tile tensors) it reads under literal keys: one item read twice
        in one launch, an item read before a store under a literal key, or a tile tensor item moved in a loop that
        takes it back into the dict or not."""
        number = len(self.extra)
        if self.pick((True, False)):
            first, second, third = (self.pick(("a", "b", "c")) for _ in range(3))
            stored = self.pick(("", "a", "b", "c"))
            store = f'    bufs["{stored}"] = sk.zeros(64, f32, stream)\n' if stored else ""
            self.extra.append(
                f"def keyed{number}(bufs: Any, prep: Any, stream: Any) -> None:\n"
                f'    first = bufs["{first}"]\n'
                f"{store}"
                f'    vecadd.launch(prep, stream, first, bufs["{second}"], bufs["{third}"])\n'
            )
            made = ", ".join(f'"{k}": sk.zeros(64, f32, stream)' for k in ("a", "b", "c"))
            self.emit(depth, f"keyed{number}({{{made}}}, prep, stream)")
            self.program.entries["launch:simt.launch"] += 1
            return
        kept = self.pick(('state["x"]', "_x"))
        self.extra.append(
            f"def keyed{number}(state: Any, stream: Any) -> None:\n"
            "    for _ in range(2):\n"
            "        out = tile.zeros((64,), f32).partition((16,))\n"
            f'        out, {kept}, _y = add(out, state["x"], state["y"]).sync_on(stream)\n'
        )
        made = ", ".join(f'"{k}": tile.ones((64,), f32).sync_on(stream)' for k in ("x", "y"))
        self.emit(depth, f"keyed{number}({{{made}}}, stream)")
        self.program.entries["launch:tile.__call__"] += 1

    def uniform_attribute(self, depth: int) -> None:
        """A class whose `__init__` stores a list of scratch buffers, one object repeated or one per item, and a
        method launching on two of its items (read under literal indices, or handed out by `itertools.cycle`)."""
        name = f"Scratch{len(self.extra)}"
        made = self.pick((
            "[sk.zeros(64, f32, stream)] * 2",
            "[sk.zeros(64, f32, stream) for _ in range(2)]",
            "dict.fromkeys((0, 1), sk.zeros(64, f32, stream))",
            "{0: sk.zeros(64, f32, stream), 1: sk.zeros(64, f32, stream)}",
        ))
        if made.startswith("dict") or made.startswith("{"):
            run = (
                "    def run(self, src: Any) -> None:\n"
                "        vecadd.launch(self.prep, self.stream, src, self.scratch[0], self.scratch[1])\n"
            )
        else:
            run = self.pick((
                "    def run(self, src: Any) -> None:\n"
                "        vecadd.launch(self.prep, self.stream, src, self.scratch[0], self.scratch[1])\n",
                "    def run(self, src: Any) -> None:\n"
                "        ring = itertools.cycle(self.scratch)\n"
                "        for _ in range(2):\n"
                "            dst = next(ring)\n"
                "            vecadd.launch(self.prep, self.stream, src, src, dst)\n"
                "            src = dst\n",
            ))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, prep: Any, stream: Any) -> None:\n"
            "        self.prep = prep\n"
            "        self.stream = stream\n"
            f"        self.scratch = {made}\n\n"
            f"{run}"
        )
        self.emit(depth, f"{name}(prep, stream).run(sk.zeros(64, f32, stream))")
        self.program.entries["launch:simt.launch"] += 1

    def init_alias(self, depth: int) -> None:
        """A class whose `__init__` binds one attribute to another's buffer, always, under a flag, or never (`self.v
        = self.k if shared else sk.zeros(...)`), and a method launching with the two as input and output or as
        the one output and an input."""
        name = f"Cache{len(self.extra)}"
        bound = self.pick((
            "self.k",
            "self.k if shared else sk.zeros(64, f32, stream)",
            "sk.zeros(64, f32, stream) if shared else self.k",
            "sk.zeros(64, f32, stream)",
        ))
        first, second = self.pick((("self.k", "self.v"), ("self.v", "self.k"), ("src", "self.v")))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, prep: Any, stream: Any, shared: bool) -> None:\n"
            "        self.prep = prep\n"
            "        self.stream = stream\n"
            "        self.k = sk.zeros(64, f32, stream)\n"
            f"        self.v = {bound}\n\n"
            "    def run(self, src: Any) -> None:\n"
            f"        vecadd.launch(self.prep, self.stream, {first}, src, {second})\n"
        )
        self.emit(depth, f"{name}(prep, stream, {self.pick(('True', 'False', 'len(bufs) > 2'))}).run(a)")
        self.program.entries["launch:simt.launch"] += 1

    def subclass_kernel(self, depth: int) -> None:
        """A base class naming `kernel = vecadd` whose `__init__` prepares a launch for it (by name, or for the
        object's `self.kernel` / `type(self).kernel`), a subclass naming `vecmul` or not, with an `__init__` of
        its own calling `super().__init__` or not, and a method launching `self.kernel` (or `vecadd`) with the
        prepared launch, run on objects built from a registry of both classes."""
        base, sub = f"Base{len(self.extra)}", f"Sub{len(self.extra)}"
        prepared = self.pick(("vecadd", "self.kernel", "type(self).kernel"))
        launched = self.pick(("self.kernel", "vecadd"))
        own_init = self.pick((True, False))
        names_kernel = self.pick((True, False))
        body = ""
        if names_kernel:
            body += "    kernel = vecmul\n"
        if own_init:
            body += ("    def __init__(self, dev: Any, stream: Any) -> None:\n"
                     "        super().__init__(dev, stream)\n"
                     "        self.calls = 0\n")
        self.extra.append(
            f"class {base}:\n"
            "    kernel = vecadd\n\n"
            "    def __init__(self, dev: Any, stream: Any) -> None:\n"
            "        self.stream = stream\n"
            "        self.out = sk.zeros(64, f32, stream)\n"
            f"        self.prep = {prepared}.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)\n\n"
            "    def run(self, src: Any) -> None:\n"
            f"        {launched}.launch(self.prep, self.stream, src, src, self.out)\n\n\n"
            f"class {sub}({base}):\n"
            f"{body or '    pass'}\n"
        )
        # (a loop name of its own: a name the kernel-factory form binds to a kernel is a kernel only where bound
        # to nothing else, as docs/checker.md says)
        self.emit(depth, f"for cls{len(self.extra)} in ({base}, {sub}):")
        self.emit(depth + 1, f"cls{len(self.extra)}(dev, stream).run(a)")
        self.program.entries["launch:simt.launch"] += 1

    def local_alias_attribute(self, depth: int) -> None:
        """A class holding the buffers in `self.h` whose method names the holder by a local (`g = self.h`) and binds
        one of its fields through it (to another field, or to a new buffer), then launches with the fields through
        `self.h`; or (tile) moves a field through the local, binds it again to the launch's result or not, and a
        second method reads it through `self.h`."""
        name = f"Holder{len(self.extra)}"
        if self.pick((True, False)):
            bound = self.pick(("g.a", "g.b", "sk.zeros(64, f32, self.stream)"))
            fields = ", ".join(f"self.h.{self.pick(('a', 'b', 'c'))}" for _ in range(2))
            self.extra.append(
                f"class {name}:\n"
                "    def __init__(self, prep: Any, stream: Any, h: Any) -> None:\n"
                "        self.prep = prep\n"
                "        self.stream = stream\n"
                "        self.h = h\n\n"
                "    def run(self, flag: bool) -> None:\n"
                "        g = self.h\n"
                "        if flag:\n"
                f"            g.c = {bound}\n"
                f"        vecadd.launch(self.prep, self.stream, {fields}, self.h.c)\n"
            )
            fresh = "Bufs(sk.zeros(64, f32, stream), sk.zeros(64, f32, stream), sk.zeros(64, f32, stream))"
            self.emit(depth, f"{name}(prep, stream, {fresh}).run({self.pick(('True', 'False', 'flag'))})")
            self.program.entries["launch:simt.launch"] += 1
            return
        kept = self.pick(("g.b", "_"))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, stream: Any, h: Any) -> None:\n"
            "        self.stream = stream\n"
            "        self.h = h\n\n"
            "    def step(self) -> None:\n"
            "        g = self.h\n"
            f"        g.a, {kept}, g.c = add(g.a, g.b, g.c).sync_on(self.stream)\n"
            "        self.report()\n\n"
            "    def report(self) -> None:\n"
            f"        print(self.h.{self.pick(('a', 'b', 'c'))}.to_numpy(self.stream)[:1])\n"
        )
        made = ("Bufs(tile.zeros((64,), f32).partition((16,)), tile.ones((64,), f32).sync_on(stream), "
                "tile.ones((64,), f32).sync_on(stream))")
        self.emit(depth, f"{name}(stream, {made}).step()")
        self.program.entries["launch:tile.__call__"] += 1

    def pending_one_path(self, depth: int) -> None:
        """A class starting a pending `launch_async` op kept in `self.pending` and running it at once only under a
        flag (`finish` runs it and sets it to None), then a method moving the op's output into a tile launch,
        with or without `finish` before it."""
        name = f"Pending{len(self.extra)}"
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, prep: Any, stream: Any, eager: bool) -> None:\n"
            "        self.prep = prep\n"
            "        self.stream = stream\n"
            "        self.src = sk.zeros(64, f32, stream)\n"
            "        self.out = sk.zeros(64, f32, stream)\n"
            "        self.pending: Any = None\n"
            "        self.eager = eager\n\n"
            "    def start(self) -> None:\n"
            "        self.pending = vecadd.launch_async(self.prep, self.src, self.src, self.out)\n"
            "        if self.eager:\n"
            "            self.finish()\n\n"
            "    def finish(self) -> None:\n"
            "        if self.pending is not None:\n"
            "            self.pending.sync_on(self.stream)\n"
            "            self.pending = None\n\n"
            "    def consume(self) -> None:\n"
            "        _z, _x, _y = add(tile.zeros((64,), f32).partition((16,)), self.out, "
            "tile.ones((64,), f32)).sync_on(self.stream)\n"
        )
        obj = f"job{len(self.extra)}"
        self.emit(depth, f"{obj} = {name}(prep, stream, {self.pick(('True', 'False', 'flag'))})")
        self.emit(depth, f"{obj}.start()")
        if self.pick((True, False)):
            self.emit(depth, f"{obj}.finish()")
        self.emit(depth, f"{obj}.consume()")
        self.emit(depth, f"{obj}.finish()")
        self.program.entries["launch:simt.launch_async"] += 1

    def uniform_outside(self, depth: int) -> None:
        """A ping-pong class whose `__init__` stores its two fields as one buffer listed twice (`[buf] * 2`) or as two
        buffers, read outside the class through its properties or its items as a launch's input and output."""
        name = f"Pair{len(self.extra)}"
        made = self.pick(("[sk.zeros(64, f32, stream)] * 2", "[sk.zeros(64, f32, stream) for _ in range(2)]"))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, stream: Any) -> None:\n"
            f"        self.fields = {made}\n"
            "        self.t = 0\n\n"
            "    @property\n"
            "    def src(self) -> Any:\n"
            "        return self.fields[self.t % 2]\n\n"
            "    @property\n"
            "    def dst(self) -> Any:\n"
            "        return self.fields[(self.t + 1) % 2]\n"
        )
        obj = f"pair{len(self.extra)}"
        self.emit(depth, f"{obj} = {name}(stream)")
        first, second = self.pick(((f"{obj}.src", f"{obj}.dst"), (f"{obj}.fields[0]", f"{obj}.fields[1]")))
        self.emit(depth, f"vecadd.launch(prep, stream, {first}, a, {second})")
        self.program.entries["launch:simt.launch"] += 1

    def nested_view(self, depth: int) -> None:
        """A nested function writing a captured buffer and reading the two it is given, called with a view of the
        captured buffer or of another one."""
        n = len(self.extra) + len(self.lines)
        self.emit(depth, f"def blend{n}(u: Any, v: Any) -> None:")
        self.emit(depth + 1, "vecadd.launch(prep, stream, u, v, c)")
        viewed = self.pick(("c", "a", "b"))
        self.emit(depth, f"blend{n}({viewed}.view(32, 64), {self.pick(('a', 'b'))})")
        self.program.entries["launch:simt.launch"] += 1

    def unbound_method(self, depth: int) -> None:
        """A class's `@staticmethod` or `@classmethod` that launches over its parameters, moves the tile tensor
        it is given, or returns two views of its buffer parameter (disjoint or not), called on the class, on an
        object of it, or through `self` in a plain method of it."""
        n = len(self.extra) + len(self.lines)
        name = f"Ops{n}"
        kind = self.pick(("staticmethod", "classmethod"))
        what = self.pick(("launch", "move", "views"))
        if what == "launch":
            params, body = "u: Any, v: Any, w: Any, p: Any, s: Any", "vecadd.launch(p, s, u, v, w)"
            args = ", ".join((*self.buffers(), "prep", "stream"))
            self.program.entries["launch:simt.launch"] += 1
        elif what == "move":
            params = "t: Any, s: Any"
            body = "return add(tile.zeros((64,), f32).partition((16,)), t, tile.ones((64,), f32)).sync_on(s)[0]"
            args = f"{self.pick(TENSORS)}, stream"
            self.program.entries["launch:tile.__call__"] += 1
        else:
            params, body = "buf: Any, n: int, at: int", "return buf.view(0, n), buf.view(at, at + n)"
            self.emit(depth, f"wide{n} = sk.zeros(128, f32, stream)")
            args = f"wide{n}, 64, {self.pick((64, 63, 32, 0))}"
        names = ", ".join(p.split(":")[0] for p in params.split(", "))
        own = "cls, " if kind == "classmethod" else ""
        self.extra.append(
            f"class {name}:\n"
            f"    @{kind}\n"
            f"    def act({own}{params}) -> Any:\n"
            f"        {body}\n\n"
            f"    def run(self, {params}) -> Any:\n"
            f"        return self.act({names})\n"
        )
        # (`run` forwarding to `self.act`: a method's forwarded views are not followed, see the error index)
        called = self.pick(("class", "object", "forward") if what == "views" else ("class", "object", "self"))
        call = {"class": f"{name}.act", "object": f"{name}().act", "self": f"{name}().run"}.get(called, "")
        if called == "object":
            self.emit(depth, f"ops{n} = {name}()")
            call = f"ops{n}.act"
        elif called == "forward":  # a module function returning the method's call, its offset computed
            self.extra.append(
                f"def lanes{n}(buf: Any, n: int, at: int) -> Any:\n    return {name}.act(buf, n, at - 1)\n"
            )
            call = f"lanes{n}"
            args = args.rsplit(", ", 1)[0] + f", {int(args.rsplit(', ', 1)[1]) + 1}"
        if what == "views":
            self.emit(depth, f"lo{n}, hi{n} = {call}({args})")
            self.emit(depth, f"vecadd.launch(prep, stream, {self.pick((f'lo{n}, a', f'a, lo{n}'))}, hi{n})")
            self.program.entries["launch:simt.launch"] += 1
        else:
            self.emit(depth, f"print({call}({args}))")

    def generator_method(self, depth: int) -> None:
        """A class keeping new tile tensors in a dict whose generator method moves each into a tile launch and
        rebinds only its loop name (or stores the handed-back tensor under the item's key), taken to its end by a
        `for`, `list(...)` or a list comprehension (or only its first item, by `next`), then a read of one item."""
        name = f"Stems{len(self.extra)}"
        kept = self.pick(("stem", "self.held[key]"))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, stream: Any) -> None:\n"
            "        self.stream = stream\n"
            "        self.held = {key: tile.ones((64,), f32).sync_on(stream) for key in ('p', 'q')}\n\n"
            "    def envelopes(self) -> Any:\n"
            "        for key, stem in self.held.items():\n"
            f"            _z, {kept}, _y = add(tile.zeros((64,), f32).partition((16,)), stem, "
            "tile.ones((64,), f32)).sync_on(self.stream)\n"
            "            yield key\n"
        )
        obj = f"stems{len(self.extra)}"
        self.emit(depth, f"{obj} = {name}(stream)")
        taken = self.pick(("for", "list", "comprehension", "next"))
        if taken == "for":
            self.emit(depth, f"for env in {obj}.envelopes():")
            self.emit(depth + 1, "print(env)")
        elif taken == "list":
            self.emit(depth, f"print(list({obj}.envelopes()))")
        elif taken == "comprehension":
            self.emit(depth, f"print([env for env in {obj}.envelopes()])")
        else:
            self.emit(depth, f"print(next({obj}.envelopes()))")
        read = self.pick(("'p'", "'q'"))
        self.emit(depth, f"print({obj}.held[{read}].to_numpy(stream)[:1])")
        self.program.entries["launch:tile.__call__"] += 1

    def captured_closure(self, depth: int) -> None:
        """A factory returning a closure that passes a tensor the factory built (or a shared op) to a tile launch
        as an input, called once or twice."""
        n = len(self.extra) + len(self.lines)
        made = self.pick(("tile.ones((64,), f32).sync_on(stream)", "tile.ones((64,), f32).shared()"))
        self.extra.append(
            f"def make_step{n}(stream: Any) -> Any:\n"
            f"    anchor = {made}\n\n"
            "    def step() -> Any:\n"
            "        z2, _x, _y = add(tile.zeros((64,), f32).partition((16,)), anchor, "
            "tile.ones((64,), f32)).sync_on(stream)\n"
            "        return z2\n\n"
            "    return step\n"
        )
        self.emit(depth, f"step{n} = make_step{n}(stream)")
        for _ in range(self.pick((1, 2))):
            self.emit(depth, f"print(step{n}().unpartition().to_numpy(stream)[:1])")
        self.program.entries["launch:tile.__call__"] += 1

    def exhaustive_chain(self, depth: int) -> None:
        """A loop over kinds binding a name in each arm of an `if`/`elif` chain or a `match` (with or without an arm
        that raises), then moving it (`unpartition`); the name bound before the loop or not, a kind no arm tests or
        not."""
        n = len(self.extra) + len(self.lines)
        kinds = self.pick((("'p'", "'q'"), ("'q'", "'p'"), ("'p'", "'r'")))
        if self.pick((True, False)):
            self.emit(depth, f"res{n} = tile.zeros((64,), f32).partition((16,))")
        self.emit(depth, f"for kind{n} in ({', '.join(kinds)}):")
        launch = "add(tile.zeros((64,), f32).partition((16,)), tile.ones((64,), f32), tile.ones((64,), f32))"
        closed = self.pick((False, True))  # an arm that raises says one of the others always runs
        if self.pick((True, False)):
            self.emit(depth + 1, f"if kind{n} == 'p':")
            self.emit(depth + 2, f"res{n}, _x{n}, _y{n} = {launch}.sync_on(stream)")
            self.emit(depth + 1, f"elif kind{n} == 'q':")
            self.emit(depth + 2, f"res{n}, _x{n}, _y{n} = {launch}.sync_on(stream)")
            if closed:
                self.emit(depth + 1, "else:")
                self.emit(depth + 2, f"raise ValueError(kind{n})")
        else:
            self.emit(depth + 1, f"match kind{n}:")
            self.emit(depth + 2, "case 'p':")
            self.emit(depth + 3, f"res{n}, _x{n}, _y{n} = {launch}.sync_on(stream)")
            self.emit(depth + 2, "case 'q' | 's':")
            self.emit(depth + 3, f"res{n}, _x{n}, _y{n} = {launch}.sync_on(stream)")
            if closed:
                self.emit(depth + 2, "case _:")
                self.emit(depth + 3, f"raise ValueError(kind{n})")
        self.emit(depth + 1, f"print(res{n}.unpartition().to_numpy(stream)[:1])")
        self.program.entries["launch:tile.__call__"] += 1

    def name_alias(self, depth: int) -> None:
        """A name bound to the buffer holder `h` (or a new holder of the tile tensors): a launch through both names,
        or a tile launch moving a field through one name and a read of it through the other."""
        if self.pick((True, False)):
            self.emit(depth, "g = h")
            fields = [f"{self.pick(('g', 'h'))}.{self.pick(('a', 'b', 'c'))}" for _ in range(3)]
            self.emit(depth, f"vecadd.launch(prep, stream, {', '.join(fields)})")
            self.program.entries["launch:simt.launch"] += 1
            return
        made = "tile.zeros((64,), f32).partition((16,)), tile.ones((64,), f32).sync_on(stream), " + (
            "tile.ones((64,), f32).sync_on(stream)"
        )
        self.emit(depth, f"held = Bufs({made})")
        self.emit(depth, "other = held")
        moved = self.pick(("held", "other"))
        self.emit(depth, f"_z, _b, _c = add({moved}.a, {moved}.b, {moved}.c).sync_on(stream)")
        self.emit(depth, f"print({self.pick(('held', 'other'))}.{self.pick(('b', 'c'))}.to_numpy(stream)[:1])")
        self.program.entries["launch:tile.__call__"] += 1

    def appended_list(self, depth: int) -> None:
        """An empty list grown by `append` statements, then a loop over it launching each item with buffers that
        may be among the appended ones."""
        self.emit(depth, "grown = []")
        for _ in range(self.pick((1, 2, 3))):
            self.emit(depth, f"grown.append({self.pick(BUFFERS)})")
        self.emit(depth, "for t in grown:")
        self.emit(depth + 1, f"vecadd.launch(prep, stream, t, {self.arg(BUFFERS)}, {self.arg(BUFFERS)})")
        self.program.entries["launch:simt.launch"] += 1

    def filled_containers(self, depth: int) -> None:
        """New buffers and the pending `launch_async` ops writing them stored in two containers in a loop (appended
        to lists, or stored under the loop's key in dicts), then a loop over the buffers moving each into a tile
        launch, with the ops run before that loop or only after it (a pending op still borrows the moved buffer)."""
        n = len(self.extra) + len(self.lines)
        keyed = self.pick((False, True))
        self.emit(depth, f"ops{n}: Any = {{}}" if keyed else f"ops{n}: Any = []")
        self.emit(depth, f"outs{n}: Any = {{}}" if keyed else f"outs{n}: Any = []")
        self.emit(depth, f"for j{n} in range(2):")
        self.emit(depth + 1, f"made{n} = sk.zeros(64, f32, stream)")
        start = f"vecadd.launch_async(prep, {self.arg(('a', 'b'))}, {self.arg(('a', 'b'))}, made{n})"
        self.emit(depth + 1, f"ops{n}[j{n}] = {start}" if keyed else f"ops{n}.append({start})")
        self.emit(depth + 1, f"outs{n}[j{n}] = made{n}" if keyed else f"outs{n}.append(made{n})")
        run = f"for op{n} in ops{n}.values():" if keyed else f"for op{n} in ops{n}:"
        early = self.pick((False, True))
        if early:
            self.emit(depth, run)
            self.emit(depth + 1, f"op{n}.sync_on(stream)")
        self.emit(depth, f"for buf{n} in outs{n}.values():" if keyed else f"for buf{n} in outs{n}:")
        moved = f"add(tile.zeros((64,), f32).partition((16,)), buf{n}, tile.ones((64,), f32))"
        self.emit(depth + 1, f"{moved}.sync_on(stream)")
        if not early:
            self.emit(depth, run)
            self.emit(depth + 1, f"op{n}.sync_on(stream)")
        self.program.entries["launch:simt.launch_async"] += 1
        self.program.entries["launch:tile.__call__"] += 1

    def moved_items(self, depth: int) -> None:
        """A container of new tile tensors built by a comprehension (a dict or a list), a loop moving each item
        into a tile launch and rebinding only its loop name (or storing the handed-back tensor under the item's
        key, or only on some iterations), then a read of the items (by key, by index, or by another loop)."""
        n = len(self.extra) + len(self.lines)
        keyed = self.pick((False, True))
        made = "tile.ones((64,), f32).sync_on(stream)"
        self.emit(depth, f"held{n} = {{name: {made} for name in ('p', 'q')}}" if keyed
                  else f"held{n} = [{made} for _ in range(2)]")
        self.emit(depth, f"for key{n}, item{n} in held{n}.items():" if keyed
                  else f"for key{n}, item{n} in enumerate(held{n}):")
        first_key, second_key = ('"p"', '"q"') if keyed else ("0", "1")
        guard = self.pick(("", f"if key{n} == {first_key}:", "if flag:"))
        inner = depth + 1
        if guard:
            self.emit(inner, guard)
            inner += 1
        self.emit(inner, f"_z{n}, item{n}, _y{n} = add(tile.zeros((64,), f32).partition((16,)), item{n}, "
                         "tile.ones((64,), f32)).sync_on(stream)")
        if self.pick((False, True)):
            self.emit(inner, f"held{n}[key{n}] = item{n}")
        self.program.entries["launch:tile.__call__"] += 1
        read = self.pick(("key", "loop"))
        if read == "key":
            self.emit(depth, f"print(held{n}[{second_key}].to_numpy(stream)[:1])")
        else:
            iterated = f"held{n}.values()" if keyed else f"held{n}"
            self.emit(depth, f"for again{n} in {iterated}:")
            self.emit(depth + 1, f"print(again{n}.to_numpy(stream)[:1])")

    def pending_display(self, depth: int) -> None:
        """Pending `launch_async` ops kept in a dict or list display, drained by `pop` (before or after a tile
        launch moves the buffer one of them writes), the buffer handed back by `sync_on`."""
        n = len(self.extra) + len(self.lines)
        keyed = self.pick((False, True))
        start = "vecadd.launch_async(prep, a, b, c)"
        self.emit(depth, f'pend{n} = {{"first": {start}}}' if keyed else f"pend{n} = [{start}]")
        self.program.entries["launch:simt.launch_async"] += 1
        drain = [f"for key{n} in list(pend{n}):", f"    pend{n}.pop(key{n}).sync_on(stream)"] if keyed else [
            f"while pend{n}:", f"    pend{n}.pop().sync_on(stream)"
        ]
        early = self.pick((False, True))
        if early:
            for line in drain:
                self.emit(depth, line)
        self.emit(depth, f"_z{n}, c, _y{n} = add(tile.zeros((64,), f32).partition((16,)), c, "
                         "tile.ones((64,), f32)).sync_on(stream)")
        self.program.entries["launch:tile.__call__"] += 1
        if not early:
            for line in drain:
                self.emit(depth, line)

    def display_objects(self, depth: int) -> None:
        """A loop over a display of one or two new objects (not names) whose body moves the tile tensors into a
        launch, rebinding them from `sync_on` or not."""
        items = ", ".join("Bufs(a, b, c)" for _ in range(self.pick((1, 2))))
        self.emit(depth, f"for held in [{items}]:")
        self.emit(depth + 1, "print(held.a)")
        rebind = self.pick(("z, x, y", "_z, _x, _y"))
        self.emit(depth + 1, f"{rebind} = add(z, {self.arg(TENSORS)}, {self.arg(TENSORS)}).sync_on(stream)")
        self.program.entries["launch:tile.__call__"] += 1

    def attribute_alias(self, depth: int) -> None:
        """A holder of the tile tensors stored by a constructor in another object (`Outer(held)` keeping it in
        `self.inner`), maybe reached through a local bound to that attribute: a tile launch moving the fields
        through one spelling, then a read of one field through another."""
        name = f"Outer{len(self.extra)}"
        self.extra.append(f"class {name}:\n    def __init__(self, inner: Any) -> None:\n        self.inner = inner\n")
        made = "tile.zeros((64,), f32).partition((16,)), tile.ones((64,), f32).sync_on(stream), " + (
            "tile.ones((64,), f32).sync_on(stream)"
        )
        self.emit(depth, f"held = Bufs({made})")
        self.emit(depth, f"outer = {name}(held)")
        spellings = ["held", "outer.inner"]
        if self.pick((True, False)):
            self.emit(depth, "inner = outer.inner")
            spellings.append("inner")
        moved = self.pick(spellings)
        self.emit(depth, f"_z, _b, _c = add({moved}.a, {moved}.b, {moved}.c).sync_on(stream)")
        self.emit(depth, f"print({self.pick(spellings)}.{self.pick(('b', 'c'))}.to_numpy(stream)[:1])")
        self.program.entries["launch:tile.__call__"] += 1

    def pool_peek(self, depth: int) -> None:
        """A pool of scratch buffers in a list whose `acquire` pops or peeks at the last item (a new buffer while
        the list is empty), held by another object or not: two acquires launched as output and input, maybe with
        a release between them."""
        name = f"Pool{len(self.extra)}"
        taken = self.pick(("self.free.pop()", "self.free[-1]"))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, stream: Any) -> None:\n"
            "        self.stream = stream\n"
            "        self.free: list[Any] = []\n\n"
            "    def acquire(self) -> Any:\n"
            "        if not self.free:\n"
            "            return sk.zeros(64, f32, self.stream)\n"
            f"        return {taken}\n\n"
            "    def release(self, buf: Any) -> None:\n"
            "        self.free.append(buf)\n"
        )
        self.emit(depth, f"pool = Bufs({name}(stream), None, None)")
        for _ in range(self.pick((1, 2))):
            self.emit(depth, "pool.a.release(sk.zeros(64, f32, stream))")
        held = self.pick(("pool.a", "direct"))
        if held == "direct":
            self.emit(depth, "direct = pool.a")
        self.emit(depth, f"first = {held}.acquire()")
        if self.pick((False, True)):
            self.emit(depth, f"{held}.release(sk.zeros(64, f32, stream))")
        self.emit(depth, f"second = {held}.acquire()")
        self.emit(depth, f"vecadd.launch(prep, stream, {self.arg(BUFFERS)}, first, second)")
        self.program.entries["launch:simt.launch"] += 1

    def kernel_table(self, depth: int) -> None:
        """Launches prepared by a dict comprehension over tables of names and kernels (class-level tuples zipped in
        `__init__`, a module-level registry's sorted keys zipped with its values, or its `items()`), in the same
        order or not: `vecmul` launches what the table keeps under `"mul"`."""
        name = f"Table{len(self.extra)}"
        kernels = self.pick(("vecadd, vecmul", "vecmul, vecadd"))
        source = self.pick(("zip(self.NAMES, self.KERNELS)", "zip(sorted(self.REG), self.REG.values())",
                            "self.REG.items()"))
        registry = self.pick(('{"add": vecadd, "mul": vecmul}', '{"mul": vecadd, "add": vecmul}'))
        self.extra.append(
            f"class {name}:\n"
            '    NAMES = ("add", "mul")\n'
            f"    KERNELS = ({kernels})\n"
            f"    REG = {registry}\n\n"
            "    def __init__(self, cfg: Any, dev: Any) -> None:\n"
            f"        self.prepared = {{n: k.prepare(cfg, dev) for n, k in {source}}}\n"
        )
        self.emit(depth, f"table = {name}(cfg, dev)")
        first, second, third = self.buffers()
        self.emit(depth, f"vecmul.launch(table.prepared[\"mul\"], stream, {first}, {second}, {third})")
        self.program.entries["launch:simt.launch"] += 1
        self.program.entries[f"brand:{model.PREPARE_METHOD}"] += 1

    def kernel_choice(self, depth: int) -> None:
        """A kernel and a prepared launch picked together (a conditional expression of pairs or of kernels, or the
        arms of an `if`), sometimes the launch prepared for the other kernel, then launched through the name."""
        plan = self.pick(("prep", "prep_mul"))
        spelling = self.pick(("pairs", "kernels", "if"))
        if spelling == "pairs":
            self.emit(depth, f"kern, plan = (vecadd, prep) if flag else (vecmul, {plan})")
        elif spelling == "kernels":
            self.emit(depth, "kern = vecmul if flag else vecadd")
            self.emit(depth, f"plan = {self.pick(('prep_mul if flag else prep', plan))}")
        else:
            self.emit(depth, "if k % 2:")
            self.emit(depth + 1, f"kern, plan = vecmul, {plan}")
            self.emit(depth, "else:")
            self.emit(depth + 1, "kern, plan = vecadd, prep")
        first, second, third = self.buffers()
        self.emit(depth, f"kern.launch(plan, stream, {first}, {second}, {third})")
        self.program.entries["launch:simt.launch"] += 1
        self.program.entries[f"brand:{model.PREPARE_METHOD}"] += 1

    def returned_pair(self, depth: int) -> None:
        """A helper returns two places, or two views of one buffer, in an order its conditional expression picks
        (`return (u, v) if flip else (v, u)`); the caller unpacks them into a launch's input and output."""
        name = f"pair{len(self.extra)}"
        shape = self.pick(("places", "views", "buffer-and-view", "default-out"))
        if shape == "buffer-and-view":
            # a new buffer beside views of it: the whole and a half overlap, the two halves do not
            self.extra.append(
                f"def {name}(stream: Any) -> Any:\n"
                "    buf = sk.zeros(64, f32, stream)\n"
                "    return buf, buf.view(0, 32), buf.view(32, 64)\n"
            )
            self.emit(depth, f"whole, lo, hi = {name}(stream)")
            first, second = self.pick((("lo", "hi"), ("hi", "lo"), ("whole", "hi"), ("lo", "whole")))
            self.emit(depth, f"vecadd.launch(prep, stream, {first}, {self.arg(BUFFERS)}, {second})")
            self.program.entries["launch:simt.launch"] += 1
            return
        if shape == "default-out":
            # a helper giving the caller's `h.a` unless it is passed an output buffer
            self.extra.append(
                f"def {name}(held: Any, out: Any = None) -> Any:\n"
                "    if out is None:\n"
                "        return held.a\n"
                "    return out\n"
            )
            call = self.pick((f"{name}(h)", f"{name}(h, {self.arg(BUFFERS)})"))
            self.emit(depth, f"dst = {call}")
            self.emit(depth, f"vecadd.launch(prep, stream, {self.pick(('h.a', 'b'))}, {self.arg(BUFFERS)}, dst)")
            self.program.entries["launch:simt.launch"] += 1
            return
        if shape == "places":
            self.extra.append(
                f"def {name}(u: Any, v: Any, flip: bool) -> Any:\n"
                "    return (v, u) if flip else (u, v)\n"
            )
            call = f"{name}({self.arg(BUFFERS)}, {self.arg(BUFFERS)}, flag)"
        else:
            width = self.pick(("32", "40"))  # halves, or a first view reaching into the second
            self.extra.append(
                f"def {name}(buf: Any, flip: bool) -> Any:\n"
                f"    lo = buf.view(0, {width})\n"
                "    hi = buf.view(32, 64)\n"
                "    return (hi, lo) if flip else (lo, hi)\n"
            )
            call = f"{name}({self.pick(('a', 'c'))}, flag)"
        self.emit(depth, f"src, dst = {call}")
        self.emit(depth, f"vecadd.launch(prep, stream, src, {self.arg(BUFFERS)}, dst)")
        self.program.entries["launch:simt.launch"] += 1

    def plan_cache(self, depth: int) -> None:
        """A hand-written cache of prepared launches keyed by the configuration alone (a call over a parameter) or
        by the kernel's name too: `vecmul` launches what the cache gives after `vecadd` filled it, or first."""
        name = f"plans{len(self.extra)}"
        key = self.pick(("simt.LaunchConfig1D.for_len(n, block=64)", "(kernel.name, n)"))
        self.extra.append(
            f"_{name}: dict[Any, Any] = {{}}\n\n\n"
            f"def {name}(kernel: Any, n: int, dev: Any) -> Any:\n"
            f"    key = {key}\n"
            f"    if key not in _{name}:\n"
            f"        _{name}[key] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)\n"
            f"    return _{name}[key]\n"
        )
        first, second, third = self.buffers()
        if self.pick((True, False)):
            self.emit(depth, f"vecadd.launch({name}(vecadd, 64, dev), stream, {first}, {second}, {third})")
            self.program.entries["launch:simt.launch"] += 1
        self.emit(depth, f"vecmul.launch({name}(vecmul, 64, dev), stream, {first}, {second}, {third})")
        self.program.entries["launch:simt.launch"] += 1
        self.program.entries[f"brand:{model.PREPARE_METHOD}"] += 1

    def keyed_argument(self, depth: int) -> None:
        """A helper given a dict of tile tensors and a key moves the item under that key parameter and takes it back
        into the dict or drops it; `main` passes a literal key, then launches with both items of its dict."""
        number = len(self.extra)
        kept = self.pick(("state[key]", "_x"))
        self.extra.append(
            f"def keyedarg{number}(state: Any, key: Any, stream: Any) -> None:\n"
            "    out = tile.zeros((64,), f32).partition((16,))\n"
            f'    out, {kept}, state["y"] = add(out, state[key], state["y"]).sync_on(stream)\n'
        )
        made = ", ".join(f'"{k}": tile.ones((64,), f32).sync_on(stream)' for k in ("x", "y"))
        self.emit(depth, f"state{number} = {{{made}}}")
        self.emit(depth, f'keyedarg{number}(state{number}, "x", stream)')
        self.emit(depth, f"out{number} = tile.zeros((64,), f32).partition((16,))")
        items = f'state{number}["x"], state{number}["y"]'
        self.emit(depth, f"out{number}, _, _ = add(out{number}, {items}).sync_on(stream)")
        self.program.entries["launch:tile.__call__"] += 2

    def accessor_item(self, depth: int) -> None:
        """A class keeping a dict display of buffers and one of prepared launches, read back through a property or a
        method returning an item (under a literal key, or under its key parameter): a launch with the item another
        accessor also gives (E0502 / E0499), or with the launch prepared for another kernel (E0308)."""
        name = f"Holder{len(self.extra)}"
        shown = self.pick(('"inp"', '"out"'))
        prepared = self.pick(('"add"', '"mul"'))
        self.extra.append(
            f"class {name}:\n"
            "    def __init__(self, cfg: Any, dev: Any, stream: Any) -> None:\n"
            '        self.bufs = {"inp": sk.zeros(64, f32, stream), "out": sk.zeros(64, f32, stream)}\n'
            '        self.plans = {"add": vecadd.prepare(cfg, dev), "mul": vecmul.prepare(cfg, dev)}\n\n'
            "    @property\n"
            "    def target(self) -> Any:\n"
            f"        return self.bufs[{shown}]\n\n"
            "    @property\n"
            "    def mul_plan(self) -> Any:\n"
            f"        return self.plans[{prepared}]\n\n"
            "    def get(self, name: str) -> Any:\n"
            '        return self.bufs[name] if name in self.bufs else self.bufs["inp"]\n'
        )
        self.emit(depth, f"held = {name}(cfg, dev, stream)")
        source = self.pick(('held.get("inp")', 'held.bufs["inp"]', "held.target"))
        target = self.pick(("held.target", 'held.get("out")'))
        self.emit(depth, f"vecmul.launch(held.mul_plan, stream, {source}, {self.arg(('a', 'b'))}, {target})")
        self.program.entries["launch:simt.launch"] += 1
        self.program.entries[f"brand:{model.PREPARE_METHOD}"] += 1

    def stored_pending_pairs(self, depth: int) -> None:
        """`start_pending` (a new buffer and the pending op writing it) called per item of a comprehension over a
        display; a loop (or an index) unpacks each pair and uses the buffer before or after running its op."""
        self.emit(depth, "pairs = [start_pending(prep, stream, a, b) for _ in (0, 1)]")
        self.program.entries["launch:simt.launch_async"] += 1
        use = "print(got.partition((16,)).unpartition().to_numpy(stream)[:1])"
        self.emit(depth, "for got, pending in pairs:")
        early = self.pick((True, False))
        self.emit(depth + 1, use if early else "pending.sync_on(stream)")
        self.emit(depth + 1, "pending.sync_on(stream)" if early else use)

    def escaping_closure(self, depth: int) -> None:
        """A closure factory of the module whose closure keeps its own tile tensors in `nonlocal` names and runs a
        tile launch on them at each call, taking all of them back or dropping one (`_`); `main` calls it `k` times
        through the name it is bound to, so a dropped one is read moved by the second call."""
        number = len(self.extra)
        launch = self.pick(("add", "tuned_tile", "star_add"))
        kept = self.pick(("zs, xs, ys", "zs, xs, ys", "zs, xs, _", "zs, _, ys", "_, xs, ys"))
        self.extra.append(
            f"def make_closure{number}(stream: Any) -> Any:\n"
            "    zs = tile.zeros((64,), f32).partition((16,))\n"
            "    xs = tile.ones((64,), f32)\n"
            "    ys = tile.ones((64,), f32)\n\n"
            "    def step() -> None:\n"
            "        nonlocal zs, xs, ys\n"
            f"        {kept} = {launch}(zs, xs, ys).sync_on(stream)\n\n"
            "    return step\n"
        )
        self.emit(depth, f"closure{number} = make_closure{number}(stream)")
        self.emit(depth, "for _ in range(k):")
        self.emit(depth + 1, f"closure{number}()")
        self.program.entries["launch:tile.__call__" if launch != "tuned_tile" else "launch:tile.autotune.__call__"] += 1

    def indirect_call(self, depth: int, form: str) -> None:
        """A launch reached through one of Python's ways of calling (`CALL_FORMS`): a SIMT launch of the caller's
        buffers, or a tile launch whose op the callable returns (moving the caller's partition and tensors)."""
        number = len(self.extra)
        definition, call = CALL_FORMS[form]
        plain = form in _PLACE_ROWS  # rows the consumer spreads are places (their expression forms are covered apart)
        if self.pick((True, False)):
            args = tuple(self.pick(BUFFERS) for _ in range(3)) if plain else self.buffers()
            body, assign = "vecadd.launch(prep, stream, u, v, w)", ""
            self.program.entries["launch:simt.launch"] += 1
        else:
            args = ("z", *(self.pick(TENSORS) for _ in range(2))) if plain else ("z", *self.tensors())
            body, assign = "return add(u, v, w)", "op = "
            self.program.entries["launch:tile.__call__"] += 1
        names = {"name": f"reach{number}", "Name": f"Reach{number}"}
        self.extra.append(definition.format(body=body, **names) + "\n")
        text = call.format(assign=assign, args=", ".join(args), a0=args[0], a1=args[1], a2=args[2], **names)
        for line in text.splitlines():
            self.emit(depth, line)
        if assign and self.pick((True, False)):
            self.emit(depth, "if op is not None:")
            self.emit(depth + 1, "z, x, y = op.sync_on(stream)")

    def method(self, depth: int, dataclass: bool = False) -> None:
        """A class holding buffers (a plain class, or a dataclass), one method of it generated over `self.a`,
        `self.b`, `self.c`."""
        name = f"Holder{len(self.extra)}"
        body: list[str] = []
        for _ in range(self.pick((1, 2, 3))):
            kind = self.pick(("launch", "launch", "alias", "async"))
            first, second, third = (f"self.{self.pick(BUFFERS)}" for _ in range(3))
            if kind == "launch":
                body.append(f"        vecadd.launch(self.prep, self.stream, {first}, {second}, {third})")
            elif kind == "alias":
                body.append(f"        {first} = {second}")
            else:
                body.append(f"        self.pending = vecadd.launch_async(self.prep, {first}, {second}, {third})")
                body.append("        self.pending.sync_on(self.stream)")
        if dataclass:
            fields = "".join(f"    {f}: Any\n" for f in ("a", "b", "c", "prep", "stream"))
            head = f"@dataclass\nclass {name}:\n{fields}    pending: Any = None\n\n"
        else:
            head = (
                f"class {name}:\n"
                "    def __init__(self, a: Any, b: Any, c: Any, prep: Any, stream: Any) -> None:\n"
                "        self.a = a\n        self.b = b\n        self.c = c\n"
                "        self.prep = prep\n        self.stream = stream\n        self.pending: Any = None\n\n"
            )
        self.extra.append(head + "    def run(self) -> None:\n" + "\n".join(body) + "\n")
        self.emit(depth, f"{name}(a, b, c, prep, stream).run()")
        self.program.entries["launch:simt.launch"] += 1

    def kernel_in_main(self, depth: int) -> None:
        """A tile kernel defined in `main` (a closure-style kernel), launched right there."""
        name = f"local{len(self.lines)}"
        emit = self.emit
        emit(depth, "@tile.kernel")
        emit(depth, f"def {name}(z: Partition[f32], x: Tensor[f32]) -> None:")
        emit(depth + 1, "z.store(tile.load_like(x, z))")
        emit(depth, f"op = {name}(z, {self.arg(TENSORS)})")
        if self.pick((True, False)):
            emit(depth, "z, x = op.sync_on(stream)")

    def text(self) -> str:
        extra = "\n\n".join(self.extra)
        body = "\n".join(self.lines)
        return f"{HEADER}{extra}\n\ndef main(flag: bool, k: int) -> None:\n{SETUP}{body}\n"


# --- one template per table entry --------------------------------------------------------------------------------


def _simt_launch(g: _Gen, d: int) -> None:
    first, second, third = g.buffers()
    g.emit(d, f"vecadd.launch(prep, stream, {first}, {second}, {third})")
    g.program.entries["param:Slice"] += 1
    g.program.entries["param:DisjointSlice"] += 1


def _simt_launch_async(g: _Gen, d: int) -> None:
    first, second, third = g.buffers()
    g.emit(d, f"p = vecadd.launch_async(prep, {first}, {second}, {third})")
    if g.pick((True, True, False)):
        g.emit(d, "if p is not None:")
        g.emit(d + 1, "p.sync_on(stream)")


def _simt_unchecked(g: _Gen, d: int) -> None:
    first, second, third = g.buffers()
    if g.pick((True, True, False)):
        g.emit(d, "with simt.unsafe():")
        d += 1
    g.emit(d, f"vecadd.launch_unchecked(cfg, stream, {first}, {second}, {third})")


def _simt_autotune(g: _Gen, d: int) -> None:
    first, second, third = g.buffers()
    g.emit(d, f"tuned_add.launch(stream, {first}, {second}, {third})")


def _tile_call(g: _Gen, d: int) -> None:
    x, y = g.tensors()
    shape = g.pick(("bind", "bind", "eager", "bare"))
    if shape == "bind":
        g.emit(d, f"op = add(z, {x}, {y})")
        if g.pick((True, False)):
            g.emit(d, "z, x, y = op.sync_on(stream)")
    elif shape == "eager":
        g.emit(d, f"z, x, y = add(z, {x}, {y}).sync_on(stream)")
    else:
        g.emit(d, f"add(z, {x}, {y})")
    g.program.entries["param:Partition"] += 1
    g.program.entries["param:Tensor"] += 1


def _tile_autotune(g: _Gen, d: int) -> None:
    x, y = g.tensors()
    g.emit(d, f"z, x, y = tuned_tile(z, {x}, {y}).sync_on(stream)")


def _partition(g: _Gen, d: int) -> None:
    fresh = "z = tile.zeros((64,), f32).partition((16,)).sync_on(stream)"
    g.emit(d, g.pick((fresh, f"z = {g.pick(TENSORS)}.partition((16,))")))


def _unpartition(g: _Gen, d: int) -> None:
    g.emit(d, f"{g.pick(TENSORS)} = z.unpartition()")


def _sync_on(g: _Gen, d: int) -> None:
    g.emit(d, "if op is not None:")
    g.emit(d + 1, "z, x, y = op.sync_on(stream)")
    g.emit(d + 1, "op = none_yet()")


def _sync(g: _Gen, d: int) -> None:
    g.emit(d, "if op is not None:")
    g.emit(d + 1, "z, x, y = op.sync()")
    g.emit(d + 1, "op = none_yet()")


def _graph_on(g: _Gen, d: int) -> None:
    g.emit(d, f"graph = add(z, {g.pick(TENSORS)}, {g.pick(TENSORS)}).graph_on(stream)")
    g.emit(d, "graph.replay()")
    g.emit(d, "z, x, y = graph.value")


def _then(g: _Gen, d: int) -> None:
    g.emit(d, "if op is not None:")
    g.emit(d + 1, "op = op.then(lambda values: values)")


def _zip_method(g: _Gen, d: int) -> None:
    g.emit(d, "if op is not None:")
    g.emit(d + 1, "pair = op.zip(tile.ones((4,), f32))")
    g.emit(d + 1, "(z, x, y), _ = pair.sync_on(stream)")
    g.emit(d + 1, "op = none_yet()")


def _zip_function(g: _Gen, d: int) -> None:
    g.emit(d, "if op is not None:")
    g.emit(d + 1, "both = sk.zip(op, tile.ones((4,), f32))")
    g.emit(d + 1, "(z, x, y), _ = both.sync_on(stream)")
    g.emit(d + 1, "op = none_yet()")


def _first(g: _Gen, d: int) -> None:
    g.emit(d, f"z = add(z, {g.pick(TENSORS)}, {g.pick(TENSORS)}).first().sync_on(stream)")


def _shared(g: _Gen, d: int) -> None:
    form = g.pick(("read twice", "op", "constructor dropped", "kernel dropped"))
    if form == "read twice":
        g.emit(d, "shared = tile.ones((64,), f32).shared()")  # read by two launches, never moved by them
        g.emit(d, "z, _, _ = add(z, shared, shared).sync_on(stream)")
    elif form in ("constructor dropped", "kernel dropped"):
        # run only when `flag`: a constructor's op runs no kernel (no W0003 when dropped); a kernel's op does
        source = (
            "tile.ones((64,), f32)"
            if form == "constructor dropped"
            else "add(tile.zeros((64,), f32).partition((16,)), tile.ones((64,), f32), tile.ones((64,), f32))"
            ".first().unpartition()"
        )
        g.emit(d, f"upload = {source}.shared()")
        g.emit(d, "if flag:")
        g.emit(d + 1, "z, _, _ = add(z, upload, upload).sync_on(stream)")
    else:
        g.emit(d, "if op is not None:")
        g.emit(d + 1, "once = op.shared()")
        g.emit(d + 1, "z, x, y = once.sync_on(stream)")
        g.emit(d + 1, "op = none_yet()")


def _to_numpy(g: _Gen, d: int) -> None:
    g.emit(d, f"print({g.arg((*BUFFERS, *TENSORS))}.to_numpy(stream))")


def _view(g: _Gen, d: int) -> None:
    g.emit(d, f"{g.pick(BUFFERS)} = {g.pick(VIEWS)}")


def _split_at(g: _Gen, d: int) -> None:
    base = g.pick(BUFFERS)
    g.emit(d, f"lo, hi = {base}.split_at(32)")
    g.emit(d, "vecadd.launch(prep, stream, lo, " + g.pick(("lo", "b", "hi")) + ", " + g.pick(("hi", "lo")) + ")")


def _to(g: _Gen, d: int) -> None:
    base = g.pick(BUFFERS)
    g.emit(d, f"{base} = {base}.to(dev, stream)")  # moved to a fresh handle (the same device here)


def _atomic_slice(g: _Gen, d: int) -> None:
    g.emit(d, f"count.launch(prep_count, stream, {g.arg(BUFFERS, True)}, {g.arg(BUFFERS, True)})")


def _atomic_tensor(g: _Gen, d: int) -> None:
    third = g.pick(("keys", "keys", "counts"))
    g.emit(d, f"z, counts, keys = histogram(z, counts, {third}).sync_on(stream)")


def _shared_array(g: _Gen, d: int) -> None:
    _local_simt_kernel(g, d, "arr = simt.shared_array(f32, 64)\n{pad}arr[i] = 1.0")


def _get_unchecked_mut(g: _Gen, d: int) -> None:
    _local_simt_kernel(g, d, "c.get_unchecked_mut(i).set(1.0)")


def _local_simt_kernel(g: _Gen, d: int, operation: str) -> None:
    """A SIMT kernel defined in `main` whose body uses an unsafe operation, inside `simt.unsafe()` or not."""
    name = f"kern{len(g.lines)}"
    unsafe = g.pick((True, False))
    g.emit(d, "@simt.kernel")
    g.emit(d, "@simt.launch_contract(block=64)")
    g.emit(d, f"def {name}(c: DisjointSlice[f32]) -> None:")
    g.emit(d + 1, "i = thread.index_1d().get()")
    inner = d + 1
    if unsafe:
        g.emit(d + 1, "with simt.unsafe():")
        inner = d + 2
    g.emit(inner, operation.format(pad="    " * inner))
    g.emit(d, f"{name}.launch({name}.prepare(cfg, dev), stream, c)")


def _as_buffer(g: _Gen, d: int) -> None:
    first, second, third = g.buffers()
    wrapped = f"sk.as_buffer({g.pick(BUFFERS)})"
    args = [first, second, third]
    args[g.pick((0, 1, 2, 2))] = wrapped
    g.emit(d, f"vecadd.launch(prep, stream, {', '.join(args)})")


def _brand(g: _Gen, d: int) -> None:
    first, second, third = g.buffers()
    g.emit(d, f"vecmul.launch({g.pick(('prep', 'prep_mul', 'prep_mul'))}, stream, {first}, {second}, {third})")


#: How each loan-inheriting method builds an op from a pending `launch_async` op `p`, and what its result binds.
_LOAN_CHAINS: dict[str, tuple[str, str]] = {
    "then": ("p.then(lambda values: values)", "a, b, c = q.sync_on(stream)"),
    "zip": ("p.zip(tile.ones((4,), f32))", "(a, b, c), _ = q.sync_on(stream)"),
    "first": ("p.first()", "a = q.sync_on(stream)"),
    "shared": ("p.shared()", "a, b, c = q.sync_on(stream)"),
    "partition": ("p.first().partition((16,))", "z = q.sync_on(stream)"),
    "unpartition": ("p.first().partition((16,)).unpartition()", "print(q.sync_on(stream).to_numpy(stream))"),
}


def _loans(method: str) -> Callable[[_Gen, int], None]:
    """`q = p.<method>(...)` of a pending `launch_async` op: `q` holds `p`'s loans until it runs, so a launch
    that borrows one of its buffers mutably in between conflicts (E0502/E0499/E0505, `BorrowError`)."""
    chain, sync = _LOAN_CHAINS[method]

    def template(g: _Gen, d: int) -> None:
        if method in ("partition", "unpartition"):  # the op's first value becomes the partition: a fresh buffer
            g.emit(d, "tmp = sk.zeros(64, f32, stream)")
            g.emit(d, f"p = vecadd.launch_async(prep, tmp, {g.arg(('a', 'b'))}, c)")
        else:
            g.emit(d, f"p = vecadd.launch_async(prep, {g.arg(('a', 'b'))}, {g.arg(('a', 'b'))}, c)")
        g.emit(d, f"q = {chain if method != 'then' else g.pick((chain, 'p.then(keep)'))}")
        g.emit(d, "p = none_yet()")
        if g.pick((True, False)):
            first, second, third = g.buffers()
            g.emit(d, f"vecadd.launch(prep, stream, {first}, {second}, {third})")
        g.emit(d, sync)
        g.program.entries["launch:simt.launch_async"] += 1
        g.program.entries[f"moves-receiver:{method}"] += 1

    return template


def _get_mut(g: _Gen, d: int) -> None:
    """A kernel (defined in `main`) taking two elements with one witness (E0382), or with a fresh one."""
    name = f"kern{len(g.lines)}"
    g.emit(d, "@simt.kernel")
    g.emit(d, "@simt.launch_contract(block=64)")
    g.emit(d, f"def {name}(c: DisjointSlice[f32]) -> None:")
    g.emit(d + 1, "idx = thread.index_1d()")
    g.emit(d + 1, "if (first := c.get_mut(idx)) is not None:")
    g.emit(d + 2, "first.set(1.0)")
    if g.pick((True, False)):
        g.emit(d + 1, "idx = thread.index_1d()")
    g.emit(d + 1, "if (again := c.get_mut(idx)) is not None:")
    g.emit(d + 2, "again.set(2.0)")
    g.emit(d, f"{name}.launch({name}.prepare(cfg, dev), stream, {g.pick(('c', 'c', 'b'))})")


def _shared_array_param(g: _Gen, d: int) -> None:
    """A `@simt.device` helper whose `SharedArray` parameter is indexed inside `with simt.unsafe():` or not."""
    helper, name = f"read{len(g.lines)}", f"kern{len(g.lines)}"
    g.emit(d, "@simt.device")
    g.emit(d, f"def {helper}(s: SharedArray[f32], i: int) -> f32:")
    if g.pick((True, False)):
        g.emit(d + 1, "with simt.unsafe():")
        g.emit(d + 2, "return s[i]")
    else:
        g.emit(d + 1, "return s[i]")
    g.emit(d, "@simt.kernel")
    g.emit(d, "@simt.launch_contract(block=64)")
    g.emit(d, f"def {name}(c: DisjointSlice[f32]) -> None:")
    g.emit(d + 1, "idx = thread.index_1d()")
    g.emit(d + 1, "i = idx.get()")
    g.emit(d + 1, "with simt.unsafe():")
    g.emit(d + 2, "arr = simt.shared_array(f32, 64)")
    g.emit(d + 2, "arr[i % 64] = 1.0")
    g.emit(d + 1, f"v = {helper}(arr, i % 64)")
    g.emit(d + 1, "if (out := c.get_mut(idx)) is not None:")
    g.emit(d + 2, "out.set(v)")
    g.emit(d, f"{name}.launch({name}.prepare(cfg, dev), stream, c)")


TEMPLATES: dict[str, Callable[[_Gen, int], None]] = {
    "launch:simt.launch": _simt_launch,
    "launch:simt.launch_async": _simt_launch_async,
    "launch:simt.launch_unchecked": _simt_unchecked,
    "launch:simt.autotune.launch": _simt_autotune,
    "launch:tile.__call__": _tile_call,
    "launch:tile.autotune.__call__": _tile_autotune,
    "moves-receiver:partition": _partition,
    "moves-receiver:unpartition": _unpartition,
    "moves-receiver:sync_on": _sync_on,
    "moves-receiver:sync": _sync,
    "moves-receiver:graph_on": _graph_on,
    "moves-receiver:then": _then,
    "moves-receiver:zip": _zip_method,
    "moves-receiver:first": _first,
    "moves-receiver:shared": _shared,
    "moves-receiver:to": _to,
    "moves-argument:zip": _zip_function,
    "borrows:to_numpy": _to_numpy,
    "borrows:view": _view,
    "borrows:split_at": _split_at,
    "param:Slice": _simt_launch,
    "param:DisjointSlice": _simt_launch,
    "param:AtomicSlice": _atomic_slice,
    "param:Tensor": _tile_call,
    "param:Partition": _tile_call,
    "param:AtomicTensor": _atomic_tensor,
    "unsafe:launch_unchecked": _simt_unchecked,
    "unsafe:shared_array": _shared_array,
    "unsafe:get_unchecked_mut": _get_unchecked_mut,
    "aliases:as_buffer": _as_buffer,
    "brand:prepare": _brand,
    "witness:get_mut": _get_mut,
    "annotation:SharedArray": _shared_array_param,
    **{f"loans:{m}": _loans(m) for m in sorted(model.LOAN_INHERITING_METHODS)},
}


def generate(choose: Chooser[object], statements: int = 8) -> Program:
    gen = _Gen(choose, statements)
    if choose((True, False, False)):
        gen.emit(1, "p = vecadd.launch_async(prep, a, b, c)")
        gen.program.entries["launch:simt.launch_async"] += 1
    while gen.budget > 0:
        gen.statement(1)
    text = gen.text()
    if "prep_count" in text:
        text = text.replace(SETUP, SETUP + "    prep_count = count.prepare(cfg, dev)\n", 1)
    if "prep_mul" in text:
        text = text.replace(SETUP, SETUP + "    prep_mul = vecmul.prepare(cfg, dev)\n", 1)
    gen.program.source = text
    return gen.program


def random_program(seed: int, statements: int = 8) -> Program:
    rng = random.Random(seed)
    program = generate(lambda options: rng.choice(list(options)), statements)
    program.seed = seed
    return program


@st.composite
def programs(draw: st.DrawFn, statements: int = 6) -> Program:
    """The hypothesis strategy (failures shrink to a small program)."""
    return generate(lambda options: draw(st.sampled_from(list(options))), statements)


def expression_forms() -> list[str]:
    """Every expression form the report counts: the forms, then each standard-library table entry's."""
    return [*EXPRESSION_FORMS, *(f"stdlib:{name}" for name in STDLIB_TEMPLATES)]


def coverage(programs: Sequence[Program]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """How often each table entry, expression form and flow form was generated."""
    entries: Counter[str] = Counter(dict.fromkeys(table_entries(), 0))
    expressions: Counter[str] = Counter(dict.fromkeys(expression_forms(), 0))
    flows: Counter[str] = Counter(dict.fromkeys(FLOW_FORMS, 0))
    for program in programs:
        entries.update(program.entries)
        expressions.update(program.expressions)
        flows.update(program.flows)
    return entries, expressions, flows
