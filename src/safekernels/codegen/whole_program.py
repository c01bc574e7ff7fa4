"""Whole-program PTX -> machine code through the CUDA driver's JIT, for kernels whose PTX uses `setmaxnreg`.

nvJitLink assembles PTX as a relocatable unit (`ptxas -c`), and in that mode ptxas drops every `setmaxnreg`
("C7504 ... ignored to maintain compatibility across compilation units"): a warp-specialized kernel keeps its
entry register cap in every warpgroup.  A whole-program compile of the same PTX honours them.  Measured on the
H200 (driver 580.159, CUDA 13.0; bench/whole_program_bench.py's `route` part):

- `cuModuleLoadDataEx` on the PTX text compiles it whole-program: no C7504, the registers rebalanced.  This is
  the route (`load_module`).  The driver keeps the machine code in its own on-disk JIT cache
  (`~/.nv/ComputeCache`, keyed by the PTX, the options and the driver), so a warm start does not recompile;
- `cuLinkCreate` / `cuLinkAddData(PTX)` / `cuLinkComplete`, which would hand back a cubin to cache ourselves,
  compiles relocatably like nvJitLink (C7504 in its log): `link_cubin`, kept to re-check that on new drivers;
- libNVVM LTO (`-gen-lto`, then nvJitLink `-lto`) would be an offline whole-program route, but libNVVM reads
  LLVM 7 bitcode and typed-pointer IR, not what llvmlite's LLVM 22 writes.

Which kernels take it: `codegen.tile.pipeline` marks a compiled kernel `route="driver"` when its PTX contains
`setmaxnreg` and `ENABLED` is on (part of the compile cache key).  Its nvJitLink cubin is still built: the
assembly check that runs without a GPU, and what `safekernels build` writes.  The launcher (`tile.gpu_launch`)
loads such a kernel's PTX here instead of the cubin.  The driver is reached through ctypes on `libcuda.so.1`,
as the tensor-map encoder does, so that the JIT's log buffers can be passed.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from typing import Any

#: Hand `setmaxnreg` kernels to the driver's whole-program JIT (False: they load nvJitLink's cubin, whose
#: `setmaxnreg`s ptxas ignored).
ENABLED = True

_LOG_BYTES = 1 << 16
# CUjit_option / CUjitInputType / CUjit_target values (cuda.h)
_INFO_LOG, _INFO_LOG_SIZE, _ERROR_LOG, _ERROR_LOG_SIZE = 3, 4, 5, 6
_OPT_LEVEL, _TARGET, _LOG_VERBOSE, _LINE_INFO = 7, 9, 12, 13
_INPUT_PTX = 1
_TARGETS = {"sm_90a": 65626, "sm_90": 90}
_LIB: list[Any] = []


class DriverJitError(RuntimeError):
    """The driver refused the PTX (the message holds its error log)."""


def wants_whole_program(ptx: str) -> bool:
    """The PTX asks for register reallocation, which only a whole-program compile honours."""
    return "setmaxnreg." in ptx


@dataclass(frozen=True)
class JitResult:
    cubin: bytes
    info_log: str

    @property
    def setmaxnreg_ignored(self) -> bool:
        return "C7504" in self.info_log


def _libcuda() -> Any:
    if not _LIB:
        lib = ctypes.CDLL("libcuda.so.1")
        p, u, i = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
        pp, ip = ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int)
        signatures: dict[str, list[Any]] = {
            "cuLinkCreate_v2": [u, ip, pp, pp],
            "cuLinkAddData_v2": [p, i, p, ctypes.c_size_t, ctypes.c_char_p, u, ip, pp],
            "cuLinkComplete": [p, pp, ctypes.POINTER(ctypes.c_size_t)],
            "cuLinkDestroy": [p],
            "cuModuleLoadDataEx": [pp, p, u, ip, pp],
            "cuDriverGetVersion": [ip],
        }
        for fname, args in signatures.items():
            getattr(lib, fname).argtypes = args
            getattr(lib, fname).restype = i
        _LIB.append(lib)
    return _LIB[0]


def driver_version() -> int:
    out = ctypes.c_int(0)
    _check(_libcuda().cuDriverGetVersion(ctypes.byref(out)), "cuDriverGetVersion", "")
    return int(out.value)


def _check(result: int, what: str, log: str) -> None:
    if result != 0:
        raise DriverJitError(f"{what} failed (CUresult {result})" + (f":\n{log}" if log else ""))


class _Options:
    """A CUjit option array with info and error log buffers (the driver writes the logs' lengths back)."""

    def __init__(self, arch: str, line_info: bool) -> None:
        self.info = ctypes.create_string_buffer(_LOG_BYTES)
        self.error = ctypes.create_string_buffer(_LOG_BYTES)
        pairs: list[tuple[int, int | None]] = [
            (_INFO_LOG, ctypes.addressof(self.info)),
            (_INFO_LOG_SIZE, _LOG_BYTES),
            (_ERROR_LOG, ctypes.addressof(self.error)),
            (_ERROR_LOG_SIZE, _LOG_BYTES),
            (_LOG_VERBOSE, 1),
            (_OPT_LEVEL, 4),
        ]
        if arch in _TARGETS:
            pairs.append((_TARGET, _TARGETS[arch]))
        if line_info:
            pairs.append((_LINE_INFO, 1))
        self.count = len(pairs)
        self.keys = (ctypes.c_int * self.count)(*[k for k, _ in pairs])
        self.values = (ctypes.c_void_p * self.count)(*[v for _, v in pairs])

    def logs(self) -> tuple[str, str]:
        return (
            self.info.value.decode(errors="replace").strip(),
            self.error.value.decode(errors="replace").strip(),
        )


def link_cubin(ptx: str, arch: str, name: str = "kernel") -> JitResult:
    """Whole-program cubin of `ptx` from the driver's JIT linker (a CUDA context must be current)."""
    lib = _libcuda()
    opts = _Options(arch, "\t.loc\t" in ptx)
    state = ctypes.c_void_p()
    _check(lib.cuLinkCreate_v2(opts.count, opts.keys, opts.values, ctypes.byref(state)), "cuLinkCreate", "")
    try:
        data = ptx.encode() + b"\0"
        result = lib.cuLinkAddData_v2(
            state, _INPUT_PTX, data, len(data), f"{name}.ptx".encode(), 0, None, None
        )
        _check(result, f"cuLinkAddData({name})", "\n".join(opts.logs()))
        image = ctypes.c_void_p()
        size = ctypes.c_size_t()
        result = lib.cuLinkComplete(state, ctypes.byref(image), ctypes.byref(size))
        _check(result, f"cuLinkComplete({name})", "\n".join(opts.logs()))
        cubin = ctypes.string_at(image.value or 0, size.value)  # owned by the link state: copy before destroy
    finally:
        lib.cuLinkDestroy(state)
    return JitResult(cubin, opts.logs()[0])


def load_ptx(ptx: str, arch: str, name: str = "kernel") -> tuple[Any, str]:
    """`cuModuleLoadDataEx` of the PTX text: (CUmodule handle as an int, the JIT's info log)."""
    opts = _Options(arch, "\t.loc\t" in ptx)
    module = ctypes.c_void_p()
    data = ptx.encode() + b"\0"
    lib = _libcuda()
    result = lib.cuModuleLoadDataEx(ctypes.byref(module), data, opts.count, opts.keys, opts.values)
    _check(result, f"cuModuleLoadDataEx({name})", "\n".join(opts.logs()))
    return module.value, opts.logs()[0]


def load_module(ptx: str, arch: str, name: str = "kernel") -> tuple[Any, str]:
    """`ptx` compiled whole-program and loaded in the current context: (cuda.bindings `CUmodule`, JIT log)."""
    from cuda.bindings import driver

    handle, log = load_ptx(ptx, arch, name)
    return driver.CUmodule(handle), log


def registers_used(info_log: str) -> list[int]:
    """The register counts a verbose JIT log reports ("Used N registers")."""
    return [int(n) for n in re.findall(r"[Uu]sed (\d+) registers", info_log)]
