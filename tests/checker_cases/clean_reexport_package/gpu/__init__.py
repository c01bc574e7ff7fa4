"""The package re-exports its kernels."""

from gpu.kernels import scale, vecadd

__all__ = ["scale", "vecadd"]
