"""PTX -> cubin with nvJitLink (`cuda.bindings.nvjitlink`); needs no GPU.

Errors come back with nvJitLink's own log, which names the PTX line that failed.
"""

from __future__ import annotations

import functools

from safekernels.codegen.toolchain import distribution_version

#: wheels that ship libnvJitLink (cuda.bindings finds a wheel's library before a system toolkit's)
NVJITLINK_DISTRIBUTIONS = ("nvidia-nvjitlink", "nvidia-nvjitlink-cu13", "nvidia-nvjitlink-cu12")


class AssembleError(RuntimeError):
    """nvJitLink refused the PTX (the message holds its error log)."""


def assemble_cubin(ptx: str, arch: str, name: str = "kernel") -> bytes:
    from cuda.bindings import nvjitlink

    data = ptx.encode()
    options = [f"-arch={arch}", "-O3"]
    if "\t.loc\t" in ptx:
        options.append("-lineinfo")  # keep the Python line table (codegen.lowering.line_info) in the cubin
    handle = nvjitlink.create(len(options), options)
    try:
        try:
            nvjitlink.add_data(handle, nvjitlink.InputType.PTX, data, len(data), f"{name}.ptx")
            nvjitlink.complete(handle)
        except Exception as exc:
            log = _error_log(handle)
            raise AssembleError(f"nvJitLink failed for {name} ({arch}): {exc}\n{log}") from None
        size = nvjitlink.get_linked_cubin_size(handle)
        buf = bytearray(size)
        nvjitlink.get_linked_cubin(handle, buf)
        return bytes(buf)
    finally:
        nvjitlink.destroy(handle)


def _error_log(handle: int) -> str:
    from cuda.bindings import nvjitlink

    try:
        size = nvjitlink.get_error_log_size(handle)
        buf = bytearray(size)
        nvjitlink.get_error_log(handle, buf)
        return buf.decode(errors="replace").rstrip("\x00")
    except Exception:
        return ""


@functools.cache
def nvjitlink_version() -> str:
    """Which nvJitLink assembles cubins, for cache keys, cheaply: the installed nvJitLink wheel's version and
    cuda-bindings' from their distribution metadata (`codegen.toolchain`; no library loaded).  Only without such
    a wheel (a system toolkit's library) is libnvJitLink loaded to ask its version."""
    wheels = [f"{name}={version}" for name in NVJITLINK_DISTRIBUTIONS if (version := distribution_version(name))]
    if wheels:
        return ";".join([*wheels, f"cuda-bindings={distribution_version('cuda-bindings')}"])
    return _loaded_nvjitlink_version()


def _loaded_nvjitlink_version() -> str:
    try:
        from cuda.bindings import nvjitlink

        major, minor = nvjitlink.version()
        return f"{major}.{minor}"
    except Exception:
        return "unavailable"
