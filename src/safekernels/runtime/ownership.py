"""Runtime moves: the dynamic twin of the checker's E0382.

Objects that SPEC §4 says are moved (tile tensors, partitions and `DeviceOp`s given to a launch, receivers of
`partition`/`sync_on`/`then`/...; the list is `safekernels.ownership_model`) inherit `Movable`.  Moving records
where it happened (the first stack frame outside this package) and which local name held the value there, so the
later error reads like rustc: "use of moved value: `z` (moved at app.py:12)".
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from types import FrameType

from safekernels.errors import UseAfterMoveError

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class MoveSite:
    name: str | None
    filename: str
    line: int
    operation: str

    def describe(self) -> str:
        return f"{self.filename}:{self.line}"


def _user_frame() -> FrameType | None:
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
    return frame


class Movable:
    """Mixin: a value that can be moved exactly once; any use afterwards raises `UseAfterMoveError`."""

    _moved: MoveSite | None = None

    def _mark_moved(self, operation: str) -> None:
        """Invalidate `self`; call this at the move, before the new owner takes over."""
        self._check_alive(operation)
        frame = _user_frame()
        name = None
        if frame is not None:
            name = next((k for k, v in frame.f_locals.items() if v is self), None)
            self._moved = MoveSite(name, frame.f_code.co_filename, frame.f_lineno, operation)
        else:  # pragma: no cover - only when called from inside the package with no user frame
            self._moved = MoveSite(None, "<unknown>", 0, operation)

    def _check_alive(self, operation: str) -> None:
        """Raise `UseAfterMoveError` if `self` was moved; `operation` names what the caller tried to do."""
        site = self._moved
        if site is None:
            return
        what = f"`{site.name}`" if site.name else f"this {type(self).__name__}"
        raise UseAfterMoveError(
            f"use of moved value: {what} ({operation} after it was moved into `{site.operation}` at "
            f"{site.describe()}); use the value returned by `sync_on` instead"
        )

    @property
    def is_moved(self) -> bool:
        return self._moved is not None
