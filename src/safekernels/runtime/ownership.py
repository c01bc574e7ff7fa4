"""Runtime moves: the dynamic twin of the checker's E0382.

Objects that are moved (docs/reference.md, "What moves": tile tensors, partitions and `DeviceOp`s given to a
launch, receivers of `partition`/`sync_on`/`then`/...; the list is `safekernels.ownership_model`) inherit `Movable`.
Moving records where it happened (the first stack frame outside this package), so the later error reads like
rustc: "use of moved value: `z` (... moved into `add` at app.py:12)", naming the value by the local that holds it.

Moves sit on the launch hot path, so recording one is cheap and everything else is deferred to the error:

    move   -> walk up to the first user frame (one cached dict lookup per frame, keyed by file name) and keep
              (code object, line, operation, id of the value)
    error  -> only now is the file name read from the code object, the value's local name looked up among
              the frames still running (`MoveSite.name`), and the message built

Two shortcuts keep the walk short.  A launch moves all its arguments at once (`call_site`: one walk and one
site for the batch).  While a `DeviceOp` chain executes, the user frame that called `sync_on`/`graph_on` is suspended
in that call, so it is *pinned* (`execution.frame`): a move made by the chain's own machinery (a `then` link moving
the op its callback returned) walks only until it meets the chain's `DeviceOp._execute` frame and then takes
the pinned frame, however deep the chain (`chain_site`: a `then` chain makes that site once per execution).
Moves made inside user callbacks still walk to the callback's frame, which is only a few frames up.  Code
this package generates (compiled under a `<safekernels ...>` name) counts as the package's own.
"""

from __future__ import annotations

import os
import sys
import threading
from types import CodeType, FrameType
from typing import Any

from safekernels.errors import UseAfterMoveError

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: file name -> True when the file belongs to this package (its frames are skipped when naming a move site).
_INTERNAL_FILES: dict[str, bool] = {}
#: ids of the code objects that only run inside a `DeviceOp` chain's execution (`runtime.device_op` registers
#: them; ids, because hashing a code object hashes its contents).
_CHAIN_CODES: set[int] = set()


class MoveSite(tuple[Any, ...]):
    """Where a value was moved: `(name, where, at, operation, value_id)`, everything else derived on demand.

    `where` is the move's code object and `at` the frame's instruction offset there (`f_lasti`): the file name
    and line are read from them only when a message is built.  A site copied from another one holds the file
    name and line themselves.  The name is found only when a message asks for it (`name`, `name_for`): among
    the locals of the move's frame when it is still running (the usual case: the same function uses the value
    again), else of the innermost user frame that holds the value; `value_id` is the moved value's `id`,
    unambiguous then because the value is alive while its site is read (0: one site for several values, each
    named by `name_for(value)`).  A tuple, so that the hot path makes one with the C-level `tuple.__new__`."""

    __slots__ = ()

    def __new__(
        cls, name: str | None, where: CodeType | str, at: int, operation: str, value_id: int = 0
    ) -> MoveSite:
        return tuple.__new__(cls, (name, where, at, operation, value_id))

    @property
    def name(self) -> str | None:
        name: str | None = self[0]
        if name is None and self[4]:
            return _name_on_stack(self[1], self[4])
        return name

    def name_for(self, value: object) -> str | None:
        """The local name of `value`, one of the values moved at this site (a launch moves several)."""
        name: str | None = self[0]
        if name is None:
            return _name_on_stack(self[1], self[4] or id(value))
        return name

    @property
    def where(self) -> CodeType | str:
        where: CodeType | str = self[1]
        return where

    @property
    def operation(self) -> str:
        operation: str = self[3]
        return operation

    @property
    def filename(self) -> str:
        where = self[1]
        return where if isinstance(where, str) else where.co_filename

    @property
    def line(self) -> int:
        where, at = self[1], self[2]
        if isinstance(where, str):
            return int(at)
        found = (line for start, end, line in where.co_lines() if start <= at < end and line)
        return int(next(found, where.co_firstlineno))

    def describe(self) -> str:
        return f"{self.filename}:{self.line}"

    def __repr__(self) -> str:
        return f"MoveSite({self[0]!r}, {self.describe()}, {self.operation!r})"


#: the hot paths' constructor: `_site(MoveSite, (name, code, f_lasti, operation, value_id))`, no Python frame
_site = tuple.__new__
#: the same, for the tile launch's inlined moves (`tile.kernel`)
new_site = _site
#: file name -> whether it is a file of this package, for the launch hot paths' one-frame test (a name not
#: in it yet: ask `user_frame_from`, which fills it)
internal_files = _INTERNAL_FILES
_getframe = sys._getframe
#: the code object of the last frame a launch hot path found to be user code (a one-entry cache in front of
#: `internal_files`: an eager loop launches from the same function; the strong reference keeps its identity)
last_user_code: list[CodeType | None] = [None]


def _is_internal(filename: str) -> bool:
    """Whether `filename` is code of this package: its files, and the functions it generates (their code is
    compiled under a name starting with `<safekernels`, e.g. a tile launch plan's moves and launcher)."""
    flag = _INTERNAL_FILES.get(filename)
    if flag is None:
        flag = os.path.abspath(filename).startswith(_PACKAGE_DIR) or filename.startswith(GENERATED_PREFIX)
        _INTERNAL_FILES[filename] = flag
    return flag


#: how the file name of code this package generates starts (such frames are never a move's user frame)
GENERATED_PREFIX = "<safekernels"


class _Execution(threading.local):
    """The user frame suspended in the `sync_on`/`graph_on` whose chain is executing on this thread."""

    frame: FrameType | None = None


_execution = _Execution()


def register_chain_code(code: CodeType) -> None:
    """Mark `code` as running only inside a chain's execution (see the module doc)."""
    _CHAIN_CODES.add(id(code))


#: `execution.frame`: the frame pinned while a chain executes (`DeviceOp._sync`/`graph_on` set and restore it)
execution = _execution


def _user_frame(start: int = 0) -> FrameType | None:
    """The first frame outside this package, from `start` frames above the caller (0: the caller; a caller
    that knows how many package frames sit above it skips them without looking); the pinned frame once a
    chain's code is met."""
    frame: FrameType | None = _getframe(start + 1)
    internal = _INTERNAL_FILES
    while frame is not None:
        code = frame.f_code
        flag = internal.get(code.co_filename)
        if flag is None:
            flag = _is_internal(code.co_filename)
        if not flag:
            return frame
        if id(code) in _CHAIN_CODES and _execution.frame is not None:
            return _execution.frame
        frame = frame.f_back
    return None


def _name_on_stack(where: CodeType | str, value_id: int) -> str | None:
    """The local name of the value `value_id` for a message (see `MoveSite`); runs only when one is built."""
    frame: FrameType | None = sys._getframe(1)
    fallback: str | None = None
    while frame is not None:
        if not _is_internal(frame.f_code.co_filename):
            name = next((k for k, v in frame.f_locals.items() if id(v) == value_id), None)
            if name is not None:
                if frame.f_code is where:
                    return name
                if fallback is None:
                    fallback = name
        frame = frame.f_back
    return fallback


def move_site(value: object, operation: str, frame: FrameType | None = None) -> MoveSite:
    """The site of moving `value` now, seen from `frame` (default: the first user frame above the caller)."""
    if frame is None:
        frame = _user_frame(1)  # 0 would be this function
    if frame is None:  # pragma: no cover - only when called from inside the package with no user frame
        return MoveSite(None, "<unknown>", 0, operation)
    site: MoveSite = _site(MoveSite, (None, frame.f_code, frame.f_lasti, operation, id(value)))
    return site


def user_frame(depth: int = 0) -> FrameType | None:
    """The first user frame (where a move made now is reported), from `depth` frames above the caller's
    (0: the caller itself)."""
    return _user_frame(depth + 1)


#: the same, without the extra call, for the launch hot paths (`_user_frame(start)`: `start` counted from
#: the caller of `user_frame_from`)
user_frame_from = _user_frame


def chain_site(operation: str) -> MoveSite:
    """One site for every move a chain's own machinery makes while it executes (a `then` link moving the op
    its callback returned): the pinned frame when there is one, else the first user frame above the caller
    (see the module doc).  The pinned frame is suspended in `sync_on`, so its line cannot change while the
    chain runs: a chain execution makes this site once, not once per link; messages name each value with
    `MoveSite.name_for`."""
    frame = _execution.frame
    if frame is None:
        frame = _user_frame(1)
        if frame is None:  # pragma: no cover - only when called from inside the package with no user frame
            return MoveSite(None, "<unknown>", 0, operation)
    site: MoveSite = _site(MoveSite, (None, frame.f_code, frame.f_lasti, operation, 0))
    return site


def call_site(operation: str, depth: int = 0) -> MoveSite:
    """One site for all the values a call moves into `operation` now (a launch: one walk for the batch);
    messages name each value with `MoveSite.name_for`.  `depth`: as for `user_frame`."""
    frame = _user_frame(depth + 1)
    if frame is None:  # pragma: no cover - only when called from inside the package with no user frame
        return MoveSite(None, "<unknown>", 0, operation)
    site: MoveSite = _site(MoveSite, (None, frame.f_code, frame.f_lasti, operation, 0))
    return site


class Movable:
    """Mixin: a value that can be moved exactly once; any use afterwards raises `UseAfterMoveError`."""

    _moved: MoveSite | None = None

    def _mark_moved(self, operation: str) -> None:
        """Invalidate `self`; call this at the move, before the new owner takes over."""
        if self._moved is not None:
            self._check_alive(operation)
        frame = _user_frame(1)  # 1: our caller, a frame of this package
        if frame is None:  # pragma: no cover - only when called from inside the package with no user frame
            self._moved = MoveSite(None, "<unknown>", 0, operation)
            return
        self._moved = _site(MoveSite, (None, frame.f_code, frame.f_lasti, operation, id(self)))

    def _check_alive(self, operation: str) -> None:
        """Raise `UseAfterMoveError` if `self` was moved; `operation` names what the caller tried to do."""
        site = self._moved
        if site is None:
            return
        name = site.name_for(self)
        what = f"`{name}`" if name else f"this {type(self).__name__}"
        raise UseAfterMoveError(
            f"use of moved value: {what} ({operation} after it was moved into `{site.operation}` at "
            f"{site.describe()}); use the value returned by `sync_on` instead"
        )

    @property
    def is_moved(self) -> bool:
        return self._moved is not None


def frame_locals() -> dict[str, Any]:
    """The locals of the first user frame above the caller (for naming values in error messages)."""
    frame = _user_frame()
    return dict(frame.f_locals) if frame is not None else {}
