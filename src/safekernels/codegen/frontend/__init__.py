"""Kernel front end: Python source -> typed kernel IR (`build_module`), with SK diagnostics for the rest.

The names below load on first use: a disk-cache hit needs `spec` (the kernel's parameters, for the key) and
`mangle`, not the builder and the IR it produces (`codegen.pipeline`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from safekernels.codegen.frontend.builder import build_module
    from safekernels.codegen.frontend.spec import KernelSpec, ParamSpec, spec_from_kernel

__all__ = ["KernelSpec", "ParamSpec", "build_module", "spec_from_kernel"]

_HOMES = {"build_module": "builder", "KernelSpec": "spec", "ParamSpec": "spec", "spec_from_kernel": "spec"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
