"""Renderers: every output format reads the one diagnostics model (`ownership_check.diagnostics`).

    from ownership_check.render import render, FORMATS
    out = render(result.diagnostics, "text", sources=result.sources, files_checked=result.files_checked)

`render` orders diagnostics by (path, line, column, code) so every format is deterministic whatever order the
producers (several processes, a cache) delivered them in.  Non-empty output always ends with a newline; the
`concise` and `github` formats of a clean run are empty, `text` still prints its summary, `json`/`sarif`/`gitlab`
their (empty) document and `junit` one passing test case.  Colour applies to `text` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ownership_check.diagnostics import Diagnostic
from ownership_check.render.concise import render_concise
from ownership_check.render.github import render_github
from ownership_check.render.gitlab import render_gitlab
from ownership_check.render.json_format import render_json
from ownership_check.render.junit import render_junit
from ownership_check.render.sarif import render_sarif
from ownership_check.render.text import render_text

#: The `--format` choices, the default first.
FORMATS: Final[tuple[str, ...]] = ("text", "concise", "json", "sarif", "github", "gitlab", "junit")


def render(
    diagnostics: Sequence[Diagnostic],
    fmt: str,
    *,
    sources: Mapping[str, str],
    files_checked: int,
    color: bool = False,
) -> str:
    """Render `diagnostics` in format `fmt` (one of `FORMATS`; anything else is a `ValueError`)."""
    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if fmt == "text":
        return render_text(ordered, sources=sources, files_checked=files_checked, color=color)
    if fmt == "concise":
        return render_concise(ordered)
    if fmt == "json":
        return render_json(ordered, files_checked=files_checked)
    if fmt == "sarif":
        return render_sarif(ordered)
    if fmt == "github":
        return render_github(ordered)
    if fmt == "gitlab":
        return render_gitlab(ordered)
    if fmt == "junit":
        return render_junit(ordered, files_checked=files_checked)
    raise ValueError(f"unknown output format {fmt!r} (expected one of: {', '.join(FORMATS)})")


__all__ = ["FORMATS", "render"]
