"""Kernel front end: Python source -> typed kernel IR (`build_module`), with SK diagnostics for the rest."""

from safekernels.codegen.frontend.builder import build_module
from safekernels.codegen.frontend.spec import KernelSpec, ParamSpec, spec_from_kernel

__all__ = ["KernelSpec", "ParamSpec", "build_module", "spec_from_kernel"]
