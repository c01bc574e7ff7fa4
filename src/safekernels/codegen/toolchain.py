"""Installed versions of the tools a cache key names, read without importing or loading the tools.

Every disk-cache key (`codegen.cache`) names the toolchain that built the entry, so a new llvmlite or nvJitLink
never reuses an old cubin.  Asking the tools themselves costs a warm start most of its time: `import llvmlite`
and loading libnvJitLink (through `cuda.pathfinder`) to call `nvJitLinkVersion`.  The installed
distributions' versions say the same thing for free: they are in the names of the `*.dist-info` folders on
`sys.path` (`nvidia_nvjitlink-13.5.37.dist-info`), which one directory listing per path entry reads, once per
process.  `importlib.metadata` reads the same folders but imports `email` and `zipfile` to do it, which is most
of what a warm cache hit would otherwise spend.

A folder without the version in its name (an old `.egg-info`) has it in its `PKG-INFO`, read when asked.
"""

from __future__ import annotations

import functools
import os
import re
import sys

_SEPARATORS = re.compile(r"[-_.]+")


def normalized(name: str) -> str:
    """A distribution name as the packaging standards compare them (`Cuda_Bindings` -> `cuda-bindings`)."""
    return _SEPARATORS.sub("-", name).lower()


@functools.cache
def _installed() -> dict[str, tuple[str, str]]:
    """Normalized name -> (version or "", metadata folder), the first found on `sys.path` winning as for imports."""
    found: dict[str, tuple[str, str]] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            stem, dot, suffix = folder.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            name, _, version = stem.partition("-")
            found.setdefault(normalized(name), (version, os.path.join(entry or ".", folder)))
    return found


def distribution_version(name: str) -> str | None:
    """The installed version of distribution `name`, or None when it is not installed."""
    hit = _installed().get(normalized(name))
    if hit is None:
        return None
    version, folder = hit
    return version or _version_in_metadata(folder)


def _version_in_metadata(folder: str) -> str | None:
    for file in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, file), encoding="utf-8", errors="replace") as text:
                for line in text:
                    if line.startswith("Version:"):
                        return line.partition(":")[2].strip()
                    if not line.strip():
                        break  # the headers end at the first blank line
        except OSError:
            continue
    return None
