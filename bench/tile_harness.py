"""Running tile kernels on torch tensors without the DeviceOp machinery (GPU tests, kernel-only bench column).

`Arg` wraps a CUDA torch tensor as what `launch_tile_on_gpu` needs from a Tensor or Partition (shape, dtype,
device pointer, tile shape), so the launch skips ops, moves and checks.  Not a user path: `bench/tile_bench.py`
times users' launches through the public API (eager `sync_on` and `graph_on` replay) and shows this one only in
its column labelled "kernel only (harness)".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from safekernels.dtypes import DType, dtype_of

_TORCH_NAMES = {
    "float32": "f32",
    "float16": "f16",
    "bfloat16": "bf16",
    "float64": "f64",
    "int32": "i32",
    "int64": "i64",
    "bool": "bool",
    "int8": "i8",
    "uint8": "u8",
    "int16": "i16",
}


@dataclass
class Arg:
    shape: tuple[int, ...]
    dtype: DType
    buffer: Any
    tile_shape: tuple[int, ...] | None = None


def arg(t: Any, tile_shape: tuple[int, ...] | None = None) -> Arg:
    name = _TORCH_NAMES[str(t.dtype).replace("torch.", "")]
    assert t.is_contiguous()
    return Arg(tuple(t.shape), dtype_of(name), SimpleNamespace(ptr=t.data_ptr()), tile_shape)


class Runner:
    """Launches on torch's current stream through `safekernels.tile.gpu_launch`."""

    def __init__(self) -> None:
        import torch

        import safekernels as sk

        self.torch = torch
        self.device = sk.Device(0)

    def stream(self) -> Any:
        return SimpleNamespace(device=self.device, handle=self.torch.cuda.current_stream().cuda_stream)

    def __call__(self, kernel: Any, *values: Any) -> None:
        from safekernels.tile.gpu_launch import launch_tile_on_gpu

        part = next(v for v, p in zip(values, kernel.params, strict=True) if p.kind == "partition")
        grid = tuple(-(-n // t) for n, t in zip(part.shape, part.tile_shape, strict=True))
        launch_tile_on_gpu(kernel, values, grid, self.stream())

    def prepared(self, kernel: Any, *values: Any) -> Any:
        """A zero-argument callable launching `kernel` with pre-resolved specialization (for timing)."""
        from safekernels.tile.gpu_launch import tile_kernel_for

        loaded = tile_kernel_for(kernel, values, self.device)
        part = next(v for v, p in zip(values, kernel.params, strict=True) if p.kind == "partition")
        grid = tuple(-(-n // t) for n, t in zip(part.shape, part.tile_shape, strict=True))
        raw = self.torch.cuda.current_stream().cuda_stream
        _ = math
        return lambda: loaded.launch(kernel.params, values, grid, raw)
