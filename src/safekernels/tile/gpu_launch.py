"""Running a tile kernel on a CUDA device: the seam between the tile launch path and the tile compiler.

    launch_tile_on_gpu(kernel, bound_args, grid, stream)
        specialize (dtypes, ranks, tile shapes, 16-byte alignment/divisibility of each tensor)
        -> codegen.tile.pipeline.compile_tile (disk-cached like SIMT) -> cuModuleLoadData, once per
           (kernel, specialization, device)
        -> pack (ptr, dims...) per tensor, scalars, grid extents -> one cuLaunchKernel on `stream`

    build_fast_launch(kernel, loaded, values, grid, overlaps)      (after a launch plan's first GPU launch)
        -> one generated function per (plan, specialization): alignment and overlap tests, one
           `struct.pack_into` into fixed parameter storage, one cuLaunchKernel; False -> the path above
        -> and its twin `synced_launch(fast)` that also runs `cuStreamSynchronize` (the eager `sync_on`)

`bound_args` are the launch's values in parameter order: Tensor / Partition objects (anything with `shape`,
`dtype`, `buffer.ptr`, and `tile_shape` for partitions) and Python scalars.  The CUDA grid is 1-D with
`prod(grid)` CTAs of the compiler's thread count; nothing here synchronizes (the DeviceOp's `sync_on` does).

A compute-capability 9.0 device (H100/H200) is compiled for `sm_90a`, so matmul main loops can use warpgroup
MMA; `sm_90a` code runs on 9.0 only, so every other device gets the plain arch of the SIMT launcher.
"""

from __future__ import annotations

import ctypes
import math
import struct
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safekernels.dtypes import DType, f32_to_bf16, from_f32

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
    "f8e4m3": ctypes.c_uint8,
    "f8e5m2": ctypes.c_uint8,
}
_DEFAULT_SMEM = 48 * 1024


def _scalar_cell(value: Any, dt: DType) -> Any:
    cell = _CTYPES[dt.name]()
    if dt.name == "f16":
        cell.value = int(np.float16(value).view(np.uint16))
    elif dt.name == "bf16":
        cell.value = int(f32_to_bf16(np.float32(value)))
    elif dt.name in ("f8e4m3", "f8e5m2"):
        cell.value = int(from_f32(np.float32(value), dt))
    elif dt.name == "bool":
        cell.value = 1 if value else 0
    elif dt.kind in ("i", "u"):
        cell.value = int(value)
    else:
        cell.value = float(value)
    return cell


#: cuTensorMapEncodeTiled's element types for the copy-engine operands (fp8 moves as bytes).
_TMAP_TYPES = {"f16": 6, "bf16": 9, "f8e4m3": 0, "f8e5m2": 0}
_LIBCUDA: list[Any] = []


#: encoded maps by (address, shape, dtype, ABI kind): a map depends on nothing else, and an eager loop launches
#: the same tensors again and again (bounded; the oldest entry goes first)
_MAP_CACHE: dict[tuple[int, tuple[int, ...], str, str], Any] = {}
_MAP_CACHE_SIZE = 256


def tensor_map(value: Any, kind: str) -> Any:
    """The 128-byte CUtensorMap of a rank-2 tensor for ABI entry `tmap:ROWS:COLS`: boxes of COLS x ROWS
    elements, 128-byte swizzle (the wgmma operand layout), zero fill out of bounds, 256-byte L2 promotion.
    Returns a ctypes view whose address is 64-byte aligned (the buffer it lives in rides along); the launch
    copies it, so one view serves every launch of the same tensor."""
    key = (int(value.buffer.ptr), tuple(int(n) for n in value.shape), value.dtype.name, kind)
    hit = _MAP_CACHE.get(key)
    if hit is not None:
        return hit
    view = _encode_tensor_map(value, kind)
    if len(_MAP_CACHE) >= _MAP_CACHE_SIZE:
        del _MAP_CACHE[next(iter(_MAP_CACHE))]
    _MAP_CACHE[key] = view
    return view


def _encode_tensor_map(value: Any, kind: str) -> Any:
    _, rows, cols = kind.split(":")
    if not _LIBCUDA:
        _LIBCUDA.append(ctypes.CDLL("libcuda.so.1"))
    dt = value.dtype
    n0, n1 = (max(1, int(n)) for n in value.shape)
    raw = (ctypes.c_uint8 * 192)()
    addr = (ctypes.addressof(raw) + 63) & ~63
    result = _LIBCUDA[0].cuTensorMapEncodeTiled(
        ctypes.c_void_p(addr),
        ctypes.c_int(_TMAP_TYPES[dt.name]),
        ctypes.c_uint32(2),
        ctypes.c_void_p(int(value.buffer.ptr)),
        (ctypes.c_uint64 * 2)(n1, n0),
        (ctypes.c_uint64 * 1)(n1 * dt.itemsize),
        (ctypes.c_uint32 * 2)(int(cols), int(rows)),
        (ctypes.c_uint32 * 2)(1, 1),
        ctypes.c_int(0),  # no interleave
        ctypes.c_int(3),  # CU_TENSOR_MAP_SWIZZLE_128B
        ctypes.c_int(3),  # CU_TENSOR_MAP_L2_PROMOTION_L2_256B
        ctypes.c_int(0),  # out of bounds: zeros
    )
    if result != 0:
        raise RuntimeError(
            f"cuTensorMapEncodeTiled failed (CUresult {result}) for a {value.shape} {dt} tensor, box {cols}x{rows}"
        )
    view = (ctypes.c_uint8 * 128).from_address(addr)
    view._raw = raw  # type: ignore[attr-defined]  # keeps the storage alive with the view
    return view


def _load(compiled: Any, backend: Any) -> tuple[Any, str]:
    """The loaded module and, for a `setmaxnreg` kernel, the driver JIT's log: nvJitLink's cubin, or the
    driver's whole-program compile of the PTX (`codegen.whole_program`; nvJitLink's relocatable compile ignores
    `setmaxnreg`)."""
    if getattr(compiled, "route", "nvjitlink") != "driver":
        return backend.load_module(compiled.cubin), ""
    from safekernels.codegen import whole_program

    previous = backend.enter_always()  # the module belongs to the device's context
    try:
        return whole_program.load_module(compiled.ptx, compiled.arch, compiled.name)
    finally:
        backend.leave(previous)


class TileGpuKernel:
    """One specialization of one tile kernel, loaded on one device."""

    #: a persistent kernel (codegen.tile.persistent) loops over the tile blocks: at most one CTA per SM (None: all)
    max_blocks: int | None = None

    def __init__(self, compiled: Any, backend: Any) -> None:
        self.compiled = compiled
        self.name: str = compiled.name
        #: the driver JIT's log when the PTX was compiled at load (a `setmaxnreg` kernel), else ""
        self.module, self.jit_log = _load(compiled, backend)
        self.function = backend.get_function(self.module, compiled.name)
        asserts = getattr(compiled, "asserts", None)
        if asserts:  # a failed device assert is read back from host-mapped memory (simt.device_assert)
            from safekernels.simt.device_assert import arm

            arm(self.name, self.module, list(asserts))
        if getattr(compiled, "persistent", False):
            attribute = getattr(backend, "attribute", None)
            self.max_blocks = int(attribute("MULTIPROCESSOR_COUNT")) if attribute is not None else None
        if compiled.smem_bytes > _DEFAULT_SMEM:
            from safekernels.runtime.cuda_backend import _driver, check

            driver = _driver()
            attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            check(
                driver.cuFuncSetAttribute(self.function, attr, compiled.smem_bytes),
                "cuFuncSetAttribute",
                self.name,
            )

    def blocks(self, grid: Sequence[int]) -> int:
        """CTAs to launch over `grid` tile blocks: all of them, or one per SM for a persistent kernel."""
        total = math.prod(grid)
        if self.max_blocks is None or total >= 1 << 31:  # past CUDA's grid limit: the driver refuses it
            return total
        return min(total, self.max_blocks)

    def launch(
        self, params: Sequence[Any], values: Sequence[Any], grid: Sequence[int], raw_stream: Any
    ) -> None:
        from safekernels.runtime.cuda_backend import _driver, check

        cells: list[Any] = []
        for kind, index, axis in self.compiled.abi:
            if kind.startswith("tmap:"):  # a copy-engine operand's tensor map, by value (codegen.tile.tma)
                cells.append(tensor_map(values[index], kind))
            elif kind == "ptr":
                cells.append(ctypes.c_uint64(int(values[index].buffer.ptr)))
            elif kind == "dim":
                cells.append(ctypes.c_int64(int(values[index].shape[axis])))
            elif kind == "scalar":
                cells.append(_scalar_cell(values[index], params[index].dtype))
            else:
                cells.append(ctypes.c_int64(int(grid[axis])))
        array = (ctypes.c_void_p * max(1, len(cells)))(*[ctypes.addressof(c) for c in cells])
        blocks = self.blocks(grid)
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
    from safekernels.codegen.tile.specialize import specialize

    infos, grid_rank = specialize(kernel, values)
    warps = getattr(kernel, "num_warps", None)
    fast_math = bool(getattr(kernel, "fast_math", False))
    arch = _arch(device)
    key = (tuple(infos), grid_rank, arch, warps, getattr(device, "ordinal", 0))  # fast_math: fixed per kernel
    per_kernel = _LOADED.setdefault(kernel, {})
    loaded = per_kernel.get(key)
    if loaded is None:
        prebuilt = getattr(kernel, "prebuilt", None)  # sk.load_prebuilt: built specializations only
        # another device of the same architecture loaded this specialization: load the same build
        shared = next((other.compiled for k, other in per_kernel.items() if k[:4] == key[:4]), None)
        if shared is not None:
            compiled = shared
        elif prebuilt is not None:
            compiled = prebuilt.find(infos, grid_rank, arch)
        else:
            from safekernels.codegen.tile.pipeline import compile_tile

            compiled = compile_tile(kernel.fn, infos, grid_rank, arch=arch, num_warps=warps, fast_math=fast_math)
        from safekernels.runtime.cuda_backend import SWITCHING

        backend = device.backend
        previous = backend.enter() if SWITCHING else None  # the module belongs to this device's context
        try:
            loaded = per_kernel[key] = TileGpuKernel(compiled, backend)
        finally:
            if previous is not None:
                backend.leave(previous)
    return loaded


def launch_tile_on_gpu(
    kernel: Any, bound_args: Sequence[Any], grid: Sequence[int], stream: Any
) -> TileGpuKernel:
    """Compile (cached) and launch `kernel` on `stream` (a `safekernels` Stream) over `grid` tile blocks;
    returns the loaded specialization it ran."""
    from safekernels.runtime.cuda_backend import SWITCHING

    device = stream.device
    loaded = tile_kernel_for(kernel, bound_args, device)
    handle = stream.handle
    raw = 0 if handle is None else getattr(handle, "handle", handle)
    # several GPUs in this process: the launch runs in the current context, so make it this device's
    previous = device.backend.enter() if SWITCHING else None
    try:
        loaded.launch(kernel.params, bound_args, grid, raw)
    finally:
        if previous is not None:
            device.backend.leave(previous)
    if handle is not None and hasattr(handle, "last_kernel"):
        handle.last_kernel = kernel.name
    return loaded


# -- the planned launch: generated, straight-line packing into fixed parameter storage -------------------------

#: `struct` codes of scalar parameters the generated launcher packs itself (f16/bf16 need numpy rounding).
_SCALAR_CODES = {
    "i8": "b",
    "i16": "h",
    "i32": "i",
    "i64": "q",
    "u8": "B",
    "u16": "H",
    "u32": "I",
    "u64": "Q",
    "f32": "f",
    "f64": "d",
    "bool": "?",
}
_SIZES = {"b": 1, "B": 1, "?": 1, "h": 2, "H": 2, "i": 4, "I": 4, "f": 4, "q": 8, "Q": 8, "d": 8}


#: `fast_launch(stream_handle, values) -> bool`: the generated launch of one (launch plan, specialization).
#: Its globals hold the fixed parameter storage (one 8-byte slot per ABI value, where the kernel's ABI puts
#: it), the `void*[]` array of slot addresses, and `SOURCE`, its own code (for debugging and tests).
FastLaunch = Callable[[Any, Sequence[Any]], bool]


def build_fast_launch(
    kernel: Any,
    loaded: TileGpuKernel,
    values: Sequence[Any],
    grid: Sequence[int],
    overlaps: Sequence[tuple[int, int]],
) -> FastLaunch | None:
    """The generated launch for the launch plan whose checked `values` just ran `loaded` on `grid`.

    Dims and grid extents are constants of the plan (its key fixes every shape), so they are literals of the
    generated code.  Each launch tests that every pointer has the alignment `loaded` was specialized for and
    that no output overlaps another argument (`overlaps`), packs pointers, constants and scalars into the
    fixed storage with one `struct.pack_into` and calls `cuLaunchKernel`.  Anything else (a misaligned
    pointer, an overlap, a scalar `struct` cannot pack, a thread other than the one that built it, a process
    that uses several GPUs) returns False before anything is launched, and the caller takes the checked path,
    which launches or raises its error (and switches to the launch's device where several GPUs are in use).
    None when the kernel has f16/bf16 scalars or an empty grid.  A kernel's tensor maps (the copy engine's
    operands, codegen.tile.tma) live in storage of their own, encoded again only when the tensor's address
    changes (its shape is the plan's).
    """
    from safekernels.codegen.tile.specialize import specialize
    from safekernels.runtime.cuda_backend import SWITCHING, _driver, check

    compiled = loaded.compiled
    blocks = loaded.blocks(grid)
    params = kernel.params
    if blocks == 0:
        return None
    infos, _rank = specialize(kernel, values)
    codes: list[str] = []
    fields: list[str] = []
    used: set[int] = set()
    # per ABI entry: ("slot", n) -> the n-th 8-byte slot of the packed storage; ("tmap", k) -> tensor map k
    where: list[tuple[str, int]] = []
    tmaps: list[tuple[int, str]] = []  # (parameter, ABI kind) per tensor map
    for kind, index, axis in compiled.abi:
        if kind.startswith("tmap:"):  # by value, 128 bytes: its own storage, re-encoded when the tensor moves
            where.append(("tmap", len(tmaps)))
            tmaps.append((index, kind))
            used.add(index)
            continue
        where.append(("slot", len(codes)))
        if kind == "ptr":
            codes.append("Q")
            fields.append(f"p{index}")
            used.add(index)
        elif kind == "dim":
            codes.append("q")
            fields.append(str(int(values[index].shape[axis])))
        elif kind == "scalar":
            code = _SCALAR_CODES.get(params[index].dtype.name)
            if code is None:
                return None
            codes.append(code)
            fields.append(f"a{index}")
        else:
            codes.append("q")
            fields.append(str(int(grid[axis])))
    slot_format = "<" + "".join(c + "x" * (8 - _SIZES[c]) for c in codes)
    storage = (ctypes.c_uint64 * max(1, len(codes)))()
    base = ctypes.addressof(storage)
    map_storage = (ctypes.c_uint8 * (128 * len(tmaps) + 64))()
    map_base = (ctypes.addressof(map_storage) + 63) & ~63  # CUtensorMap: 64-byte aligned
    addresses = [base + 8 * n if what == "slot" else map_base + 128 * n for what, n in where]
    param_array = (ctypes.c_void_p * max(1, len(addresses)))(*addresses)
    driver = _driver()
    namespace: dict[str, Any] = {
        "PACK": struct.Struct(slot_format).pack_into,
        "StructError": struct.error,
        "STORAGE": storage,
        "PARAMS": ctypes.addressof(param_array),
        "FN": loaded.function,
        "LAUNCH": driver.cuLaunchKernel,
        "SUCCESS": driver.CUresult.CUDA_SUCCESS,
        "FAIL": lambda r: check(r, "cuLaunchKernel", loaded.name),
        "NAME": kernel.name,
        "PARAM_ARRAY": param_array,  # kept alive with the function: the driver reads it at every launch
        "MAP_STORAGE": map_storage,
        "MAP_LAST": [0] * len(tmaps),  # the tensor address each map storage was last encoded for
        "SET_MAP": lambda k, value, kind: ctypes.memmove(map_base + 128 * k, tensor_map(value, kind), 128),
        "GET_IDENT": threading.get_ident,
        "SWITCHING": SWITCHING,
        "OWNER": threading.get_ident(),
    }
    n = len(params)
    tensors = sorted(used | {i for pair in overlaps for i in pair})
    # one parameter storage per plan: another thread's launch takes the checked path (cells of its own), so
    # two threads never pack into the storage between one's pack and its `cuLaunchKernel`
    # and once the process uses several GPUs, the checked path, which makes the launch's device current
    body = [
        "if SWITCHING or GET_IDENT() != OWNER:",
        "    return False",
        f"{''.join(f'a{i}, ' for i in range(n))}= values",
    ]
    for i in tensors:
        body.append(f"p{i} = a{i}._buffer.ptr")
    # a handle's byte size is a constant of the plan (its key fixes shape and dtype, and a handle's buffer
    # holds exactly its elements), so the overlap tests compare addresses with literal sizes
    nbytes = {i: int(values[i]._buffer.nbytes) for i in tensors}
    aligned: list[str] = []
    for i in tensors:
        info = infos[i]
        per16 = max(1, 16 // max(1, info.dtype.itemsize))
        shape = values[i].shape
        last_ok = not shape or shape[-1] % per16 == 0
        if info.aligned:
            aligned.append(f"p{i}")
        elif last_ok:  # specialized for a misaligned base address: an aligned one is another specialization
            body += [f"if not p{i} & 15:", "    return False"]
    if aligned:
        body += [f"if ({' | '.join(aligned)}) & 15:", "    return False"]
    for i, j in overlaps:
        if nbytes[i] and nbytes[j]:  # empty memory overlaps nothing
            body += [f"if p{i} < p{j} + {nbytes[j]} and p{j} < p{i} + {nbytes[i]}:", "    return False"]
    for k, (i, kind) in enumerate(tmaps):  # shapes are the plan's: a map changes only with the address
        body += [f"if p{i} != MAP_LAST[{k}]:", f"    SET_MAP({k}, a{i}, {kind!r})", f"    MAP_LAST[{k}] = p{i}"]
    launch = f"FN, {blocks}, 1, 1, {compiled.threads}, 1, 1, {compiled.smem_bytes}"
    body += [
        "try:",
        f"    PACK(STORAGE, 0, {', '.join(fields)})",
        "except (OverflowError, TypeError, StructError):",
        "    return False",
    ]
    # `fast_launch` launches on any stream; `fast_launch_sync` (a non-default stream only: None declines)
    # also waits for it, as `CudaBackend.synchronize` does, for the eager `TileLaunchOp.sync_on`
    tail = [
        "if h is None:",
        f"    r = LAUNCH({launch}, 0, PARAMS, 0)",
        "else:",
        f"    r = LAUNCH({launch}, h.handle, PARAMS, 0)",
        "    h.last_kernel = NAME",
        "if r[0] is not SUCCESS:",
        "    FAIL(r)",
        "return True",
    ]
    tail_sync = [
        f"r = LAUNCH({launch}, h.handle, PARAMS, 0)",
        "h.last_kernel = NAME",
        "if r[0] is not SUCCESS:",
        "    FAIL(r)",
        "r = SYNC(h.handle)",
        "if r[0] is not SUCCESS:",
        "    FAIL_SYNC(r)",
        "return True",
    ]
    namespace["SYNC"] = driver.cuStreamSynchronize
    namespace["FAIL_SYNC"] = lambda r: check(r, "stream synchronize", kernel.name)
    source = "def fast_launch(h, values):\n" + "".join(f"    {line}\n" for line in body + tail)
    source += "\n\ndef fast_launch_sync(h, values):\n    if h is None:\n        return False\n"
    source += "".join(f"    {line}\n" for line in body + tail_sync)
    namespace["SOURCE"] = source
    exec(compile(source, f"<safekernels tile launch of {kernel.name}>", "exec"), namespace)
    run: FastLaunch = namespace["fast_launch"]
    return run


def synced_launch(fast: FastLaunch) -> FastLaunch:
    """The generated launch of `fast`'s plan that also synchronizes its (non-default) stream: the whole
    eager `sync_on` of a planned launch.  False, with nothing launched, where `fast` would decline, and for
    the default stream (the caller then launches and synchronizes the general way)."""
    run: FastLaunch = fast.__globals__["fast_launch_sync"]
    return run
