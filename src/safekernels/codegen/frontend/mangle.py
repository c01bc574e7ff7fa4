"""Kernel names -> PTX symbol names.

Python identifiers may be any Unicode letters (`def vecadd_é`), PTX identifiers may not: LLVM aborts the whole
process ("Symbol name with unsupported characters").  A name that is already a plain ASCII identifier is kept
(so `cuModuleGetFunction(module, "vecadd")` and the PTX read as written); any other name becomes
`_sk_<ascii part>_<hex sha-1 prefix of the full name>`, which is stable, unique per name and valid everywhere.
"""

from __future__ import annotations

import hashlib
import re

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def entry_symbol(name: str) -> str:
    """The PTX-safe symbol for kernel or helper `name`."""
    if _PLAIN.match(name):
        return name
    ascii_part = re.sub(r"[^A-Za-z0-9_]", "_", name.encode("ascii", "replace").decode())
    digest = hashlib.sha1(name.encode()).hexdigest()[:10]
    return f"_sk_{ascii_part}_{digest}"
