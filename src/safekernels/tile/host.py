"""Host constructors of tile tensors: `zeros`, `ones`, `full`, `arange`, `from_numpy`, each a lazy `DeviceOp`.

Nothing is allocated when they are called: the returned op allocates on the device of the stream it is finally
synchronized on (or on `device=` when given), so one chain can be built once and run on the CPU executor or a
GPU. Each op carries a `TensorSpec` as its `meta`, so partitions and launches built from it check shapes
immediately. `from_numpy` copies the array when called: later changes to the numpy array do not leak into the
chain.

Typing: with a dtype class (`f32`, `i32`, ...) the result is `DeviceOp[Tensor[f32]]`; with anything else (a
numpy dtype, a string) it is `DeviceOp[Tensor[Any]]`.  `from_numpy` is `DeviceOp[Tensor[Any]]`: numpy's stubs
type most arrays `NDArray[Any]` (and order float widths by subclassing), so overloads on the array's scalar
type would pick a wrong element type more often than a right one.
"""

from __future__ import annotations

from typing import Any, TypeVar, overload

import numpy as np
import numpy.typing as npt

from safekernels.dtypes import ScalarType, dtype_of
from safekernels.runtime.buffer import to_device
from safekernels.runtime.buffer import zeros as buffer_zeros
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.device_op import DeviceOp
from safekernels.tile.ops import Shape
from safekernels.tile.tensor import Tensor, TensorSpec


def as_tensor_shape(shape: Any, what: str) -> Shape:
    items = shape if isinstance(shape, tuple | list) else (shape,)
    if not all(isinstance(n, int | np.integer) and not isinstance(n, bool) and n >= 0 for n in items):
        raise ValueError(f"{what}: a tensor shape is an int or a tuple of non-negative ints, got {shape!r}")
    return tuple(int(n) for n in items)


def _host_op(
    label: str, spec: TensorSpec, fill: npt.NDArray[Any] | None, device: Device | None
) -> DeviceOp[Any]:
    def run(stream: Stream) -> Tensor[Any]:
        if device is not None and stream.device is not device:
            raise ValueError(
                f"{label}: built for {device!r} but synchronized on a stream of {stream.device!r}"
            )
        size = int(np.prod(spec.shape, dtype=np.int64))
        if fill is None:
            buffer = buffer_zeros(size, spec.dtype, stream)
        else:
            buffer = to_device(fill, stream, dtype=spec.dtype)
        tensor: Tensor[Any] = Tensor(buffer, spec.shape)
        return tensor

    return DeviceOp(run, label=label, device=device, meta=spec)


ST = TypeVar("ST", bound=ScalarType)


@overload
def zeros(shape: Any, dtype: type[ST], *, device: Device | None = None) -> DeviceOp[Tensor[ST]]: ...
@overload
def zeros(shape: Any, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]: ...
def zeros(shape: Any, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]:
    """A tensor of zeros."""
    spec = TensorSpec(as_tensor_shape(shape, "zeros"), dtype_of(dtype))
    return _host_op("zeros", spec, None, device)


@overload
def full(shape: Any, value: Any, dtype: type[ST], *, device: Device | None = None) -> DeviceOp[Tensor[ST]]: ...
@overload
def full(shape: Any, value: Any, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]: ...
def full(shape: Any, value: Any, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]:
    """A tensor filled with `value` (converted to `dtype`)."""
    spec = TensorSpec(as_tensor_shape(shape, "full"), dtype_of(dtype))
    return _host_op("full", spec, _filled(spec, value), device)


@overload
def ones(shape: Any, dtype: type[ST], *, device: Device | None = None) -> DeviceOp[Tensor[ST]]: ...
@overload
def ones(shape: Any, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]: ...
def ones(shape: Any, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]:
    """A tensor of ones."""
    spec = TensorSpec(as_tensor_shape(shape, "ones"), dtype_of(dtype))
    return _host_op("ones", spec, _filled(spec, 1), device)


@overload
def arange(n: int, dtype: type[ST], *, device: Device | None = None) -> DeviceOp[Tensor[ST]]: ...
@overload
def arange(n: int, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]: ...
def arange(n: int, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]:
    """The 1-D tensor `0, 1, ..., n-1`."""
    spec = TensorSpec(as_tensor_shape(n, "arange"), dtype_of(dtype))
    return _host_op(
        "arange", spec, np.arange(spec.shape[0], dtype=np.float64 if spec.dtype.is_float else None), device
    )


def from_numpy(
    array: npt.ArrayLike, *, device: Device | None = None, dtype: Any = None
) -> DeviceOp[Tensor[Any]]:
    """A tensor holding a copy of `array` (same shape; `array`'s dtype unless `dtype` names another, e.g.
    `bf16` or `f8e4m3`, which the values are rounded to)."""
    host = np.array(array, copy=True)
    dt = dtype_of(host.dtype) if dtype is None else dtype_of(dtype)
    spec = TensorSpec(tuple(int(n) for n in host.shape), dt)
    return _host_op("from_numpy", spec, host, device)


def _filled(spec: TensorSpec, value: Any) -> npt.NDArray[Any]:
    work = np.float64 if spec.dtype.is_float else spec.dtype.storage
    return np.full(spec.shape, value, dtype=work)
