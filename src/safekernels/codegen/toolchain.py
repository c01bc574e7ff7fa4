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


#: What decides the code the compiler emits, relative to the `safekernels` package: the compiler and the two
#: kernel languages' definitions (their op tables, types and typing rules).
_COMPILER_SOURCES = ("codegen", "tile", "simt", "dtypes.py")


@functools.cache
def compiler_fingerprint() -> str:
    """SHA-256 over the compiler's own sources, once per process (a few milliseconds).

    The package version alone does not change when safekernels is installed again from a newer checkout (every
    commit is 0.1.0 until a release), so a cache key naming only the version would hand a fixed compiler the
    cubins of the old one, bugs included.  The content, not the file times, decides: a cache carried between CI
    runs of the same commit still hits."""
    return sources_fingerprint(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sources_fingerprint(package: str) -> str:
    """`compiler_fingerprint` of the `safekernels` package folder `package`."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(_python_files(package, _COMPILER_SOURCES)):
        with open(path, "rb") as source:
            digest.update(os.path.relpath(path, package).encode() + b"\0" + source.read() + b"\0")
    return digest.hexdigest()[:32]


def _python_files(package: str, names: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    for name in names:
        top = os.path.join(package, name)
        if os.path.isfile(top):
            found.append(top)
            continue
        for folder, _, files in os.walk(top):
            found += [os.path.join(folder, file) for file in files if file.endswith(".py")]
    return found
