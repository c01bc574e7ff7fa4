"""`jax_kernel`: call a tile or SIMT kernel from JAX code, `jax.jit` included.

The call is a `jax.pure_callback`: JAX computes the output shapes and dtypes abstractly (from the
`outputs=` rules and the kernel's parameter dtypes, after the launch's own shape checks), and at run time hands
the host callback its inputs as read-only numpy arrays and takes back the outputs it returns:

    jit-traced call ──▶ abstract eval: output ShapeDtypeStructs, launch shape checks (errors at trace time)
          │
          ▼ run time
    pure_callback(host) ──▶ inputs (numpy, immutable) ──▶ safekernels device ──▶ outputs (numpy) ──▶ JAX

On the CPU executor the callback wraps the numpy arrays in place and runs the kernel there, so JAX on CPU
calls safekernels kernels with no copies.  With `device=sk.Device(0)` the callback copies the inputs to the
GPU, launches, and copies the outputs back: correct under `jit` everywhere, but it pays two host round trips
per call.  A zero-copy GPU path through XLA's FFI (a C handler that receives XLA's device buffers and stream)
is not built yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from safekernels.dtypes import DType, dtype_of, is_encoded
from safekernels.frameworks.launcher import OpLauncher, TileShapeRule
from safekernels.frameworks.signature import OutputRule, op_signature
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
    ) -> None:
        name = getattr(kernel, "name", repr(kernel))
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
        import jax.numpy as jnp

        arguments = self.signature.arguments
        if len(args) != len(arguments):
            listed = ", ".join(p.name for p in arguments)
            raise TypeError(f"{self.name}() takes {len(arguments)} arguments ({listed}), got {len(args)}")
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
        names = [p.name for p in arguments]

        def host(*values: Any) -> tuple[Any, ...]:
            return self._run_on_host(dict(zip(names, values, strict=True)), shapes, dtypes)

        outs = jax.pure_callback(host, result_types, *[named[n] for n in names], vmap_method="sequential")
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _run_on_host(
        self, named: dict[str, Any], shapes: Mapping[str, tuple[int, ...]], dtypes: Mapping[str, DType]
    ) -> tuple[Any, ...]:
        device = self.device if self.device is not None else Device.cpu()
        stream = device.default_stream
        outputs: dict[str, np.ndarray[Any, Any]] = {}
        for p in self.signature.outputs:
            make = np.zeros if p.track == "simt" else np.empty  # SIMT threads may skip elements; atomics add
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
) -> JaxKernel:
    """Wrap a `@tile.kernel` / `@simt.kernel` for JAX (see the module docstring for the arguments' meaning;
    `outputs`, `tile_shapes` and `launch` are as in `safekernels.torch.custom_op`)."""
    return JaxKernel(kernel, outputs=outputs, tile_shapes=tile_shapes, launch=launch, device=device)
