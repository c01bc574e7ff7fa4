"""`ownership-check server` / `safekernels lsp`: the checker as a Language Server (stdio), built on pygls.

pygls is an optional dependency (`pip install 'safekernels[lsp]'`); `main` says so in one line when it is
missing.  `workspace` (the incremental checker over unsaved buffers) does not need it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence

MISSING_PYGLS = (
    "{prog}: error: the language server needs pygls, which is not installed in {prefix}\n"
    "  install it with: pip install 'safekernels[lsp]'\n"
)


def main(argv: Sequence[str] = (), prog: str = "ownership-check server") -> int:
    """Serve LSP on stdin/stdout; exit status 2 when pygls is missing or an argument is not understood."""
    args = list(argv)
    if args in (["-h"], ["--help"]):
        print(f"usage: {prog} [--stdio]\n\nRun the ownership checker as a Language Server on stdin/stdout.")
        return 0
    if any(a != "--stdio" for a in args):
        print(f"{prog}: error: unexpected argument(s): {' '.join(a for a in args if a != '--stdio')}", file=sys.stderr)
        return 2
    try:
        found = importlib.util.find_spec("pygls") is not None and importlib.util.find_spec("lsprotocol") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        sys.stderr.write(MISSING_PYGLS.format(prog=prog, prefix=sys.prefix))
        return 2
    from ownership_check.server.lsp import serve

    serve()
    return 0
