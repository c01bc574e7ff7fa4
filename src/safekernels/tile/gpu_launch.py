"""Running a tile kernel on a CUDA device: the seam between the tile launch path and the tile compiler.

    launch_tile_on_gpu(kernel, bound_args, grid, stream)
        specialize (dtypes, ranks, tile shapes, 16-byte alignment/divisibility of each tensor)
        -> codegen.tile.pipeline.compile_tile (disk-cached like SIMT) -> cuModuleLoadData, once per
           (kernel, specialization, device)
        -> pack (ptr, dims...) per tensor, scalars, grid extents -> one cuLaunchKernel on `stream`

`bound_args` are the launch's values in parameter order: Tensor / Partition objects (anything with `shape`,
`dtype`, `buffer.ptr`, and `tile_shape` for partitions) and Python scalars.  The CUDA grid is 1-D with
`prod(grid)` CTAs of the compiler's thread count; nothing here synchronizes (the DeviceOp's `sync_on` does).

A compute-capability 9.0 device (H100/H200) is compiled for `sm_90a`, so matmul main loops can use warpgroup
MMA; `sm_90a` code runs on 9.0 only, so every other device gets the plain arch of the SIMT launcher.
"""

from __future__ import annotations

import ctypes
import math
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from safekernels.dtypes import DType, f32_to_bf16

_CTYPES: dict[str, Any] = {
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "u8": ctypes.c_uint8,
    "u16": ctypes.c_uint16,
    "u32": ctypes.c_uint32,
    "u64": ctypes.c_uint64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
    "bool": ctypes.c_uint8,
    "f16": ctypes.c_uint16,
    "bf16": ctypes.c_uint16,
}
_DEFAULT_SMEM = 48 * 1024


def _scalar_cell(value: Any, dt: DType) -> Any:
    cell = _CTYPES[dt.name]()
    if dt.name == "f16":
        cell.value = int(np.float16(value).view(np.uint16))
    elif dt.name == "bf16":
        cell.value = int(f32_to_bf16(np.float32(value)))
    elif dt.name == "bool":
        cell.value = 1 if value else 0
    elif dt.kind in ("i", "u"):
        cell.value = int(value)
    else:
        cell.value = float(value)
    return cell


class TileGpuKernel:
    """One specialization of one tile kernel, loaded on one device."""

    def __init__(self, compiled: Any, backend: Any) -> None:
        self.compiled = compiled
        self.name: str = compiled.name
        self.module = backend.load_module(compiled.cubin)
        self.function = backend.get_function(self.module, compiled.name)
        if compiled.smem_bytes > _DEFAULT_SMEM:
            from safekernels.runtime.cuda_backend import _driver, check

            driver = _driver()
            attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            check(
                driver.cuFuncSetAttribute(self.function, attr, compiled.smem_bytes),
                "cuFuncSetAttribute",
                self.name,
            )

    def launch(
        self, params: Sequence[Any], values: Sequence[Any], grid: Sequence[int], raw_stream: Any
    ) -> None:
        from safekernels.runtime.cuda_backend import _driver, check

        cells: list[Any] = []
        for kind, index, axis in self.compiled.abi:
            if kind == "ptr":
                cells.append(ctypes.c_uint64(int(values[index].buffer.ptr)))
            elif kind == "dim":
                cells.append(ctypes.c_int64(int(values[index].shape[axis])))
            elif kind == "scalar":
                cells.append(_scalar_cell(values[index], params[index].dtype))
            else:
                cells.append(ctypes.c_int64(int(grid[axis])))
        array = (ctypes.c_void_p * max(1, len(cells)))(*[ctypes.addressof(c) for c in cells])
        blocks = math.prod(grid)
        if blocks == 0:
            return
        result = _driver().cuLaunchKernel(
            self.function,
            blocks,
            1,
            1,
            self.compiled.threads,
            1,
            1,
            self.compiled.smem_bytes,
            raw_stream,
            ctypes.addressof(array),
            0,
        )
        check(result, "cuLaunchKernel", self.name)


_LOADED: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], TileGpuKernel]] = weakref.WeakKeyDictionary()


def _arch(device: Any) -> str:
    from safekernels.simt.gpu_launch import _arch_for

    if tuple(device.compute_capability) == (9, 0):
        return "sm_90a"
    return _arch_for(device)


def tile_kernel_for(kernel: Any, values: Sequence[Any], device: Any) -> TileGpuKernel:
    """The loaded specialization of `kernel` for `values` on `device` (compiled on first use)."""
    from codegen.tile.specialize import specialize

    infos, grid_rank = specialize(kernel, values)
    warps = getattr(kernel, "num_warps", None)
    arch = _arch(device)
    key = (tuple(infos), grid_rank, arch, warps, getattr(device, "ordinal", 0))
    per_kernel = _LOADED.setdefault(kernel, {})
    loaded = per_kernel.get(key)
    if loaded is None:
        prebuilt = getattr(kernel, "prebuilt", None)  # sk.load_prebuilt: built specializations only
        if prebuilt is not None:
            compiled = prebuilt.find(infos, grid_rank, arch)
        else:
            from codegen.tile.pipeline import compile_tile

            compiled = compile_tile(kernel.fn, infos, grid_rank, arch=arch, num_warps=warps)
        loaded = per_kernel[key] = TileGpuKernel(compiled, device.backend)
    return loaded


def launch_tile_on_gpu(kernel: Any, bound_args: Sequence[Any], grid: Sequence[int], stream: Any) -> None:
    """Compile (cached) and launch `kernel` on `stream` (a `safekernels` Stream) over `grid` tile blocks."""
    device = stream.device
    loaded = tile_kernel_for(kernel, bound_args, device)
    handle = stream.handle
    raw = 0 if handle is None else getattr(handle, "handle", handle)
    loaded.launch(kernel.params, bound_args, grid, raw)
    if handle is not None and hasattr(handle, "last_kernel"):
        handle.last_kernel = kernel.name
