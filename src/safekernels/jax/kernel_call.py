"""`jax_kernel`: call a tile or SIMT kernel from JAX code, `jax.jit` included.

JAX computes the output shapes and dtypes abstractly (from the `outputs=` rules and the kernel's parameter
dtypes, after the launch's own shape checks), so every error of shape or dtype is raised at trace time.  The
call itself then takes one of two routes:

    jit-traced call ──▶ abstract eval: output ShapeDtypeStructs, launch shape checks (errors at trace time)
          │
          ├─ FFI (the default): an XLA custom call to the `safekernels_launch` target (`ffi_target`): at run
          │   time XLA hands the handler its own device buffers and CUstream, and the kernel is enqueued there
          │   with no host copy (on XLA:CPU the buffers are host memory and the CPU executor runs it in place)
          │
          └─ callback: a `jax.pure_callback` receiving the inputs as read-only numpy arrays; the kernel runs
              on the CPU executor in place, or with `device=sk.Device(k)` on that GPU after a copy there and
              back.  Used for `via="callback"`, when this JAX has no FFI, and for `device=` asking for another
              platform than the one the computation runs on (`jax.lax.platform_dependent` picks per platform).

Scalars that are static (Python numbers, concrete arrays) are part of the traced call's plan; scalars that
are traced values travel as 0-d operands (see `ffi_target` for what that costs on CUDA).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import numpy as np

from safekernels.dtypes import DType, dtype_of, is_encoded
from safekernels.frameworks.launcher import OpLauncher, TileShapeRule
from safekernels.frameworks.signature import OutputRule, op_signature
from safekernels.jax import ffi_target
from safekernels.runtime.buffer import DeviceBuffer, as_buffer, empty
from safekernels.runtime.device import Device

#: JAX (ml_dtypes) element types numpy has no dtype of its own for -> safekernels names; host arrays carry
#: their bit patterns (`DType.storage`)
_ENCODED_NAMES = {"bfloat16": "bf16", "float8_e4m3fn": "f8e4m3", "float8_e5m2": "f8e5m2"}


def _sk_dtype(array: Any, where: str) -> DType:
    name = str(array.dtype)
    if name in _ENCODED_NAMES:
        return dtype_of(_ENCODED_NAMES[name])
    try:
        return dtype_of(np.dtype(array.dtype))
    except TypeError:
        raise TypeError(f"{where}: JAX dtype {array.dtype} has no safekernels element type") from None


def _np_dtype(dtype: DType) -> Any:
    """The dtype JAX names `dtype` with (ml_dtypes' types for bf16 and the 8-bit floats)."""
    if is_encoded(dtype):
        import jax.numpy as jnp

        return getattr(jnp, {v: k for k, v in _ENCODED_NAMES.items()}[dtype.name])
    return dtype.storage


class JaxKernel:
    """A kernel as a JAX-callable function: `outputs = k(*inputs_and_scalars)` (see the module docstring)."""

    def __init__(
        self,
        kernel: Any,
        *,
        outputs: Mapping[str, OutputRule],
        tile_shapes: Mapping[str, TileShapeRule] | None = None,
        launch: Callable[..., Any] | None = None,
        device: Device | None = None,
        via: Literal["ffi", "callback"] | None = None,
    ) -> None:
        name = getattr(kernel, "name", repr(kernel))
        if via not in (None, "ffi", "callback"):
            raise ValueError(f"jax_kernel({name}): via= is 'ffi', 'callback' or None (FFI where it can), got {via!r}")
        if outputs is None:
            raise ValueError(
                f"jax_kernel({name}): JAX arrays are immutable, so the outputs must be allocated: pass "
                "outputs={'out': 'x'} (an input's name to copy its shape, a shape, or a function of the inputs)"
            )
        self.kernel = kernel
        self.name = name
        self.signature = op_signature(kernel, f"jax_kernel({name})", outputs)
        if not any(p.role == "input" for p in self.signature.arguments):
            raise ValueError(f"jax_kernel({name}): the kernel needs at least one tensor input")
        self._outputs = dict(outputs)
        self.launcher = OpLauncher(
            f"jax_kernel({name})", kernel, self.signature, tile_shapes=tile_shapes, launch=launch
        )
        self.device = device
        self.via = via
        self._jitted: Any = None  # `_eager`'s jax.jit of the call, made on the first call outside a trace
        self.__name__ = name

    def __repr__(self) -> str:
        return f"<safekernels.jax kernel {self.name} {self.signature.schema()}>"

    def _output_shapes(self, named: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
        inputs = {p.name: named[p.name] for p in self.signature.arguments if p.role == "input"}
        shapes: dict[str, tuple[int, ...]] = {}
        for p in self.signature.outputs:
            rule = self._outputs[p.name]
            if isinstance(rule, str):
                shapes[p.name] = tuple(int(d) for d in inputs[rule].shape)
            elif callable(rule):
                shapes[p.name] = tuple(int(d) for d in rule(**inputs))
            else:
                shapes[p.name] = tuple(int(d) for d in rule)
        return shapes

    def _output_dtype(self, p: Any, named: Mapping[str, Any]) -> DType:
        if p.dtype is not None:
            return p.dtype  # type: ignore[no-any-return]
        first = next(named[q.name] for q in self.signature.arguments if q.role == "input")
        return _sk_dtype(first, self.name)

    def __call__(self, *args: Any) -> Any:
        import jax

        arguments = self.signature.arguments
        if len(args) != len(arguments):
            listed = ", ".join(p.name for p in arguments)
            raise TypeError(f"{self.name}() takes {len(arguments)} arguments ({listed}), got {len(args)}")
        if any(isinstance(a, jax.core.Tracer) for a in args):
            return self._traced(*args)
        return self._eager(args)

    def _eager(self, args: tuple[Any, ...]) -> Any:
        """A call outside any trace, through one `jax.jit` of the call with the scalars static: a repeat call
        is JAX's compiled-call fast path (one cache lookup) instead of a new trace and an op-by-op dispatch."""
        jitted = self._jitted
        if jitted is None:
            import jax

            scalars = tuple(i for i, p in enumerate(self.signature.arguments) if p.role == "scalar")
            jitted = self._jitted = jax.jit(self._traced, static_argnums=scalars)
        values = [
            a.item() if p.role == "scalar" and hasattr(a, "item") else a  # static arguments must hash
            for p, a in zip(self.signature.arguments, args, strict=True)
        ]
        return jitted(*values)

    def _traced(self, *args: Any) -> Any:
        """The call as JAX traces it (see the module docstring)."""
        import jax
        import jax.numpy as jnp

        arguments = self.signature.arguments
        named = {p.name: jnp.asarray(a) if p.role == "input" else a for p, a in zip(arguments, args, strict=True)}
        shapes = self._output_shapes(named)
        dtypes = {p.name: self._output_dtype(p, named) for p in self.signature.outputs}
        described = {p.name: (shapes[p.name], dtypes[p.name]) for p in self.signature.outputs}
        for p in arguments:
            if p.role == "input":
                described[p.name] = (tuple(int(d) for d in named[p.name].shape), _sk_dtype(named[p.name], self.name))
        self.launcher.check_static(described)  # shape / dtype errors at trace time, naming the kernel
        result_types = tuple(
            jax.ShapeDtypeStruct(shapes[p.name], _np_dtype(dtypes[p.name])) for p in self.signature.outputs
        )
        # operands: the tensor inputs, then the scalars only known at run time (as 0-d arrays)
        tensors = [p.name for p in arguments if p.role == "input"]
        static: dict[str, Any] = {}
        traced: list[str] = []
        for p in arguments:
            if p.role == "scalar":
                value = named[p.name]
                if isinstance(value, jax.core.Tracer):
                    named[p.name] = jnp.asarray(value, _np_dtype(p.dtype)) if p.dtype is not None else value
                    traced.append(p.name)
                else:
                    static[p.name] = value.item() if hasattr(value, "item") else value
        names = tensors + traced
        operands = [named[n] for n in names]

        def host(*values: Any) -> tuple[Any, ...]:
            return self._run_on_host({**static, **dict(zip(names, values, strict=True))}, shapes, dtypes)

        def callback(*values: Any) -> Any:
            return jax.pure_callback(host, result_types, *values, vmap_method="sequential")

        if not self._use_ffi():
            outs = callback(*operands)
        else:
            index = self._plan(named, shapes, dtypes, static, traced, len(names))
            ffi = ffi_target.ffi_module()
            launch = ffi.ffi_call(ffi_target.TARGET, result_types, vmap_method="sequential")

            def via_ffi(*values: Any) -> Any:
                return launch(*values, call=np.int64(index))

            if self.device is None:
                outs = via_ffi(*operands)
            elif self.device.is_gpu:  # a computation on XLA:CPU still runs the kernel on this GPU, by copies
                outs = jax.lax.platform_dependent(*operands, cpu=callback, default=via_ffi)
            else:  # the CPU executor asked for: a computation on the GPU hands it host copies
                outs = jax.lax.platform_dependent(*operands, cpu=via_ffi, default=callback)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _use_ffi(self) -> bool:
        if self.via == "callback":
            return False
        if ffi_target.register():
            return True
        if self.via == "ffi":
            raise RuntimeError(
                f"jax_kernel({self.name}, via='ffi'): this JAX has no FFI (jax.ffi, from JAX 0.4.31) or this Python "
                "no ctypes.pythonapi; leave via= out to fall back to jax.pure_callback"
            )
        return False

    def _plan(
        self,
        named: Mapping[str, Any],
        shapes: Mapping[str, tuple[int, ...]],
        dtypes: Mapping[str, DType],
        static: Mapping[str, Any],
        traced: list[str],
        n_args: int,
    ) -> int:
        """The `ffi_target` plan index of this call (the same one for every call of the same signature)."""
        slots: list[ffi_target.TensorSlot] = []
        position = {"input": 0, "output": 0}
        for p in self.signature.params:
            if p.role == "scalar":
                continue
            if p.role == "output":
                shape, dtype, source = shapes[p.name], dtypes[p.name], "ret"
            else:
                shape = tuple(int(d) for d in named[p.name].shape)
                dtype, source = _sk_dtype(named[p.name], self.name), "arg"
            zero_fill = p.role == "output" and (p.track == "simt" or p.atomic)
            count = int(np.prod(shape, dtype=np.int64))
            slots.append(ffi_target.TensorSlot(p.name, source, position[p.role], shape, dtype, zero_fill, count))
            position[p.role] += 1
        scalars = tuple((name, position["input"] + i, np.dtype(named[name].dtype)) for i, name in enumerate(traced))
        key = (self, tuple(slots), tuple((k, type(v), v) for k, v in static.items()), scalars)
        return ffi_target.plan_call(key, self.launcher, tuple(slots), static, scalars, n_args, position["output"])

    def _run_on_host(
        self, named: dict[str, Any], shapes: Mapping[str, tuple[int, ...]], dtypes: Mapping[str, DType]
    ) -> tuple[Any, ...]:
        device = self.device if self.device is not None else Device.cpu()
        stream = device.default_stream
        outputs: dict[str, np.ndarray[Any, Any]] = {}
        for p in self.signature.outputs:
            make = np.zeros if p.track == "simt" or p.atomic else np.empty  # SIMT may skip elements; atomics add
            outputs[p.name] = make(shapes[p.name], dtype=dtypes[p.name].storage)
        placed: dict[str, Any] = {}
        device_outputs: dict[str, DeviceBuffer[Any]] = {}
        for p in self.signature.params:
            if p.role == "scalar":
                value = named[p.name]
                placed[p.name] = value.item() if hasattr(value, "item") else value
                continue
            host = outputs[p.name] if p.role == "output" else np.ascontiguousarray(named[p.name])
            dt = dtypes[p.name] if p.role == "output" else _sk_dtype(host, self.name)
            flat = host.reshape(-1).view(dt.storage)  # bf16 / 8-bit floats: the kernel sees the bits
            if device.is_cpu:
                shared = as_buffer(flat)
                buffer: DeviceBuffer[Any] = DeviceBuffer(device, shared.allocation, dt, 0, flat.size)
            else:
                buffer = empty(flat.size, dt, stream, device=device)
                if flat.size:
                    device.backend.copy_from_host(buffer.ptr, flat, stream.handle)
            if p.role == "output" and not device.is_cpu:
                device_outputs[p.name] = buffer
            placed[p.name] = (buffer, tuple(host.shape))
        self.launcher.launch(placed, device, stream)
        for name, buffer in device_outputs.items():
            bits = outputs[name]  # the output's bit patterns, copied back raw (no conversion to f32)
            if bits.size:
                device.backend.copy_to_host(bits.reshape(-1), buffer.ptr, stream.handle)
        stream.synchronize()
        return tuple(
            outputs[p.name].view(_np_dtype(dtypes[p.name])) if is_encoded(dtypes[p.name]) else outputs[p.name]
            for p in self.signature.outputs
        )


def jax_kernel(
    kernel: Any,
    *,
    outputs: Mapping[str, OutputRule],
    tile_shapes: Mapping[str, TileShapeRule] | None = None,
    launch: Callable[..., Any] | None = None,
    device: Device | None = None,
    via: Literal["ffi", "callback"] | None = None,
) -> JaxKernel:
    """Wrap a `@tile.kernel` / `@simt.kernel` for JAX (see the module docstring for the arguments' meaning;
    `outputs`, `tile_shapes` and `launch` are as in `safekernels.torch.custom_op`).

    `device`: None runs the kernel where the computation runs (XLA's GPU, or the CPU executor for XLA:CPU);
    a GPU `Device` also serves computations on XLA:CPU (by copies), `Device.cpu()` also GPU computations.
    `via`: None takes the FFI route wherever it can, "callback" always `jax.pure_callback`, "ffi" refuses
    to fall back."""
    return JaxKernel(kernel, outputs=outputs, tile_shapes=tile_shapes, launch=launch, device=device, via=via)
