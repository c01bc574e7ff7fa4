"""Launching SIMT kernels on a CUDA device: compile once per (kernel, architecture), load once per (kernel,
device), then pack and launch.

    first launch on a device:  codegen.compile_simt_kernel (disk-cached; shared by the devices of one arch)
                               -> cuModuleLoadData in that device's context -> CUfunction
                               + a parameter plan turned into fixed ctypes cells and one `void*[]` array
    every launch:              write pointers / lengths / scalars into the cells -> one cuLaunchKernel

The cells are 8-byte slots of one fixed storage array, so `kernelParams` is a precomputed integer, and the
launch fast path (`simt.fast_launch`) can fill every slot with one `struct.pack_into` (`slot_format` is the
matching format).  The driver copies parameter values at launch time, so reusing the slots for the next launch
is safe.

Two compiled variants per kernel with `requires` relations: the safe paths (`kernel.launch`, its fast path,
`launch_async`, and `prepare`'s function limits) evaluate the relations before every launch, so they use the
variant compiled with `assume_requires=True` (the relations are `llvm.assume`d at kernel entry, which removes
bounds checks they imply); `launch_unchecked` skips them and gets the variant without assumptions, compiled
only when it is first used.  A kernel without relations has one variant.
"""

from __future__ import annotations

import ctypes
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safekernels.dtypes import dtype_of, f32_to_bf16
from safekernels.errors import DeviceError
from safekernels.runtime.cuda_backend import SWITCHING
from safekernels.runtime.device import Device, Stream
from safekernels.simt.validation import FunctionLimits

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
#: `struct` codes (standard sizes, with "<") of the same storage types, for `slot_format`.
STRUCT_CODES: dict[str, str] = {
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
    "f16": "H",
    "bf16": "H",
}
_DYNAMIC_SMEM_DEFAULT = 48 * 1024


def _buffer_setter(ptr: Any, length: Any) -> Callable[[Any], None]:
    def set_buffer(buf: Any) -> None:
        ptr.value = buf.ptr
        length.value = buf.length

    return set_buffer


def _scalar_setter(cell: Any, dtype: str) -> Callable[[Any], None]:
    if dtype == "f16":

        def set_f16(v: Any) -> None:
            cell.value = int(np.float16(v).view(np.uint16))

        return set_f16
    if dtype == "bf16":

        def set_bf16(v: Any) -> None:
            cell.value = int(f32_to_bf16(np.float32(v)))

        return set_bf16
    if dtype == "bool":

        def set_bool(v: Any) -> None:
            cell.value = 1 if v else 0

        return set_bool
    dt = dtype_of(dtype)
    if dt.kind in ("i", "u"):
        mask = (1 << dt.bits) - 1

        def set_int(v: Any) -> None:
            cell.value = int(v) & mask if dt.kind == "u" else int(v)

        return set_int

    def set_float(v: Any) -> None:
        cell.value = float(v)

    return set_float


class GpuLauncher:
    """One kernel loaded on one device, with its parameter cells."""

    coarse_factor = 0  # logical threads per thread of the coarsened entry, 0 = none (set by `_load`)

    def __init__(self, kernel: Any, device: Device, *, assume_requires: bool = True) -> None:
        from safekernels.runtime.cuda_backend import CudaBackend

        backend = device.backend
        assert isinstance(backend, CudaBackend)
        self.backend = backend
        self.name: str = kernel.name
        self.arch = _arch_for(device)
        previous = backend.enter_always()  # the module, its globals and attributes belong to this device
        try:
            self._load(kernel, backend, assume_requires)
        finally:
            backend.leave(previous)

    def _load(self, kernel: Any, backend: Any, assume_requires: bool) -> None:
        prebuilt = getattr(kernel, "prebuilt", None)  # sk.load_prebuilt: the cubin from the manifest
        if prebuilt is not None:
            self.compiled = _prebuilt_for(kernel, prebuilt, self.arch, assume_requires)
        else:
            # one build per architecture: a second GPU of the same arch loads the cubin the first one built
            builds = _BUILDS.setdefault(kernel, {})
            compiled = builds.get((self.arch, assume_requires))
            if compiled is None:
                from safekernels import codegen

                compiled = codegen.compile_simt_kernel(kernel, arch=self.arch, assume_requires=assume_requires)
                builds[(self.arch, assume_requires)] = compiled
            self.compiled = compiled
        self.module = backend.load_module(self.compiled.cubin)
        self.function = backend.get_function(self.module, self.compiled.entry_name)
        asserts = self.compiled.meta.get("asserts")
        if asserts:  # a failed assert is read back from host-mapped memory (simt.device_assert)
            from safekernels.simt.device_assert import arm

            arm(self.name, self.module, list(asserts))
        self.max_threads = backend.function_attribute(self.function, "MAX_THREADS_PER_BLOCK")
        # an elementwise kernel's coarsened entry (codegen.lowering.coarsen): `factor` logical threads each
        coarse = self.compiled.meta.get("coarse")
        if coarse:
            self.coarse_function = backend.get_function(self.module, str(coarse[0]))
            self.coarse_factor = int(coarse[1])
            self.coarse_max_threads = backend.function_attribute(self.coarse_function, "MAX_THREADS_PER_BLOCK")
        self.static_shared = backend.function_attribute(self.function, "SHARED_SIZE_BYTES")
        self._dynamic_optin = _DYNAMIC_SMEM_DEFAULT
        self._init_params(self.compiled.param_plan.entries)
        from safekernels.runtime.cuda_backend import _driver

        driver = _driver()
        self._cu_launch: Callable[..., Any] = driver.cuLaunchKernel
        self._success: Any = driver.CUresult.CUDA_SUCCESS

    def _init_params(self, entries: Sequence[Any]) -> None:
        """Fixed parameter storage for the plan `entries`: one 8-byte slot per ABI value (a buffer's pointer
        and length, or one scalar), ctypes cells viewing the slots, one setter per kernel argument writing
        them, and the `void*[]` array of the slot addresses."""
        self.plan_entries: tuple[Any, ...] = tuple(entries)
        codes: list[str] = []
        for entry in self.plan_entries:
            codes += [STRUCT_CODES[entry.dtype]] if entry.kind == "scalar" else ["Q", "q"]
        self.storage = (ctypes.c_uint64 * max(1, len(codes)))()
        base = ctypes.addressof(self.storage)
        cells: list[Any] = []
        self.setters: list[Callable[[Any], None]] = []
        for entry in self.plan_entries:
            offset = 8 * len(cells)
            if entry.kind == "scalar":
                cell = _CTYPES[entry.dtype].from_buffer(self.storage, offset)
                cells.append(cell)
                self.setters.append(_scalar_setter(cell, entry.dtype))
            else:
                ptr = ctypes.c_uint64.from_buffer(self.storage, offset)
                length = ctypes.c_int64.from_buffer(self.storage, offset + 8)
                cells += [ptr, length]
                self.setters.append(_buffer_setter(ptr, length))
        self.cells = cells
        # little-endian, every value at the start of its own 8-byte slot (x = padding)
        self.slot_format = "<" + "".join(
            code + "x" * (8 - ctypes.sizeof(cell)) for code, cell in zip(codes, cells, strict=True)
        )
        self.param_array = (ctypes.c_void_p * max(1, len(cells)))(*[base + 8 * i for i in range(len(cells))])
        self.param_address = ctypes.addressof(self.param_array)

    def entry_for(
        self, grid: tuple[int, int, int], block: tuple[int, int, int], dynamic_shared: int = 0
    ) -> tuple[Any, tuple[int, int, int]]:
        """The function and hardware grid that run `grid` x `block` logical threads: the coarsened entry with
        `grid[0] / factor` blocks when the launch is one-dimensional and its grid a multiple of the factor (so
        the logical threads are exactly the launch's), else the kernel as written (also when the launch asks
        for more dynamic shared memory than the default, which only the first entry is opted into)."""
        f = self.coarse_factor
        if (
            f
            and grid[0] % f == 0
            and dynamic_shared <= _DYNAMIC_SMEM_DEFAULT
            and grid[1] == grid[2] == 1
            and block[1] == block[2] == 1
            and block[0] <= self.coarse_max_threads
        ):
            return self.coarse_function, (grid[0] // f, 1, 1)
        return self.function, grid

    def fail(self, result: Any) -> None:
        """Raise the `DeviceError` for a failed `cuLaunchKernel` result."""
        from safekernels.runtime.cuda_backend import check

        check(result, "cuLaunchKernel", self.name)

    def ensure_dynamic_shared(self, nbytes: int) -> None:
        if nbytes > self._dynamic_optin:
            from safekernels.runtime.cuda_backend import _driver, check

            driver = _driver()
            attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            check(driver.cuFuncSetAttribute(self.function, attr, nbytes), "cuFuncSetAttribute", self.name)
            self._dynamic_optin = nbytes

    def launch(
        self,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        dynamic_shared: int,
        stream: Any,
        args: Sequence[Any],
    ) -> None:
        for setter, arg in zip(self.setters, args, strict=True):
            setter(arg)
        if dynamic_shared > _DYNAMIC_SMEM_DEFAULT:
            self.ensure_dynamic_shared(dynamic_shared)
        function = self.function
        if self.coarse_factor:
            function, grid = self.entry_for(grid, block, dynamic_shared)
        # several GPUs in this process: the launch runs in the current context, so make it this device's
        previous = self.backend.enter() if SWITCHING else None
        if stream is None:
            result = self._cu_launch(
                function,
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                dynamic_shared,
                0,
                self.param_address,
                0,
            )
            self.backend.default_last_kernel = self.name
        else:
            result = self._cu_launch(
                function,
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                dynamic_shared,
                stream.handle,
                self.param_address,
                0,
            )
            stream.last_kernel = self.name
        if previous is not None:
            self.backend.leave(previous)
        if result[0] is not self._success:
            self.fail(result)


def _prebuilt_for(kernel: Any, prebuilt: Any, arch: str, assume_requires: bool) -> Any:
    """The prebuilt cubin of `kernel` if it suits this device and launch path (else `DeviceError`)."""
    if prebuilt.arch != arch:
        raise DeviceError(
            f"{kernel.name}: prebuilt for {prebuilt.arch}, this device needs {arch}; rebuild with --arch {arch}"
        )
    if not assume_requires and _has_requires(kernel):
        raise DeviceError(
            f"{kernel.name}: the prebuilt cubin assumes the contract's `requires`; launch it with prepare + launch"
        )
    return prebuilt


# per kernel, per device ordinal: the variant for launches that checked `requires` (and for kernels without any)
_LAUNCHERS: weakref.WeakKeyDictionary[Any, dict[int, GpuLauncher]] = weakref.WeakKeyDictionary()
# the same for `launch_unchecked` of kernels with `requires`: compiled without assuming them
_UNCHECKED_LAUNCHERS: weakref.WeakKeyDictionary[Any, dict[int, GpuLauncher]] = weakref.WeakKeyDictionary()
# per kernel, per (arch, assume_requires): the compiled kernel every device of that architecture loads
_BUILDS: weakref.WeakKeyDictionary[Any, dict[tuple[str, bool], Any]] = weakref.WeakKeyDictionary()


def _arch_for(device: Device) -> str:
    major, minor = device.compute_capability
    cc = major * 10 + minor
    for candidate in (90, 89, 87, 86, 80):
        if cc >= candidate:
            return f"sm_{candidate}"
    raise DeviceError(f"{device!r} has compute capability {major}.{minor}; safekernels needs sm_80 or newer")


def _has_requires(kernel: Any) -> bool:
    contract = getattr(kernel, "contract", None)
    return bool(getattr(contract, "relations", ())) if contract is not None else False


def launcher_for(kernel: Any, device: Device, *, requires_checked: bool = True) -> GpuLauncher:
    """The loaded kernel for `device`; `requires_checked=False` (launch_unchecked) gives the variant that does
    not assume the contract's `requires` relations."""
    assume = requires_checked or not _has_requires(kernel)
    per_device = (_LAUNCHERS if assume else _UNCHECKED_LAUNCHERS).setdefault(kernel, {})
    key = device.ordinal or 0
    launcher = per_device.get(key)
    if launcher is None:
        launcher = per_device[key] = GpuLauncher(kernel, device, assume_requires=assume)
    return launcher


def launch_on_gpu(
    kernel: Any, prepared: Any, stream: Stream, args: Sequence[Any], *, requires_checked: bool = False
) -> None:
    """Run `kernel` with `prepared`'s geometry on `stream` (args: DeviceBuffers for slices, Python
    scalars).  Pass `requires_checked=True` only after the contract's `requires` held for `args`: the kernel
    then runs the variant that assumes them."""
    launcher = launcher_for(kernel, prepared.device, requires_checked=requires_checked)
    launcher.launch(prepared.grid, prepared.block, prepared.dynamic_shared, stream.handle, args)


def fast_path_for(kernel: Any, prepared: Any) -> Any:
    """The generated fast launch of `prepared` (a `simt.fast_launch.FastPath`), or None when not eligible."""
    from safekernels.simt.fast_launch import build_fast_path

    launcher = launcher_for(kernel, prepared.device)
    relations = kernel.contract.relations if kernel.contract is not None else ()
    return build_fast_path(kernel.name, kernel.params, relations, prepared, launcher)


def function_limits(kernel: Any, device: Device) -> FunctionLimits:
    """The compiled function's own limits on `device` (register-limited threads, static shared bytes)."""
    launcher = launcher_for(kernel, device)
    return FunctionLimits(launcher.max_threads, launcher.static_shared)
