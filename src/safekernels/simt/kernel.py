"""`@simt.kernel`, `@simt.device`, and the launch path: `prepare` -> `PreparedLaunch` -> `launch`.

    kernel.prepare(config, device)          validates geometry against the contract and the live device
            │                               (simt.validation, pure) and returns a PreparedLaunch branded
            ▼                               to this kernel object
    kernel.launch(prepared, stream, *args)  re-checks brand and stream, converts and type-checks arguments,
            │                               refuses aliasing and conflicts with pending async launches,
            ▼                               evaluates `requires`, then runs:
    CPU executor (Device.cpu())  |  safekernels.simt.gpu_launch.launch_on_gpu (GPU, owned by codegen)

After the first checked launch of a `PreparedLaunch` on a GPU, later launches first try its generated fast
path (`simt.fast_launch`), which launches only what the checked path would accept, with the same packed
parameters, and otherwise hands the launch to the checked path unchanged (so errors are the checked path's).

`launch_async` does the same checks now and runs at `sync_on`, holding its buffers borrowed until then;
`launch_unchecked` (inside `with simt.unsafe():`) skips the contract, aliasing and `requires` checks.
"""

from __future__ import annotations

import functools
import inspect
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, TypeVar, overload

from safekernels.errors import BrandError, KernelDefinitionError, UnsafeOperationError
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.device_op import DeviceOp, launch_op
from safekernels.runtime.ownership import call_site
from safekernels.simt import borrows
from safekernels.simt._context import host_unsafe_covers, host_unsafe_depth, state
from safekernels.simt.config import LaunchConfig, LaunchConfig1D, LaunchConfig2D, LaunchConfig3D
from safekernels.simt.contract import CONTRACT_ATTRIBUTE, ContractSpec, LaunchContract
from safekernels.simt.definition_site import bad_parameter, contract_definition_error, definition_error
from safekernels.simt.launch_args import buffer_borrows, check_aliasing, check_requires, convert_args
from safekernels.simt.params import KernelParam, parse_params
from safekernels.simt.validation import (
    FunctionLimits,
    LaunchContractError,
    validate_device,
    validate_nonzero,
    validate_static,
)

if TYPE_CHECKING:
    from safekernels.asm import KernelAsm

P = ParamSpec("P")
R = TypeVar("R")
K = TypeVar("K", bound="SimtKernel")

_PREPARE_TOKEN = object()
_PREPARED_FIELDS = frozenset({"config", "device", "function_limits", "kernel"})

_gpu_launch_module: Any = None


def _gpu_launch() -> Any:
    """`safekernels.simt.gpu_launch`, imported once (it needs codegen and the driver only when used)."""
    global _gpu_launch_module
    if _gpu_launch_module is None:
        from safekernels.simt import gpu_launch  # type: ignore[attr-defined,unused-ignore]

        _gpu_launch_module = gpu_launch
    return _gpu_launch_module


class PreparedLaunchBrandError(BrandError, LaunchContractError):
    """A `PreparedLaunch` used with another kernel (E0308); catchable as either parent."""


class PreparedLaunch(Generic[K]):
    """A launch configuration validated for one kernel on one device.  Only `kernel.prepare` makes one."""

    __slots__ = ("_fast", "_fast_path", "config", "device", "function_limits", "kernel")

    def __init__(
        self,
        token: object,
        kernel: K,
        config: LaunchConfig,
        device: Device,
        function_limits: FunctionLimits | None,
    ) -> None:
        if token is not _PREPARE_TOKEN:
            raise TypeError("PreparedLaunch is created by kernel.prepare(config, device), not directly")
        self.kernel = kernel
        self.config = config
        self.device = device
        self.function_limits = function_limits
        # the fast launch (simt.fast_launch), built after the first checked launch on a GPU:
        # `_fast_path` is None (not built yet), False (not eligible) or the FastPath; `_fast` is its `run`
        self._fast: Callable[[Any, tuple[Any, ...]], bool] | None = None
        self._fast_path: Any = None

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in _PREPARED_FIELDS and getattr(self, "_fast_path", None) is not None:
            # the fast path baked the old value in: from now on every launch takes the checked path
            object.__setattr__(self, "_fast", None)
            object.__setattr__(self, "_fast_path", False)

    @property
    def grid(self) -> tuple[int, int, int]:
        return self.config.grid3

    @property
    def block(self) -> tuple[int, int, int]:
        return self.config.block3

    @property
    def dynamic_shared(self) -> int:
        return self.config.dynamic_shared

    def __repr__(self) -> str:
        name = self.kernel.name
        return f"PreparedLaunch[{name}](grid={self.grid}, block={self.block}, device={self.device!r})"


class SimtDeviceFunction(Generic[P, R]):
    """A `@simt.device` helper: callable from kernels and other helpers (and from the host, for testing)."""

    def __init__(self, fn: Callable[P, R]) -> None:
        self.py_function = fn
        self.name = fn.__name__
        functools.update_wrapper(self, fn)
        self._cpu_cache: dict[str, Any] = {}  # the CPU executor's compiled forms

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        from safekernels.cpu.simt_executor import plain_function

        fn: Callable[P, R] = plain_function(self)
        ctx = state.current
        if ctx is None:
            return fn(*args, **kwargs)
        saved = ctx.unsafe_depth  # unsafe is lexical: a helper does not inherit its caller's unsafe block
        ctx.unsafe_depth = 0
        try:
            return fn(*args, **kwargs)
        finally:
            ctx.unsafe_depth = saved

    def __repr__(self) -> str:
        return f"<simt.device {self.name}>"


def _located_definition_error(obj: Any, message: str) -> Exception:
    """SK010 at `obj`'s definition (a function, or a class and other objects with source)."""
    if inspect.isfunction(obj):
        return definition_error(obj, "SK010", message, None)
    try:
        path = inspect.getsourcefile(obj) or "<unknown>"
        line = inspect.getsourcelines(obj)[1]
    except (OSError, TypeError):
        path, line = "<unknown>", 1
    return KernelDefinitionError("SK010", message, path, line, 1)


class SimtKernel:
    """A `@simt.kernel` function: its parameters, contract, and the launch methods."""

    def __init__(self, fn: Callable[..., None], *, unchecked_indexing: bool = False) -> None:
        self.py_function = fn
        self.name: str = fn.__name__
        self.__name__ = fn.__name__  # declared for type checkers (`k.__name__` keys registries of kernels)
        functools.update_wrapper(self, fn)
        self.unchecked_indexing = unchecked_indexing
        if fn.__name__ == "<lambda>":
            raise definition_error(fn, "SK010", "a kernel must be a `def` function, not a lambda", None)
        if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn) or not inspect.isfunction(fn):
            # the CPU executor would call it and run nothing (an un-awaited coroutine); the GPU refuses it
            what = "`async def`" if inspect.isfunction(fn) else "a class" if inspect.isclass(fn) else type(fn).__name__
            raise _located_definition_error(fn, f"a kernel must be a plain `def` function, not {what}")
        try:
            self.params: list[KernelParam] = parse_params(fn, self.name)
        except TypeError as exc:
            raise definition_error(fn, "SK011", str(exc), bad_parameter(exc)) from None
        self.contract: LaunchContract | None = getattr(fn, CONTRACT_ATTRIBUTE, None)
        self._cpu_cache: dict[str, Any] = {}

    def _attach_contract(self, spec: ContractSpec) -> None:
        if self.contract is not None:
            raise LaunchContractError(f"{self.name}: kernel already has a launch contract")
        try:
            self.contract = spec.build(self.name, self.params)
        except LaunchContractError as exc:
            raise contract_definition_error(self.py_function, exc) from None

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"{self.name} is a @simt.kernel: launch it with {self.name}.prepare(config, device) and "
            f"{self.name}.launch(prepared, stream, *args), not by calling it"
        )

    def __repr__(self) -> str:
        return f"<simt.kernel {self.name}({', '.join(p.name + ': ' + p.type_text() for p in self.params)})>"

    @property
    def asm(self) -> KernelAsm:
        """The compiled stages (`asm["ptx"]`, `["llvm"]`, `["sass"]`, `.cubin`) for the default architecture."""
        return self.inspect()

    def inspect(self, arch: str | None = None) -> KernelAsm:
        """The compiled stages for `arch` (default: the default GPU's, else sm_90); no GPU needed."""
        from safekernels.asm import simt_asm

        return simt_asm(self, arch)

    # -- prepare --------------------------------------------------------------------------------------------
    def prepare(self, config: LaunchConfig, device: Device | None = None) -> PreparedLaunch[SimtKernel]:
        """Validate `config` against the contract and `device` (in docs/reference.md §5's order); brand it."""
        if not isinstance(config, LaunchConfig1D | LaunchConfig2D | LaunchConfig3D):
            raise TypeError(f"{self.name}.prepare takes a simt.LaunchConfig1D/2D/3D, got {type(config).__name__}")
        device = device if device is not None else Device.default()
        contract = self.contract
        if contract is None:
            raise LaunchContractError(
                f"{self.name}: kernel has no launch contract; declare one with "
                "@simt.launch_contract(block=...) "
                "or launch it with launch_unchecked inside `with simt.unsafe():`"
            )
        validate_static(self.name, contract, config)
        function = self._function_limits(device)
        validate_device(self.name, contract, config, device.limits, function)
        return PreparedLaunch(_PREPARE_TOKEN, self, config, device, function)

    def _function_limits(self, device: Device) -> FunctionLimits:
        if device.is_cpu:
            return FunctionLimits.of_device(device.limits)
        limits: FunctionLimits = _gpu_launch().function_limits(self, device)
        return limits

    # -- launch ---------------------------------------------------------------------------------------------
    def _check_brand(self, prepared: PreparedLaunch[Any]) -> None:
        if not isinstance(prepared, PreparedLaunch):
            hint = (
                " (prepare it first: kernel.prepare(config, device))"
                if isinstance(prepared, LaunchConfig1D | LaunchConfig2D | LaunchConfig3D)
                else ""
            )
            raise TypeError(f"{self.name}: expected a PreparedLaunch, got {type(prepared).__name__}{hint}")
        if prepared.kernel is not self:
            raise PreparedLaunchBrandError(
                f"{self.name}: mismatched types: expected `PreparedLaunch[{self.name}]`, found "
                f"`PreparedLaunch[{prepared.kernel.name}]` (E0308); prepare the launch with "
                f"{self.name}.prepare(config, device)"
            )

    def _checked_args(self, prepared: PreparedLaunch[Any], args: Sequence[Any]) -> list[Any]:
        converted = convert_args(self.name, self.params, args, prepared.device)
        held = buffer_borrows(self.params, converted)
        check_aliasing(self.name, held)
        borrows.check_pending(self.name, held)
        check_requires(self.name, self.contract, self.params, converted)
        return converted

    def _check_stream(self, prepared: PreparedLaunch[Any], stream: Stream) -> None:
        if not isinstance(stream, Stream):
            raise TypeError(f"{self.name}: expected a safekernels Stream, got {type(stream).__name__}")
        if stream.device is not prepared.device:
            raise LaunchContractError(
                f"{self.name}: launch was prepared for {prepared.device!r}, stream is on {stream.device!r}"
            )

    def launch(self, prepared: PreparedLaunch[Any], stream: Stream, *args: Any) -> None:
        """The safe launch: needs a `PreparedLaunch` from this kernel's `prepare`."""
        if type(prepared) is PreparedLaunch and prepared.kernel is self:
            fast = prepared._fast
            if fast is not None and fast(stream, args):
                return
        self._check_brand(prepared)
        self._check_stream(prepared, stream)
        converted = self._checked_args(prepared, args)
        self._run(prepared, stream, converted, requires_checked=True)
        if prepared._fast_path is not False and not prepared.device.is_cpu:
            self._learn_fast_path(prepared, args, converted)

    def _learn_fast_path(self, prepared: PreparedLaunch[Any], args: Sequence[Any], converted: Sequence[Any]) -> None:
        """After a checked launch on a GPU: build the prepared launch's fast path once, and let it remember
        the wrappings of foreign arrays that were arguments (see `simt.fast_launch`)."""
        path = prepared._fast_path
        if path is None:
            built = _gpu_launch().fast_path_for(self, prepared)
            path = built if built is not None else False
            prepared._fast_path = path
            prepared._fast = built.run if built is not None else None
        if path:
            path.learn(self.params, args, converted)

    def launch_async(self, prepared: PreparedLaunch[Any], *args: Any) -> DeviceOp[tuple[Any, ...]]:
        """Check now, run at `sync_on(stream)`; the op's value is the tuple of `args`.

        Until the op runs (or is dropped) its buffers stay borrowed: a launch that would write what it reads,
        or touch what it writes, raises `BorrowError`.
        """
        self._check_brand(prepared)
        converted = self._checked_args(prepared, args)
        records = borrows.hold(self.name, buffer_borrows(self.params, converted))
        kernel = self

        def run(stream: Stream) -> tuple[Any, ...]:
            try:
                kernel._check_stream(prepared, stream)
                kernel._run(prepared, stream, converted, requires_checked=True)
            finally:
                borrows.release(records)
            return tuple(args)

        op: DeviceOp[tuple[Any, ...]] = DeviceOp(run, label=f"{self.name}.launch_async", device=prepared.device)
        launch_op(op, self.name, call_site("launch_async", 1))
        weakref.finalize(op, borrows.release, records)
        return op

    def launch_unchecked(self, config: LaunchConfig, stream: Stream, *args: Any) -> None:
        """Launch without the contract, aliasing or `requires` checks.  Needs `with simt.unsafe():`."""
        if not host_unsafe_covers(sys._getframe(1)):
            where = (
                "; a `with simt.unsafe():` in a calling function does not cover this one (unsafe is lexical)"
                if host_unsafe_depth() > 0
                else ""
            )
            raise UnsafeOperationError(
                f"{self.name}: use of unsafe operation `launch_unchecked` requires an unsafe block (E0133){where}; "
                "wrap the call in `with simt.unsafe():`, or use prepare + launch"
            )
        if not isinstance(config, LaunchConfig1D | LaunchConfig2D | LaunchConfig3D):
            raise TypeError(f"{self.name}.launch_unchecked takes a simt.LaunchConfig1D/2D/3D, got {config!r}")
        if not isinstance(stream, Stream):
            raise TypeError(f"{self.name}: expected a safekernels Stream, got {type(stream).__name__}")
        validate_nonzero(self.name, config.grid3, config.block3)
        prepared = PreparedLaunch(_PREPARE_TOKEN, self, config, stream.device, None)
        converted = convert_args(self.name, self.params, args, stream.device)
        self._run(prepared, stream, converted)

    def _run(
        self,
        prepared: PreparedLaunch[Any],
        stream: Stream,
        converted: Sequence[Any],
        *,
        requires_checked: bool = False,
    ) -> None:
        """Run on the prepared device.  `requires_checked`: the contract's `requires` held for `converted`, so
        the GPU may run the variant compiled to assume them (launch_unchecked passes False)."""
        if prepared.device.is_cpu:
            from safekernels.cpu.simt_executor import run_simt_kernel
            from safekernels.runtime.capture import cpu_launch

            config = prepared.config
            # runs now, or is recorded while `DeviceOp.graph_on` captures a chain (runtime.capture)
            cpu_launch(run_simt_kernel, self, config.grid3, config.block3, config.dynamic_shared, converted)
            return
        _gpu_launch().launch_on_gpu(self, prepared, stream, converted, requires_checked=requires_checked)


@overload
def kernel(fn: Callable[..., None], /) -> SimtKernel: ...


@overload
def kernel(
    *, unchecked_indexing: bool = False, unsafe_acknowledged: bool = False
) -> Callable[[Callable[..., None]], SimtKernel]: ...


def kernel(
    fn: Callable[..., None] | None = None,
    /,
    *,
    unchecked_indexing: bool = False,
    unsafe_acknowledged: bool = False,
) -> SimtKernel | Callable[[Callable[..., None]], SimtKernel]:
    """Declare a SIMT kernel.  `@simt.kernel(unchecked_indexing=True, unsafe_acknowledged=True)` drops the
    bounds checks of `a[i]` reads on the GPU; without `unsafe_acknowledged=True` it is refused (E0133)."""
    if unchecked_indexing and not unsafe_acknowledged:
        raise UnsafeOperationError(
            "@simt.kernel(unchecked_indexing=True) removes the bounds checks of slice reads, which is unsafe "
            "(E0133); acknowledge it with @simt.kernel(unchecked_indexing=True, unsafe_acknowledged=True)"
        )

    def wrap(f: Callable[..., None]) -> SimtKernel:
        if isinstance(f, SimtKernel):
            raise TypeError(f"{f.name} is already a @simt.kernel")
        if not callable(f):
            raise TypeError(f"@simt.kernel decorates a function, not {f!r}")
        return SimtKernel(f, unchecked_indexing=unchecked_indexing)

    return wrap(fn) if fn is not None else wrap


def device(fn: Callable[P, R]) -> SimtDeviceFunction[P, R]:
    """Declare a helper callable from kernels (it may call other helpers and use collectives)."""
    return SimtDeviceFunction(fn)
