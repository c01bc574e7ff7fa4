"""What `kernel.launch` checks about its arguments before anything runs.

1. arity and types: a buffer parameter takes a live (not moved) `DeviceBuffer` of its dtype (or anything
`sk.as_buffer` wraps: DLPack, `__cuda_array_interface__`, numpy on the CPU executor, a 1-D tile `Tensor`) on the
launch's device; a scalar parameter
takes a Python/numpy number of its kind, range-checked for integer dtypes; 2. aliasing: no mutable buffer
argument (`DisjointSlice`, `AtomicSlice`) may overlap any other buffer argument in device memory.  This
compares real address ranges, so it sees through views, `split_at`, and foreign arrays the static checker
never saw; disjoint `split_at` halves pass.  The wording is rustc's E0502 / E0499; 3. the contract's
`requires` relations over the actual lengths and scalar values (u64, checked arithmetic)."""

from __future__ import annotations

import numbers
import os
import sys
from collections.abc import Sequence
from types import FrameType
from typing import Any

from safekernels.errors import AliasingError, CrossDeviceError
from safekernels.runtime.buffer import DeviceBuffer, as_buffer
from safekernels.runtime.device import Device
from safekernels.simt.contract import LaunchContract
from safekernels.simt.params import KernelParam
from safekernels.simt.validation import LaunchContractError

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # .../safekernels/


def _signature(params: Sequence[KernelParam]) -> str:
    return ", ".join(f"{p.name}: {p.type_text()}" for p in params)


def convert_args(
    kernel: str, params: Sequence[KernelParam], args: Sequence[Any], device: Device
) -> list[Any]:
    """Arguments as the backends take them: `DeviceBuffer`s for slices, Python scalars for scalars."""
    if len(args) != len(params):
        raise TypeError(
            f"{kernel}({_signature(params)}) takes {len(params)} kernel argument(s), {len(args)} given"
        )
    converted: list[Any] = []
    for param, arg in zip(params, args, strict=True):
        converted.append(
            _convert_buffer(kernel, param, arg, device)
            if param.is_buffer
            else _convert_scalar(kernel, param, arg)
        )
    return converted


def _convert_buffer(kernel: str, param: KernelParam, arg: Any, device: Device) -> DeviceBuffer[Any]:
    if isinstance(arg, DeviceBuffer):
        arg._check_alive(f"argument `{param.name}` of `{kernel}`")  # moved into a tile partition or launch
        buf = arg
    elif isinstance(arg, bool | numbers.Number):
        raise TypeError(
            f"{kernel}: argument `{param.name}` expects DeviceBuffer[{param.dtype.name}] "
            f"for {param.type_text()}, "
            f"got the scalar {arg!r}"
        )
    else:
        try:
            buf = as_buffer(arg, device)
        except CrossDeviceError as exc:  # a foreign array of another GPU
            raise CrossDeviceError(
                f"{kernel}: argument `{param.name}` ({param.type_text()}): {exc}: a kernel reads and writes only "
                "memory of its own device"
            ) from None
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{kernel}: argument `{param.name}` ({param.type_text()}): {exc}") from None
    if buf.dtype != param.dtype:
        raise TypeError(
            f"{kernel}: argument `{param.name}`: mismatched types: expected DeviceBuffer[{param.dtype.name}] "
            f"for {param.type_text()}, found DeviceBuffer[{buf.dtype.name}]"
        )
    if buf.device is not device:
        from safekernels.runtime.placement import cross_device_error

        raise cross_device_error(kernel, param.name, arg, buf.device, device)
    if buf.read_only and param.is_mutable:
        raise TypeError(
            f"{kernel}: argument `{param.name}` ({param.type_text()}) is written by the kernel, but it wraps "
            "read-only memory; pass a writable buffer (`sk.as_buffer(array.copy())`)"
        )
    return buf


def _convert_scalar(kernel: str, param: KernelParam, arg: Any) -> Any:
    kind = param.dtype.kind
    if isinstance(arg, DeviceBuffer) or not isinstance(arg, bool | numbers.Number):
        raise TypeError(
            f"{kernel}: argument `{param.name}` expects a {param.dtype.name} scalar, got {type(arg).__name__}"
        )
    if kind == "b":
        return bool(arg)
    if kind == "f":
        if isinstance(arg, numbers.Complex) and not isinstance(arg, numbers.Real):
            raise TypeError(
                f"{kernel}: argument `{param.name}` expects {param.dtype.name}, got complex {arg!r}"
            )
        return float(arg)  # type: ignore[arg-type]
    if not isinstance(arg, numbers.Integral):
        raise TypeError(
            f"{kernel}: argument `{param.name}` expects an integer ({param.dtype.name}), "
            f"got {type(arg).__name__} "
            f"{arg!r}"
        )
    value = int(arg)
    bits = param.dtype.bits
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if kind == "i" else (0, (1 << bits) - 1)
    if not low <= value <= high:
        raise OverflowError(f"{kernel}: argument `{param.name}` = {value} does not fit in {param.dtype.name}")
    return value


def buffer_borrows(
    params: Sequence[KernelParam], converted: Sequence[Any]
) -> list[tuple[str, DeviceBuffer[Any], bool]]:
    """(parameter name, buffer, mutable) for every buffer argument, in parameter order."""
    return [(p.name, a, p.is_mutable) for p, a in zip(params, converted, strict=True) if p.is_buffer]


def check_aliasing(kernel: str, borrows: Sequence[tuple[str, DeviceBuffer[Any], bool]]) -> None:
    """Refuse any overlap between a mutable buffer argument and any other buffer argument."""
    for j in range(1, len(borrows)):
        later, later_buf, later_mut = borrows[j]
        for i in range(j):
            earlier, earlier_buf, earlier_mut = borrows[i]
            if not (later_mut or earlier_mut) or not later_buf.overlaps(earlier_buf):
                continue
            if later_mut and earlier_mut:
                head = f"cannot borrow `{later}` as mutable more than once at a time (E0499)"
            elif later_mut:
                head = f"cannot borrow `{later}` as mutable because it is also borrowed as immutable (E0502)"
            else:
                head = f"cannot borrow `{later}` as immutable because it is also borrowed as mutable (E0502)"
            later_name, earlier_name = caller_names(later_buf, earlier_buf)
            raise AliasingError(
                f"{head}: in the launch of `{kernel}`, argument `{later}`{later_name} "
                f"[{later_buf.ptr:#x}, {later_buf.ptr + later_buf.nbytes:#x}) overlaps argument `{earlier}`"
                f"{earlier_name} [{earlier_buf.ptr:#x}, {earlier_buf.ptr + earlier_buf.nbytes:#x}) in device memory"
            )


def caller_names(*values: object) -> list[str]:
    """For an error message only: ` (the caller's `c`)` for each value bound to a name in the first frame outside
    safekernels, else "" (a temporary such as `buf[2:4]`, a foreign array wrapped for the launch).  The static
    checker names the caller's variables and the runtime names the kernel's parameters; a message with both lets
    the two reports of one bug be matched."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return ["" for _ in values]
    scopes = (frame.f_locals, frame.f_globals)
    names = []
    for value in values:
        name = next((k for scope in scopes for k, v in scope.items() if v is value and not k.startswith("_")), None)
        names.append(f" (the caller's `{name}`)" if name else "")
    return names


def check_requires(
    kernel: str, contract: LaunchContract | None, params: Sequence[KernelParam], converted: Sequence[Any]
) -> None:
    """Evaluate every `requires` relation over the actual arguments."""
    if contract is None or not contract.relations:
        return
    lengths = {p.name: len(a) for p, a in zip(params, converted, strict=True) if p.is_buffer}
    scalars = {
        p.name: int(a)
        for p, a in zip(params, converted, strict=True)
        if p.kind == "scalar" and p.dtype.kind == "u"
    }
    for relation in contract.relations:
        try:
            holds, lhs, rhs = relation.evaluate(lengths, scalars)
        except OverflowError as exc:
            raise LaunchContractError(
                f"{kernel}: requirement `{relation.text}` overflows u64 ({exc})"
            ) from None
        if not holds:
            raise LaunchContractError(
                f"{kernel}: requirement `{relation.text}` is violated (left side = {lhs}, right side = {rhs})"
            )
