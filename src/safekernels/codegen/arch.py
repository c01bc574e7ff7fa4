"""The GPU architectures codegen targets, and the one message for anything else.

`sm_80` .. `sm_90` (Ampere, Ada, Hopper) plus `sm_90a` (Hopper with warpgroup MMA, used by tile GEMMs).  An
unsupported value (`sm_70`, `90`, `sm_100`) is refused before llvmlite or nvJitLink see it, with the list.
"""

from __future__ import annotations

from typing import Final

SUPPORTED_ARCHS: Final[tuple[str, ...]] = ("sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a")


class UnsupportedArchError(ValueError):
    """An `--arch` / `arch=` value outside `SUPPORTED_ARCHS`."""


def check_arch(arch: str) -> str:
    """`arch` itself, or `UnsupportedArchError` listing the supported architectures."""
    if arch in SUPPORTED_ARCHS:
        return arch
    hint = ""
    if isinstance(arch, str) and arch.isdigit() and f"sm_{arch}" in SUPPORTED_ARCHS:
        hint = f" (did you mean `sm_{arch}`?)"
    raise UnsupportedArchError(f"unsupported GPU architecture {arch!r}{hint}; supported: {', '.join(SUPPORTED_ARCHS)}")
