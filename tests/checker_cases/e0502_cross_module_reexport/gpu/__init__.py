"""The package re-exports its kernels."""

from .kernels import scale, vecadd

__all__ = ["scale", "vecadd"]
