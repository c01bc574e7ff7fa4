"""`safekernels.torch`: safekernels kernels as PyTorch operators (`torch.library` custom ops).

    import safekernels.torch as skt
    softmax_op = skt.custom_op("mylib::softmax", softmax, outputs={"out": "x"})

The operator works eagerly, under `torch.compile(fullgraph=True)` (no graph break: torch sees an opaque op
with an accurate schema and a fake kernel) and in CUDA graphs captured by torch; `mutates_args` is derived from
the kernel's parameter kinds, never written by hand.  See `op` for the details and docs/torch.md for a tour.

This package is named after torch but never shadows it: inside it, `import torch` is an absolute import of
PyTorch, done on first use (the pure part, `safekernels.frameworks`, imports no torch and is tested without it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from safekernels.frameworks.signature import OpParam, OpSignature, op_signature

if TYPE_CHECKING:
    from safekernels.torch.op import SafeKernelOp, custom_op

__all__ = ["OpParam", "OpSignature", "SafeKernelOp", "custom_op", "op_signature"]


def __getattr__(name: str) -> Any:
    if name in ("SafeKernelOp", "custom_op"):
        from safekernels.torch import op

        return getattr(op, name)
    raise AttributeError(f"module 'safekernels.torch' has no attribute {name!r}")
