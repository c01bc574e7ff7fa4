"""torch tensors as safekernels launch arguments, on torch's device and torch's current stream.

The operator's implementation runs inside torch's dispatcher, so it must enqueue its kernel where torch
enqueues everything else: on `torch.cuda.current_stream()` (which is also the stream a CUDA-graph capture or
`torch.compile`'s cudagraph tree records), without a host synchronization.  Tensors are wrapped without a copy
(`sk.as_buffer`: `__cuda_array_interface__` on a GPU, a shared numpy view on the CPU executor), so the launch's
runtime overlap check sees their real address ranges: passing one torch tensor as both input and output is
refused before the GPU runs, as for any other launch.

`import torch` happens only here and in `safekernels.torch.op`, on first use.
"""

from __future__ import annotations

from typing import Any

from safekernels.dtypes import DType
from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.interop import TORCH_DTYPE_NAMES, buffer_from_torch, torch_element_type

#: torch dtype name -> safekernels dtype name (every element type both have: the 8-bit floats, bool too)
TORCH_DTYPES: dict[str, str] = TORCH_DTYPE_NAMES
_SK_TO_TORCH = {v: k for k, v in TORCH_DTYPES.items()}

_streams: dict[tuple[int, int], Stream] = {}


def sk_dtype(tensor: Any, what: str) -> DType:
    """The safekernels dtype of a torch tensor (FakeTensors too)."""
    return torch_element_type(tensor.dtype, what)


def torch_dtype(torch: Any, dtype: DType) -> Any:
    return getattr(torch, _SK_TO_TORCH[dtype.name])


def sk_device(tensor: Any) -> Device:
    """`Device(i)` for `cuda:i`, the CPU executor for `cpu`."""
    kind = tensor.device.type
    if kind == "cuda":
        return Device(tensor.device.index or 0)
    if kind == "cpu":
        return Device.cpu()
    raise TypeError(f"safekernels runs on CUDA or on the CPU executor; the tensor is on {tensor.device}")


def raw_current_stream(torch: Any) -> Any:
    """`ordinal -> torch's current CUDA stream handle (int)`: torch's C accessor when it has one (no Stream
    object per call), else `torch.cuda.current_stream`."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw
    return lambda ordinal: int(torch.cuda.current_stream(ordinal).cuda_stream)


def stream_for(device: Device, raw: int) -> Stream:
    """The safekernels `Stream` of raw CUDA stream `raw` on `device` (wrapped once per raw stream)."""
    assert device.ordinal is not None
    stream = _streams.get((device.ordinal, raw))
    if stream is None:
        stream = Stream(device, device.backend.wrap_stream(raw)) if raw else device.default_stream  # type: ignore[attr-defined]
        _streams[(device.ordinal, raw)] = stream
    return stream


def current_stream(torch: Any, device: Device) -> Stream:
    """torch's current stream on `device` as a safekernels `Stream` (wrapped once per raw stream)."""
    if device.is_cpu:
        return device.default_stream
    assert device.ordinal is not None
    return stream_for(device, int(raw_current_stream(torch)(device.ordinal)))


def wrap(tensor: Any, device: Device, what: str) -> DeviceBuffer[Any]:
    """A flat, zero-copy `DeviceBuffer` over a contiguous torch tensor on `device` (any element type)."""
    return buffer_from_torch(tensor, device, what)
