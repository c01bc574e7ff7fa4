"""Where the project's documentation lives on the web: the absolute links that diagnostics and SARIF print.

A diagnostic's "see ..." footer, SARIF's `helpUri` / `informationUri` and `safekernels explain` all point into the
documentation.  A relative path such as `docs/checker.md#e0502` only means something inside a checkout of this
repository (and is not a valid URI under SARIF's schema), so every printed link is absolute, built from the
`Documentation` entry of `[project.urls]` in `pyproject.toml`.  It is read from the installed distribution's
metadata, so a fork that republishes under its own URLs gets its own links; `DOCUMENTATION` is the fallback for
code run from a source tree that was never installed, and a test keeps it equal to `pyproject.toml`.

Nothing here runs on import: `importlib.metadata` costs ~20 ms to import, so it is loaded only when a link is
actually printed (a run with diagnostics, a SARIF document).
"""

from __future__ import annotations

import functools
from typing import Final

#: `[project.urls] Documentation` of pyproject.toml (kept equal by tests/packaging/test_project_links.py).
DOCUMENTATION: Final[str] = "https://github.com/safekernels/safekernels/blob/main/docs"
#: The page holding the error index (one `## CODE` section per checker code).
ERROR_INDEX_PAGE: Final[str] = "checker.md"


@functools.cache
def documentation_url() -> str:
    """The base URL of the documentation folder, without a trailing slash."""
    try:
        from importlib.metadata import PackageNotFoundError, metadata

        try:
            entries = metadata("safekernels").get_all("Project-URL") or []
        except PackageNotFoundError:
            entries = []
    except ImportError:  # pragma: no cover - importlib.metadata is stdlib since 3.8
        entries = []
    for entry in entries:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == "documentation" and url.strip().startswith(("https://", "http://")):
            return url.strip().rstrip("/")
    return DOCUMENTATION


def docs_url(page: str, anchor: str | None = None) -> str:
    """The absolute URL of `page` (a file name in docs/, e.g. `tile.md`), optionally at `#anchor`."""
    url = f"{documentation_url()}/{page.removeprefix('docs/')}"
    return f"{url}#{anchor}" if anchor else url


def error_index_url(code: str | None = None) -> str:
    """The error index, or the section of `code` in it (GitHub's anchor of `## E0382` is `#e0382`)."""
    return docs_url(ERROR_INDEX_PAGE, code.lower() if code else None)
