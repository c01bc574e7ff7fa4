"""Re-exports the kernels with a star import."""

from .kernels import *  # noqa: F403
