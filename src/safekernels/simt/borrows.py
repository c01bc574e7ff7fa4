"""Buffers held borrowed by pending `launch_async` operations (the runtime twin of E0505 / E0502 / E0499).

`kernel.launch_async(prepared, *args)` records, for each buffer argument, its device address range and whether
the kernel borrows it mutably; the record lives until the returned `DeviceOp` runs (`sync_on`/`sync`) or is
dropped. Every launch checks its own buffer arguments against the records first: writing what a pending op
reads, or touching what a pending op writes, raises `BorrowError` instead of racing."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from safekernels.errors import BorrowError
from safekernels.runtime.buffer import DeviceBuffer


@dataclass(frozen=True)
class HeldBorrow:
    device: Any
    start: int
    end: int
    mutable: bool
    param: str
    kernel: str


_lock = threading.Lock()
_held: list[HeldBorrow] = []  # mutated in place only, never rebound: `pending_records()` hands out this list


def pending_records() -> list[HeldBorrow]:
    """The live list of pending borrows (read-only for callers).  The launch fast path keeps a reference and
    tests only its truthiness: any pending borrow sends a launch to the checked path."""
    return _held


def check_pending(kernel: str, borrows: Sequence[tuple[str, DeviceBuffer[Any], bool]]) -> None:
    """Refuse `borrows` (param, buffer, mutable) that conflict with a pending operation's borrow."""
    if not _held:
        return
    with _lock:
        held = list(_held)
    for param, buf, mutable in borrows:
        if buf.nbytes == 0:
            continue
        start, end = buf.ptr, buf.ptr + buf.nbytes
        for h in held:
            if h.device is not buf.device or not (start < h.end and h.start < end):
                continue
            if not (mutable or h.mutable):
                continue
            if mutable and h.mutable:
                head = f"cannot borrow `{param}` as mutable more than once at a time (E0499)"
            elif mutable:
                head = f"cannot borrow `{param}` as mutable because it is also borrowed as immutable (E0502)"
            else:
                head = f"cannot borrow `{param}` as immutable because it is also borrowed as mutable (E0502)"
            raise BorrowError(
                f"{head}: argument `{param}` of `{kernel}` overlaps argument `{h.param}` of a pending "
                f"`{h.kernel}.launch_async`; sync that DeviceOp first"
            )


def hold(kernel: str, borrows: Sequence[tuple[str, DeviceBuffer[Any], bool]]) -> list[HeldBorrow]:
    records = [
        HeldBorrow(buf.device, buf.ptr, buf.ptr + buf.nbytes, mutable, param, kernel)
        for param, buf, mutable in borrows
        if buf.nbytes
    ]
    with _lock:
        _held.extend(records)
    return records


def release(records: list[HeldBorrow]) -> None:
    with _lock:
        for record in records:
            for i, h in enumerate(_held):
                if h is record:
                    del _held[i]
                    break
        records.clear()
