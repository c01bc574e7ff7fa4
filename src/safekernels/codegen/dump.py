"""`SAFEKERNELS_DUMP_DIR`: write every compiler stage's text for each compiled kernel, for debugging.

With the variable set, each compilation (SIMT and tile, and cache hits are bypassed so every stage runs)
writes `<kernel>.<arch>.<stage>` into the folder: `kir.txt` (the typed kernel IR or tile IR), `ll` (LLVM IR as
lowered), `opt.ll` (after O3 and libdevice), `ptx` and `cubin`.  Writing is best effort: an unwritable folder
logs a warning on `safekernels.codegen` and compiles anyway.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from safekernels.codegen.frontend.mangle import entry_symbol

DUMP_ENV = "SAFEKERNELS_DUMP_DIR"
log = logging.getLogger("safekernels.codegen")


def dumping() -> bool:
    return bool(os.environ.get(DUMP_ENV))


def dump_stage(kernel: str, arch: str, stage: str, text: Callable[[], str | bytes]) -> None:
    """Write stage `stage` of `kernel` when dumping is on (`text` is only called then)."""
    root = os.environ.get(DUMP_ENV)
    if not root:
        return
    path = Path(root) / f"{entry_symbol(kernel)}.{arch}.{stage}"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text()
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data)
    except OSError as exc:
        log.warning("cannot write %s: %s", path, exc)
