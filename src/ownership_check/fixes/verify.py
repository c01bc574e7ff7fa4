"""The gate every fix passes: re-check the fixed text with the same checker and project index.

A fix is kept only when its diagnostic is gone and nothing is reported that was not reported before (compared
by code and message, since an inserted line moves every span below it).  `apply_fixes` is `--fix`: apply one
verified fix at a time, re-check, repeat until nothing more applies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ownership_check.diagnostics import Diagnostic
from ownership_check.fixes.catalog import Fix, candidate_fixes, suppression_fix

#: The diagnostics of the file being fixed, were its text this one (same project, same config); None when the
#: check itself failed (then no fix is trusted).
Recheck = Callable[[str], list[Diagnostic] | None]

#: `--fix` stops after this many rounds (each applies one fix); a file never needs nearly as many.
MAX_ROUNDS = 200


def resolves(before: Sequence[Diagnostic], after: Sequence[Diagnostic] | None, target: Diagnostic) -> bool:
    """Whether `after` lacks `target` and adds nothing new to `before` (never when the re-check failed)."""
    if after is None:
        return False
    budget = Counter((d.code, d.message) for d in before)
    budget[(target.code, target.message)] -= 1
    got = Counter((d.code, d.message) for d in after)
    return all(count <= budget[key] for key, count in got.items())


def verified_fixes(
    source: str,
    diag: Diagnostic,
    before: Sequence[Diagnostic],
    recheck: Recheck,
    *,
    suppress: bool = True,
) -> list[Fix]:
    """The fixes for `diag` that survive the re-check, mechanical ones first, the suppression last."""
    candidates = candidate_fixes(source, diag)
    if suppress:
        sup = suppression_fix(source, diag)
        if sup is not None:
            candidates.append(sup)
    return [fix for fix in candidates if resolves(before, recheck(fix.new_source), diag)]


def apply_fixes(
    source: str,
    diagnostics: Sequence[Diagnostic],
    recheck: Recheck,
    *,
    unsafe: bool = False,
    wanted: Callable[[Diagnostic], bool] = lambda d: True,
) -> tuple[str, list[Fix]]:
    """`--fix` for one file: the fixed text and the fixes applied, in order (suppressions never).  Only
    diagnostics `wanted` (the run's `--select`/`--ignore`) are fixed; the re-check still sees every code."""
    applied: list[Fix] = []
    current = list(diagnostics)
    skipped: set[tuple[str, str, int, int]] = set()
    for _ in range(MAX_ROUNDS):
        progress = False
        for diag in current:
            key = (diag.code, diag.message, diag.span.line, diag.span.column)
            if key in skipped or not wanted(diag):
                continue
            fixes = verified_fixes(source, diag, current, recheck, suppress=False)
            fixes = [f for f in fixes if unsafe or not f.unsafe]
            if not fixes:
                skipped.add(key)
                continue
            after = recheck(fixes[0].new_source)
            if after is None:  # verified a moment ago; a failure now means nothing more can be trusted
                return source, applied
            source = fixes[0].new_source
            applied.append(fixes[0])
            current = after
            skipped.clear()
            progress = True
            break
        if not progress:
            break
    return source, applied
