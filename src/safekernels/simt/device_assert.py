"""Which `assert` failed on the GPU: read after the trap, from host-mapped memory.

A failed device assert calls CUDA's `__assertfail` and traps; from then on the CUDA context answers every call
with the sticky error (`CUDA_ERROR_ASSERT`), so nothing can be read back from device memory.  Host memory the
kernel wrote through a mapping can: when a kernel with asserts is loaded, its module's `__sk_assert_slot`
global is pointed at 64 bytes of pinned, device-mapped host memory (`cuMemHostAlloc(DEVICEMAP)`).  The first
failing thread writes `assert index + 1` and its block and thread coordinates there (system-scope CAS and
fence, see `codegen.lowering.device_io`).  When the driver then reports the fault, `cuda_backend.check` asks
`failed_assertion(kernel)`, which turns the record into a `KernelAssertionError` naming the kernel, the
assert's file:line, its message and the thread.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

from safekernels.errors import KernelAssertionError
from safekernels.simt.device_print import assertion_message

_SLOT_BYTES = 64
SLOT_SYMBOL = "__sk_assert_slot"


@dataclass
class ArmedKernel:
    kernel: str
    host_ptr: int
    asserts: list[tuple[str, int, int, str]]


_ARMED: list[ArmedKernel] = []


def arm(kernel: str, module: Any, asserts: list[Any]) -> None:
    """Point `module`'s assert slot at fresh host-mapped memory and remember `kernel`'s assert table."""
    from safekernels.runtime.cuda_backend import _driver, check

    driver = _driver()
    flags = driver.CU_MEMHOSTALLOC_DEVICEMAP | driver.CU_MEMHOSTALLOC_PORTABLE
    host = int(check(driver.cuMemHostAlloc(_SLOT_BYTES, flags), "cuMemHostAlloc", kernel))
    ctypes.memset(host, 0, _SLOT_BYTES)
    device_ptr = int(check(driver.cuMemHostGetDevicePointer(host, 0), "cuMemHostGetDevicePointer", kernel))
    global_ptr, size = check(driver.cuModuleGetGlobal(module, SLOT_SYMBOL.encode()), "cuModuleGetGlobal", kernel)
    if int(size) != 8:
        return
    value = ctypes.c_uint64(device_ptr)
    check(driver.cuMemcpyHtoD(global_ptr, ctypes.addressof(value), 8), "cuMemcpyHtoD", kernel)
    table = [(str(a[0]), int(a[1]), int(a[2]), str(a[3])) for a in asserts]
    _ARMED.append(ArmedKernel(kernel, host, table))


def failed_assertion(kernel: str | None) -> KernelAssertionError | None:
    """The `KernelAssertionError` for a recorded assert failure of `kernel`, else of any armed kernel (a
    record exists only where an assert really failed; a mangled entry name need not match the kernel's)."""
    ordered = sorted(_ARMED, key=lambda a: a.kernel != kernel)
    for armed in ordered:
        record = (ctypes.c_uint64 * 7).from_address(armed.host_ptr)
        index = int(record[0]) - 1
        if not 0 <= index < len(armed.asserts):
            continue
        path, line, _, message = armed.asserts[index]
        bx, by, bz, tx, ty, tz = (int(v) for v in record[1:7])
        where = f"thread ({tx}, {ty}, {tz}) of block ({bx}, {by}, {bz}), GPU"
        return KernelAssertionError(
            assertion_message(armed.kernel, path, line, message, where),
            kernel=armed.kernel,
            path=path,
            line=line,
            message=message,
        )
    return None
