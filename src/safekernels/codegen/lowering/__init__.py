"""Typed kernel IR -> LLVM IR (llvmlite `ir` builder), NVPTX conventions included."""

from safekernels.codegen.lowering.module import LoweringOptions, lower_module

__all__ = ["LoweringOptions", "lower_module"]
