"""`safekernels.jax`: safekernels kernels as functions `jax.jit` code can call.

    import safekernels.jax as skj
    softmax_jax = skj.jax_kernel(softmax, outputs={"out": "x"})
    y = jax.jit(lambda x: softmax_jax(x) * 2)(x)

JAX arrays are immutable, so a kernel is always called in the functional form: its inputs are read, its
outputs are allocated by JAX (shapes from the `outputs=` rules, dtypes from the kernel's parameters) and
returned.  See `kernel_call` for how the call crosses into safekernels and docs/jax.md for a tour.

`import jax` happens on first use of `jax_kernel`, never when this package is imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from safekernels.jax.kernel_call import JaxKernel, jax_kernel

__all__ = ["JaxKernel", "jax_kernel"]


def __getattr__(name: str) -> Any:
    if name in ("JaxKernel", "jax_kernel"):
        from safekernels.jax import kernel_call

        return getattr(kernel_call, name)
    raise AttributeError(f"module 'safekernels.jax' has no attribute {name!r}")
