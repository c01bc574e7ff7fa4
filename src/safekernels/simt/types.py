"""The kernel-side parameter and value types of the SIMT track, as real generic classes.

They are what kernel signatures name (`Slice[f32]`, `DisjointSlice[f32]`, `AtomicSlice[u32]`) and what the
checker and the mypy plugin key parameter modes on (`ownership_model.PARAM_MODES`), and they are also the
objects the CPU executor hands to a running kernel: each wraps a numpy view of the buffer's memory.  On the
GPU codegen lowers the same method calls to loads, stores and atomics; nothing here runs there.

Safety model, in the words of cuda-oxide's `DisjointSlice`:

- `Slice[T]` is shared and read-only; `a[i]` is bounds-checked and traps (`KernelTrapError` naming the kernel,
  the index and the length) unless the kernel was declared `unchecked_indexing=True` (on the GPU; the CPU
  executor cannot read outside a buffer and traps either way).
- `DisjointSlice[T]` hands each thread the one element its `ThreadIndex` names.  A witness is minted only by
  `thread.index_1d()` / `thread.index_2d(s)`, so two threads never obtain the same element, and `get_mut`
  consumes it, so one thread never obtains it twice.  Out of range is `None`, a branch the kernel must handle.
- `get_unchecked_mut(i)` takes a plain int and needs `with simt.unsafe():`.
- `AtomicSlice[T]` allows any thread to update any element, through atomic read-modify-write operations only.
- `SharedArray[T]` is block-shared memory; every access needs `with simt.unsafe():` (it can race).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from safekernels.errors import KernelTrapError, UnsafeOperationError, UseAfterMoveError
from safekernels.simt._context import state

T = TypeVar("T")


def trap_out_of_bounds(what: str, index: Any, length: int) -> KernelTrapError:
    """The error of an out-of-bounds access (Rust's panic wording, plus kernel and thread)."""
    ctx = state.current
    if ctx is None:
        return KernelTrapError(f"index out of bounds: the len is {length} but the index is {index} ({what})")
    return KernelTrapError(
        f"{ctx.kernel_name}: index out of bounds: the len is {length} but the index is {index} "
        f"({what}, {ctx.describe()})"
    )


def _require_unsafe(operation: str) -> None:
    ctx = state.current
    if ctx is not None and ctx.unsafe_depth <= 0:
        raise UnsafeOperationError(
            f"{ctx.kernel_name}: use of unsafe operation `{operation}` requires an unsafe block (E0133); "
            "wrap it in `with simt.unsafe():`"
        )


class ThreadIndex:
    """A witness that the running thread owns flat index `get()`.  Single use: `get_mut` consumes it."""

    __slots__ = ("_consumed", "_raw")

    def __init__(self, raw: int) -> None:
        self._raw = raw
        self._consumed = False

    def get(self) -> int:
        """The index as a plain int (take it before `get_mut(idx)`, which consumes the witness)."""
        if self._consumed:
            raise UseAfterMoveError(
                "use of moved value: this ThreadIndex (`get()` after it was consumed by `get_mut`; "
                "take `i = idx.get()` before `get_mut(idx)`) (E0382)"
            )
        return self._raw

    def _take(self) -> int:
        if self._consumed:
            raise UseAfterMoveError(
                "use of moved value: this ThreadIndex (a second `get_mut` with the same witness; call "
                "thread.index_1d() again for a fresh one) (E0382)"
            )
        self._consumed = True
        return self._raw

    def __repr__(self) -> str:
        return f"ThreadIndex({self._raw}{', consumed' if self._consumed else ''})"


class ElemMut(Generic[T]):
    """Exclusive access to one element of a `DisjointSlice` (the Python face of `&mut T`)."""

    __slots__ = ("_data", "_index")

    def __init__(self, data: npt.NDArray[Any], index: int) -> None:
        self._data = data
        self._index = index

    def set(self, value: T | float) -> None:
        # `float` too: kernel arithmetic on f32 values is typed `float` by mypy (dtype classes subclass float).
        self._data[self._index] = stored_int(self._data, value)

    def get(self) -> T:
        return self._data[self._index]  # type: ignore[no-any-return]


class Slice(Generic[T]):
    """A shared, read-only kernel parameter: `a[i]` (bounds-checked) and `len(a)`."""

    __slots__ = ("_data", "_len", "_name")

    def __init__(self, data: npt.NDArray[Any], name: str = "slice") -> None:
        self._data = data
        self._len = len(data)
        self._name = name

    def __getitem__(self, i: int) -> T:
        if 0 <= i < self._len:
            return self._data[i]  # type: ignore[no-any-return]
        raise trap_out_of_bounds(f"reading `{self._name}`", i, self._len)

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"Slice({self._name}, len={self._len})"


class DisjointSlice(Generic[T]):
    """An output each thread writes through its own witness: `get_mut(idx) -> Optional[ElemMut[T]]`."""

    __slots__ = ("_data", "_len", "_name")

    def __init__(self, data: npt.NDArray[Any], name: str = "slice") -> None:
        self._data = data
        self._len = len(data)
        self._name = name

    def get_mut(self, idx: ThreadIndex) -> ElemMut[T] | None:
        """The element `idx` names, or None when it is out of bounds.  Consumes `idx`."""
        if not isinstance(idx, ThreadIndex):
            raise TypeError(
                f"DisjointSlice.get_mut takes a ThreadIndex from thread.index_1d()/index_2d(), not "
                f"{type(idx).__name__} (use get_unchecked_mut(i) inside `with simt.unsafe():` "
                "for a plain int)"
            )
        i = idx._take()
        if 0 <= i < self._len:
            return ElemMut(self._data, i)
        return None

    def get_unchecked_mut(self, i: int) -> ElemMut[T]:
        """Element `i` without a witness (unsafe: nothing stops two threads writing it)."""
        _require_unsafe("get_unchecked_mut")
        if 0 <= i < self._len:
            return ElemMut(self._data, i)
        raise trap_out_of_bounds(f"get_unchecked_mut on `{self._name}`", i, self._len)

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"DisjointSlice({self._name}, len={self._len})"


class AtomicSlice(Generic[T]):
    """An output any thread may update through atomic read-modify-writes (which return the old value)."""

    __slots__ = ("_data", "_len", "_name")

    def __init__(self, data: npt.NDArray[Any], name: str = "slice") -> None:
        self._data = data
        self._len = len(data)
        self._name = name

    def _check(self, index: int, op: str) -> None:
        if not 0 <= index < self._len:
            raise trap_out_of_bounds(f"{op} on `{self._name}`", index, self._len)

    def fetch_add(self, index: int, value: T | float, *, order: str = "relaxed", scope: str = "device") -> T:
        return self._rmw("fetch_add", index, value, order, scope, lambda old, v: old + v)

    def fetch_max(self, index: int, value: T | float, *, order: str = "relaxed", scope: str = "device") -> T:
        return self._rmw("fetch_max", index, value, order, scope, lambda old, v: v if v > old else old)

    def fetch_min(self, index: int, value: T | float, *, order: str = "relaxed", scope: str = "device") -> T:
        return self._rmw("fetch_min", index, value, order, scope, lambda old, v: v if v < old else old)

    def exchange(self, index: int, value: T | float, *, order: str = "relaxed", scope: str = "device") -> T:
        """Store `value`, return the old value."""
        return self._rmw("exchange", index, value, order, scope, lambda old, v: v)

    def fetch_and(self, index: int, value: T | int, *, order: str = "relaxed", scope: str = "device") -> T:
        return self._rmw("fetch_and", index, value, order, scope, lambda old, v: old & v, integer=True)

    def fetch_or(self, index: int, value: T | int, *, order: str = "relaxed", scope: str = "device") -> T:
        return self._rmw("fetch_or", index, value, order, scope, lambda old, v: old | v, integer=True)

    def fetch_xor(self, index: int, value: T | int, *, order: str = "relaxed", scope: str = "device") -> T:
        return self._rmw("fetch_xor", index, value, order, scope, lambda old, v: old ^ v, integer=True)

    def compare_exchange(
        self, index: int, expected: T | float, desired: T | float, *, order: str = "relaxed", scope: str = "device"
    ) -> T:
        """Store `desired` iff the element equals `expected` (bitwise, as CUDA's `atomicCAS`); return the old
        value either way (compare it with `expected` to know whether the store happened)."""
        _check_order(order, scope)
        self._check(index, "compare_exchange")
        data = self._data
        old = data[index]
        cell = np.asarray(old)
        expected = cell.dtype.type(stored_int(data, expected))
        if cell.view(_bits_of(cell)) == np.asarray(expected).view(_bits_of(cell)):
            data[index] = stored_int(data, desired)
        return old  # type: ignore[no-any-return]

    def _rmw(
        self, op: str, index: int, value: Any, order: str, scope: str, combine: Any, *, integer: bool = False
    ) -> T:
        _check_order(order, scope)
        self._check(index, op)
        data = self._data
        if integer and data.dtype.kind == "f":
            raise TypeError(f"`{op}` needs an integer AtomicSlice, `{self._name}` holds {data.dtype}")
        old = data[index]
        # the value converts to the element type first, as the GPU's atomic takes it (an int wraps, an f64 rounds)
        data[index] = combine(old, data.dtype.type(stored_int(data, value)))
        return old  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"AtomicSlice({self._name}, len={self._len})"


#: The memory orders and scopes an atomic takes (as string literals; codegen requires literals).
ATOMIC_ORDERS = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
ATOMIC_SCOPES = ("block", "device", "system")


def _check_order(order: str, scope: str) -> None:
    if order not in ATOMIC_ORDERS:
        raise ValueError(f"atomic order must be one of {', '.join(ATOMIC_ORDERS)}, got {order!r}")
    if scope not in ATOMIC_SCOPES:
        raise ValueError(f"atomic scope must be one of {', '.join(ATOMIC_SCOPES)}, got {scope!r}")


def _bits_of(cell: npt.NDArray[Any]) -> Any:
    return {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[cell.dtype.itemsize]


class SharedArray(Generic[T]):
    """Block-shared memory from `simt.shared_array(T, n)`; `s[i]` and `s[i] = v` need `with simt.unsafe():`.

    Its contents are undefined at kernel start; the CPU executor fills it with a poison pattern (NaN for
    floats) so a read before the write that a barrier should have ordered shows up in the results.
    """

    __slots__ = ("_data", "_len", "_round")

    def __init__(self, data: npt.NDArray[Any], round_to: Callable[[Any], Any] | None = None) -> None:
        self._data = data
        self._len = len(data)
        self._round = round_to  # f16/bf16/fp8 arrays hold f32 values rounded on every store, as the GPU's

    def __getitem__(self, i: int) -> T:
        _require_unsafe("shared_array")
        if 0 <= i < self._len:
            return self._data[i]  # type: ignore[no-any-return]
        raise trap_out_of_bounds("reading a shared array", i, self._len)

    def __setitem__(self, i: int, value: T | float) -> None:
        _require_unsafe("shared_array")
        if 0 <= i < self._len:
            self._data[i] = stored_int(self._data, value) if self._round is None else self._round(value)
            return
        raise trap_out_of_bounds("writing a shared array", i, self._len)

    def __len__(self) -> int:
        return self._len


def stored_int(data: npt.NDArray[Any], value: Any) -> Any:
    """`value` as an element of `data`: an integer stored into a narrower integer buffer wraps to the element's
    width, as the GPU's store truncates it (`o.set(i * 100)` into a u8 buffer stores 44 for i = 3; numpy raises
    `OverflowError` for an out-of-range Python int, and for some numpy ints)."""
    if data.dtype.kind not in "iu" or not isinstance(value, int | np.integer) or isinstance(value, bool | np.bool_):
        return value
    bits = data.dtype.itemsize * 8
    wrapped = int(value) & ((1 << bits) - 1)
    if data.dtype.kind == "i" and wrapped >= 1 << (bits - 1):
        wrapped -= 1 << bits
    return wrapped


def poison_fill(data: npt.NDArray[Any]) -> None:
    """Fill uninitialized memory with a recognizable pattern (NaN for floats, 0x5A bytes otherwise)."""
    if data.dtype.kind == "f":
        data.fill(np.nan)
    else:
        data.view(np.uint8).fill(0x5A)


__all__ = ["AtomicSlice", "DisjointSlice", "ElemMut", "SharedArray", "Slice", "ThreadIndex"]
