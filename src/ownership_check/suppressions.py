"""`# ownership: ignore[E0502]` comments: drop matching diagnostics on that line, warn (W0001) about unused
ones.

Comments are found with `tokenize`, so text inside strings never counts.  `# ownership: ignore` without a code
list suppresses every code on its line.  Other comment text may follow the directive.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ownership_check.core.messages import unused_suppression
from ownership_check.diagnostics import Diagnostic, Span

DIRECTIVE = re.compile(r"#\s*ownership:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
WILDCARD = "*"


@dataclass
class Suppression:
    line: int
    span: Span
    codes: tuple[str, ...]  # (WILDCARD,) for a bare directive


def find_suppressions(source: str) -> list[Suppression]:
    if "ownership" not in source:
        return []
    found: list[Suppression] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        match = DIRECTIVE.search(tok.string)
        if match is None:
            continue
        raw = match.group("codes")
        codes = (
            tuple(c.strip().upper() for c in raw.split(",") if c.strip()) if raw is not None else (WILDCARD,)
        )
        line, col = tok.start
        start = col + match.start() + 1
        found.append(Suppression(line, Span(line, start, line, col + match.end() + 1), codes or (WILDCARD,)))
    return found


def apply_suppressions(
    diagnostics: Sequence[Diagnostic], source: str, path: str, enabled: Callable[[str], bool] | None = None
) -> list[Diagnostic]:
    """Diagnostics left after suppressions, plus a W0001 warning for each suppressed code that matched
    nothing."""
    suppressions = find_suppressions(source)
    if not suppressions:
        return list(diagnostics)
    by_line: dict[int, list[Suppression]] = {}
    for sup in suppressions:
        by_line.setdefault(sup.line, []).append(sup)
    used: set[tuple[int, str]] = set()
    kept: list[Diagnostic] = []
    for diag in diagnostics:
        hit = False
        for sup in by_line.get(diag.span.line, []):
            if diag.code in sup.codes:
                used.add((sup.line, diag.code))
                hit = True
            elif WILDCARD in sup.codes:
                used.add((sup.line, WILDCARD))
                hit = True
        if not hit:
            kept.append(diag)
    for sup in suppressions:
        unused = [c for c in sup.codes if (sup.line, c) not in used]
        if enabled is not None:
            unused = [c for c in unused if c == WILDCARD or enabled(c)]
        if unused:
            kept.append(unused_suppression(path, [c for c in unused if c != WILDCARD], sup.span))
    return kept
