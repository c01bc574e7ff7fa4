"""Finding and linking libdevice (NVIDIA's accurate math library, LLVM bitcode).

Search order: `$SAFEKERNELS_LIBDEVICE` (a file), the pip package `nvidia-nvvm`
(`nvidia/cu13/nvvm/libdevice/libdevice.10.bc`, also older `nvidia/cuda_nvcc/...` layouts), then a CUDA toolkit
(`$CUDA_HOME`, `$CUDA_PATH`, `/usr/local/cuda`).  The parsed bitcode is cached per process (parsing costs
~70 ms);
linking copies only what the kernel calls, then every libdevice definition is made internal so O3 inlines and
drops them.  Without libdevice, `math.*` is refused unless the approximate-math flag is set.
"""

from __future__ import annotations

import functools
import glob
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # llvmlite loads only to link: finding the file and its version (a cache key) need none
    from llvmlite import binding as llvm

ENV_PATH = "SAFEKERNELS_LIBDEVICE"


@functools.cache
def find_libdevice() -> Path | None:
    explicit = os.environ.get(ENV_PATH)
    if explicit:
        return Path(explicit) if Path(explicit).is_file() else None
    roots = [Path(p) for p in sys.path if p and Path(p).is_dir()]
    for root in roots:
        for pattern in (
            "nvidia/cu*/nvvm/libdevice/libdevice*.bc",
            "nvidia/cuda_nvcc/nvvm/libdevice/libdevice*.bc",
            "nvidia/nvvm/libdevice/libdevice*.bc",
        ):
            hits = sorted(glob.glob(str(root / pattern)))
            if hits:
                return Path(hits[-1])
    for env in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(env):
            hits = sorted(glob.glob(os.path.join(os.environ[env], "nvvm/libdevice/libdevice*.bc")))
            if hits:
                return Path(hits[-1])
    hits = sorted(glob.glob("/usr/local/cuda*/nvvm/libdevice/libdevice*.bc"))
    return Path(hits[-1]) if hits else None


@functools.cache
def _bitcode(path: Path) -> bytes:
    return path.read_bytes()


def link_libdevice(module: llvm.ModuleRef, path: Path) -> None:
    from llvmlite import binding as llvm

    """Link libdevice into `module` (in place) and internalize its definitions."""
    lib = llvm.parse_bitcode(_bitcode(path))
    lib.triple = module.triple
    lib.data_layout = module.data_layout
    module.link_in(lib)
    for fn in module.functions:
        if fn.name.startswith("__nv_") and not fn.is_declaration:
            fn.linkage = llvm.Linkage.internal


def libdevice_version(path: Path | None) -> str:
    if path is None:
        return "none"
    stat = path.stat()
    return f"{path.name}:{stat.st_size}"
