"""Tile code generator: `@tile.kernel` bodies -> typed tile IR -> LLVM IR (one CTA per tile block)
-> PTX -> cubin.

Modules, data flowing down: `frontend` (AST -> `ir`, SK shape diagnostics from `diagnostics`), `lower`
(thread mapping with `layout`, per-element math in `scalar_ops`, `reduce`, `loops`, `mma` for tensor cores),
`pipeline` (specialization, cache, PTX and cubin through the SIMT pipeline's modules), `specialize` (host
arguments -> `ParamInfo`).  Imports nothing heavy until used.
"""

from __future__ import annotations
