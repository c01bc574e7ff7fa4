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

from safekernels.dtypes import DType, dtype_of
from safekernels.runtime.buffer import DeviceBuffer, as_buffer
from safekernels.runtime.device import Device, Stream

#: torch dtype name -> safekernels dtype name
TORCH_DTYPES: dict[str, str] = {
    "float32": "f32",
    "float16": "f16",
    "bfloat16": "bf16",
    "float64": "f64",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "bool": "bool",
}
_SK_TO_TORCH = {v: k for k, v in TORCH_DTYPES.items()}

_streams: dict[tuple[int, int], Stream] = {}


def sk_dtype(tensor: Any, what: str) -> DType:
    """The safekernels dtype of a torch tensor (FakeTensors too)."""
    name = str(tensor.dtype).removeprefix("torch.")
    if name not in TORCH_DTYPES:
        raise TypeError(f"{what}: torch dtype {tensor.dtype} has no safekernels element type")
    return dtype_of(TORCH_DTYPES[name])


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


def current_stream(torch: Any, device: Device) -> Stream:
    """torch's current stream on `device` as a safekernels `Stream` (wrapped once per raw stream)."""
    if device.is_cpu:
        return device.default_stream
    assert device.ordinal is not None
    raw = int(torch.cuda.current_stream(device.ordinal).cuda_stream)
    stream = _streams.get((device.ordinal, raw))
    if stream is None:
        stream = Stream(device, device.backend.wrap_stream(raw)) if raw else device.default_stream  # type: ignore[attr-defined]
        _streams[(device.ordinal, raw)] = stream
    return stream


def wrap(tensor: Any, device: Device, what: str) -> DeviceBuffer[Any]:
    """A flat, zero-copy `DeviceBuffer` over a contiguous torch tensor on `device`."""
    if not tensor.is_contiguous():
        raise ValueError(f"{what}: safekernels kernels take contiguous tensors (call .contiguous() first)")
    data = tensor.detach()
    if device.is_cpu:
        if data.dtype == _torch_module().bfloat16:
            data = data.view(_torch_module().int16)  # numpy has no bf16: share the bits, keep the dtype below
            buffer = as_buffer(data.numpy(), device)
            return DeviceBuffer(device, buffer.allocation, dtype_of("bf16"), 0, buffer.length)
        return as_buffer(data.numpy(), device)
    return as_buffer(data, device)


def _torch_module() -> Any:
    import torch

    return torch
