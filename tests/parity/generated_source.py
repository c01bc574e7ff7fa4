"""Import a generated kernel's source as a real module file, once per content, so inspect/ast find its text.

The parity generators write each case to a file named by the hash of its text (atomically: parallel workers
may write the same case) and import it under a module name from that hash, reusing an import already made."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def load_generated(text: str, prefix: str) -> Any:
    """The `generated` kernel defined by `text` (files `<prefix>_<hash>.py` in one temp folder)."""
    folder = Path(tempfile.gettempdir()) / "safekernels_scalar_parity"
    folder.mkdir(exist_ok=True)
    path = folder / f"{prefix}_{hashlib.sha256(text.encode()).hexdigest()[:16]}.py"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.replace(path)
    name = f"sk_{prefix}_parity_{path.stem}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module.generated
