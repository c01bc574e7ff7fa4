"""`DirectCall`: an eager call of a torch custom op goes straight to its kernel's launch plan.

Why: `torch.library`'s route to the real kernel (the Python `CustomOpDef` wrapper, the dispatcher's keys,
the autograd and ADInplaceOrView kernels, then the Python implementation) costs far more than launching a
small kernel.  While nothing traces the call, every one of those steps ends in the same real kernel, so it
can be called directly.

When (`untraced`): not under dynamo (`torch.compiler.is_compiling()`, checked by the caller first, so a
trace never looks further), no dispatch mode (fake, functionalization, proxy), no torch-function mode, no
functorch transform, no profiler, no JIT trace, every tensor a plain `torch.Tensor` / `nn.Parameter`, and none
needs autograd.  Otherwise, and when one of torch's switches is missing, the call goes through torch.

How (tile kernels with a direct launch plan):

    op(x, y) ─▶ key = (shape, dtype, device of each tensor; type of each scalar)
                  │ miss: the real kernel (`SafeKernelOp._impl`: every check, outputs allocated), which
                  │       leaves the kernel's launch plan; the entry records it with each argument's spec key
                  ▼ hit
             outputs (`torch.empty`) ─▶ tile handles over the tensors' addresses (the plan's spec keys)
             ─▶ the plan's generated launcher on torch's current stream; when it declines (an address with
                another alignment, overlapping memory) the kernel's checked launch, which runs or raises

What a plan cannot know is still checked per call: contiguity, overlap and alignment (in the generated
launcher), the stream's device.  In-place ops bump the version counters of the tensors they write, as
torch's ADInplaceOrView kernel would.  SIMT kernels, and tile kernels without a direct plan, call the real
kernel directly: only the dispatcher is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.interop import buffer_from_torch
from safekernels.tile.launch_plan import launch_key
from safekernels.tile.tensor import Partition, Tensor
from safekernels.torch import bridge

if TYPE_CHECKING:
    from safekernels.torch.op import SafeKernelOp

_NEW = object.__new__
#: an entry saying "call the real kernel" (no plan to reuse: SIMT, autotuned or DeviceBuffer plans)
_REAL_KERNEL = "real kernel"
#: an entry saying "go through torch" (the tensor's device type is not one the op was registered for)
_THROUGH_TORCH = "through torch"
_SCALAR_ROW = 0  # a `_PlannedCall.params` row of a scalar argument (else a tensor's)
_ENTRIES_LIMIT = 256  # signatures kept per op (a model has a handful; a shape sweep must not grow without end)


class DirectCall:
    """The direct eager path of one `SafeKernelOp` (see the module docstring)."""

    def __init__(self, op: SafeKernelOp, torch: Any, device_types: str | Sequence[str] | None) -> None:
        self.op = op
        self.torch = torch
        c = torch._C
        switches: tuple[Any, ...] = (
            getattr(c, "_len_torch_dispatch_stack", None) or getattr(c, "_len_torch_dispatch_mode", None),
            getattr(c, "_is_torch_function_mode_enabled", None),
            getattr(c, "_are_functorch_transforms_active", None),
            getattr(getattr(c, "_autograd", None), "_profiler_enabled", None),
            getattr(c, "_get_tracing_state", None),
        )
        #: False when this torch lacks one of the switches `untraced` reads: every call goes through torch
        self.enabled = all(f is not None for f in switches)
        self._switches = switches
        self._grad_enabled = c.is_grad_enabled
        self._plain = (torch.Tensor, torch.nn.Parameter)
        arguments = op.signature.arguments
        self._n_args = len(arguments)
        self._tensor_pos = tuple(i for i, p in enumerate(arguments) if p.role != "scalar")
        self._device_types = (device_types,) if isinstance(device_types, str) else device_types
        self._mutated_pos = tuple(i for i, p in enumerate(arguments) if p.role == "output")
        self._entries: dict[tuple[Any, ...], Any] = {}
        self._signature_key = _generate_signature_key(self._n_args, self._tensor_pos)
        self._raw_stream = bridge.raw_current_stream(torch)
        self._empty = torch.empty
        self._zeros = torch.zeros
        self._bump = getattr(getattr(torch.autograd, "graph", None), "increment_version", None)
        if self._mutated_pos and self._bump is None:  # in-place writes must reach autograd's version checks
            self.enabled = False

    # -- when -----------------------------------------------------------------------------------------------------
    def untraced(self, args: Sequence[Any]) -> bool:
        """Nothing traces this call and no argument needs autograd (see the module docstring)."""
        if not self.enabled or len(args) != self._n_args:
            return False
        dispatch_modes, function_mode, functorch, profiler, jit_trace = self._switches
        if dispatch_modes() or function_mode() or functorch() or profiler() or jit_trace() is not None:
            return False
        grad = self._grad_enabled()
        plain = self._plain
        for i in self._tensor_pos:
            t = args[i]
            if type(t) not in plain or (grad and t.requires_grad):
                return False
        return True

    # -- how ------------------------------------------------------------------------------------------------------
    def signature_key(self, args: Sequence[Any]) -> tuple[Any, ...]:
        """What the plan depends on: each tensor's shape, dtype and device, each scalar's Python type."""
        return self._signature_key(args)  # type: ignore[no-any-return]

    def __call__(self, args: Sequence[Any]) -> Any:
        key = self.signature_key(args)
        entry = self._entries.get(key)
        if entry is None:
            return self._first_call(key, args)
        if entry is _REAL_KERNEL:
            return self._real_kernel(args)
        if entry is _THROUGH_TORCH:
            return self.op.op(*args)
        result = entry.run(self, args)
        if result is _PlannedCall.DECLINED:
            return self._real_kernel(args)
        return result

    def dispatched(self, args: Sequence[Any]) -> Any:
        """The real kernel as torch's dispatcher calls it (compiled graphs, CUDA-graph capture, autograd,
        `opoverload`): a signature with a recorded plan launches from it, like an untraced call; any other
        runs every check (and its plan is recorded for the next call).  Torch bumps the version counters."""
        self.op.check_tensors(args)
        if not self.enabled or len(args) != self._n_args:
            return self.op._checked_impl(*args)
        key = self.signature_key(args)
        entry = self._entries.get(key)
        if isinstance(entry, _PlannedCall):
            result = entry.run(self, args, bump=False)
            return self.op._checked_impl(*args) if result is _PlannedCall.DECLINED else result
        result = self.op._checked_impl(*args)  # raises before anything is remembered when the call is refused
        if entry is None:
            self._remember(key, _PlannedCall.learn(self.op, args, result) or _REAL_KERNEL)
        return result

    def _real_kernel(self, args: Sequence[Any]) -> Any:
        result = self.op._checked_impl(*args)
        self._bump_versions(args)
        return result

    def _bump_versions(self, args: Sequence[Any]) -> None:
        if self._mutated_pos and self._bump is not None:  # (None: `enabled` is False, torch bumps them)
            for i in self._mutated_pos:
                t = args[i]
                if not t.is_inference():  # inference tensors keep no version counter
                    self._bump(t)

    def _first_call(self, key: tuple[Any, ...], args: Sequence[Any]) -> Any:
        types = self._device_types
        if types is not None and any(args[i].device.type not in types for i in self._tensor_pos):
            self._remember(key, _THROUGH_TORCH)
            return self.op.op(*args)  # torch names the missing kernel
        result = self._real_kernel(args)  # raises before anything is remembered when the call is refused
        self._remember(key, _PlannedCall.learn(self.op, args, result) or _REAL_KERNEL)
        return result

    def _remember(self, key: tuple[Any, ...], entry: Any) -> None:
        if len(self._entries) >= _ENTRIES_LIMIT:
            self._entries.clear()
        self._entries[key] = entry


def _generate_signature_key(n: int, tensors: Sequence[int]) -> Any:
    """`key(args)` as one generated expression: `(a0.shape, a0.dtype, a0.device, type(a1), ...)`."""
    parts = [f"a[{i}].shape, a[{i}].dtype, a[{i}].device" if i in tensors else f"type(a[{i}])" for i in range(n)]
    source = f"def key(a):\n    return ({''.join(part + ', ' for part in parts)})\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<safekernels torch op signature key>", "exec"), namespace)
    return namespace["key"]


class _PlannedCall:
    """One signature of a tile op whose launch plan is direct: what a repeat call rebuilds, as data.

    `params` has one row per kernel parameter, in kernel order:
    `(SCALAR, argument index, cast)` or `(kind, source, index, handle class, spec key, shape, tile shape,
    dtype, element count)` where source is "arg" (the op's argument) or "out" (an allocated output)."""

    DECLINED: Any = object()

    __slots__ = ("device", "functional", "kernel", "last", "outputs", "params", "plan", "torch_device")

    def __init__(
        self,
        kernel: Any,
        plan: Any,
        device: Device,
        torch_device: Any,
        params: tuple[tuple[Any, ...], ...],
        functional: bool,
        outputs: tuple[tuple[tuple[int, ...], Any, bool], ...],
    ) -> None:
        self.kernel = kernel
        self.plan = plan
        self.device = device
        self.torch_device = torch_device
        self.params = params
        self.functional = functional
        self.outputs = outputs  # (shape, torch dtype, zero-filled) of each allocated output
        self.last: tuple[int, Stream | None] = (-1, None)  # torch's raw stream of the last call, its Stream

    @classmethod
    def learn(cls, op: SafeKernelOp, args: Sequence[Any], result: Any) -> _PlannedCall | None:
        """After the real kernel ran `args` (returning `result`): the entry, or None when the kernel's plan
        cannot be driven directly."""
        kernel = op.kernel
        plans = getattr(kernel, "_plans", None)
        if not op.launcher.is_tile or plans is None or not hasattr(kernel, "_launch"):
            return None
        signature = op.signature
        named = op._bind(args)
        outs: tuple[Any, ...] = ()
        if signature.functional:
            outs = result if isinstance(result, tuple) else (result,)
            named.update({p.name: t for p, t in zip(signature.outputs, outs, strict=True)})
        tensors = [named[p.name] for p in signature.params if p.role != "scalar"]
        if not tensors:
            return None
        device = bridge.sk_device(tensors[0])
        arg_index = {p.name: i for i, p in enumerate(signature.arguments)}
        out_index = {p.name: i for i, p in enumerate(signature.outputs)}
        rows: list[tuple[Any, ...]] = []
        values: list[Any] = []
        for p, q in zip(signature.params, kernel.params, strict=True):
            if p.role == "scalar":
                rows.append((_SCALAR_ROW, arg_index[p.name], q.cast))
                value = named[p.name]
                values.append(q.cast(value) if q.cast is not None else value)
                continue
            t = named[p.name]
            shape = tuple(int(d) for d in t.shape)
            buffer = bridge.wrap(t, device, p.name)
            tiles = op.launcher.tile_shape(p, shape) if p.role == "output" and not p.atomic else None
            handle: Tensor[Any] | Partition[Any] = (
                Partition(buffer, shape, tiles) if tiles is not None else Tensor(buffer, shape)
            )
            values.append(handle)
            source = "out" if signature.functional and p.role == "output" else "arg"
            index = out_index[p.name] if source == "out" else arg_index[p.name]
            rows.append(
                (_SCALAR_ROW + 1, source, index, type(handle), handle._key, shape, tiles, buffer.dtype, buffer.length)
            )
        key = launch_key(values)
        plan = plans.get(key) if key is not None else None
        if plan is None or not plan.direct or plan.device is not device:
            return None
        # an AtomicTensor output is only added into: zero-filled on every call, as `_allocate_outputs` does
        shapes = tuple(
            (tuple(int(d) for d in t.shape), t.dtype, p.atomic)
            for t, p in zip(outs, signature.outputs if signature.functional else (), strict=True)
        )  # (an in-place op allocates nothing: no outputs)
        return cls(kernel, plan, device, tensors[0].device, tuple(rows), signature.functional, shapes)

    def run(self, call: DirectCall, args: Sequence[Any], *, bump: bool = True) -> Any:
        """One launch of the recorded signature; `DECLINED` (nothing launched) when an argument is not
        contiguous (the real kernel then raises its error).  `bump`: count the in-place writes in the
        tensors' version counters (False when torch's dispatcher does it)."""
        empty, zeros = call._empty, call._zeros
        dev = self.torch_device
        outs = [(zeros if zero else empty)(shape, dtype=dtype, device=dev) for shape, dtype, zero in self.outputs]
        device = self.device
        on_gpu = not device.is_cpu
        values: list[Any] = []
        for row in self.params:
            if row[0] == _SCALAR_ROW:
                _, index, cast = row
                value = args[index]
                values.append(cast(value) if cast is not None else value)
                continue
            _, source, index, cls, key, shape, tiles, dtype, count = row
            t = args[index] if source == "arg" else outs[index]
            if not t.is_contiguous():
                return self.DECLINED
            if on_gpu:
                buffer: DeviceBuffer[Any] = DeviceBuffer(
                    device, ForeignAllocation(t.data_ptr(), count * dtype.itemsize, t), dtype, 0, count
                )
            else:  # the CPU executor reads host memory through a numpy view
                buffer = buffer_from_torch(t, device)
            handle: Any = _NEW(cls)
            handle._buffer = buffer
            handle._shape = shape
            handle._key = key
            if tiles is not None:
                handle._tile_shape = tiles
            values.append(handle)
        stream = self._stream(call)
        launched = tuple(values)
        plan = self.plan
        fast = plan.gpu_launch
        if not (fast and fast(stream.handle, launched)):
            self.kernel._launch(plan, stream, launched)  # checked: launches, or raises the launch's error
        if not self.functional:
            if bump:
                call._bump_versions(args)
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _stream(self, call: DirectCall) -> Stream:
        device: Device = self.device
        if device.is_cpu:
            return device.default_stream
        raw = int(call._raw_stream(device.ordinal))
        last_raw, last = self.last
        if raw == last_raw and last is not None:
            return last
        stream = bridge.stream_for(device, raw)
        self.last = (raw, stream)
        return stream
