"""Autofixes for checker diagnostics: one catalog, used by `ownership-check --fix/--diff` and the editor server.

    diagnostic + file text --catalog--> candidate fixes (libcst edits of the one top-level statement involved)
        --re-check (the same checker, the same project index)--> kept only when the diagnostic is gone and
                                                                  nothing new is reported

A fix that would leave its diagnostic or add another one is never offered: the re-check is the judge, not the
transform.  Fixes that need an unsafe acknowledgement (`with simt.unsafe():`) are marked `unsafe` and applied
by the CLI only with `--unsafe-fixes`; editors label them as unsafe.
"""

from ownership_check.fixes.catalog import Fix, candidate_fixes, suppression_fix
from ownership_check.fixes.verify import Recheck, apply_fixes, verified_fixes

__all__ = ["Fix", "Recheck", "apply_fixes", "candidate_fixes", "suppression_fix", "verified_fixes"]
