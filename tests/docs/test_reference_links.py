"""Docs say what is true (issue 25 item 9): no page or docstring cites a document users do not have, and every
link to a page's heading lands on a heading that exists.

Users read docs/ and the docstrings; the language and ownership reference they link to is docs/reference.md.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
SOURCES = [
    path
    for tree in ("src/safekernels", "src/ownership_check", "mypy_plugin")
    for path in sorted((REPO / tree).rglob("*.py"))
]
_CITATION = re.compile(r"\bSPEC\b(?!_)")
_LINK = re.compile(r"\]\(([\w.-]+\.md)?#([\w-]+)\)")


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@functools.cache
def _anchors(page: Path) -> frozenset[str]:
    found: set[str] = set()
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        elif not in_fence and (match := re.match(r"^#{1,6}\s+(.*)$", line)):
            found.add(_anchor(match.group(1)))
    return frozenset(found)


def test_no_page_cites_the_spec() -> None:
    offenders = [
        f"{page.relative_to(REPO)}:{number}"
        for page in PAGES
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if _CITATION.search(line)
    ]
    assert offenders == [], "cite docs/reference.md instead: " + ", ".join(offenders)


def test_no_docstring_or_comment_cites_the_spec() -> None:
    offenders: list[str] = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        docstrings = [
            node.body[0].value.value
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
            and isinstance(node.body[0].value.value, str)
        ]
        comments = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
        if any(_CITATION.search(chunk) for chunk in (*docstrings, *comments)):
            offenders.append(str(path.relative_to(REPO)))
    assert offenders == [], "cite docs/reference.md instead: " + ", ".join(offenders)


def test_the_reference_covers_what_the_pages_link_to() -> None:
    anchors = _anchors(REPO / "docs" / "reference.md")
    assert {"what-moves", "what-borrows", "4-the-rules-each-code-enforces", "6-numeric-rules"} <= anchors


def test_links_to_headings_resolve() -> None:
    broken: list[str] = []
    for page in PAGES:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for target, anchor in _LINK.findall(line):
                linked = page.parent / target if target else page
                if linked.is_file() and anchor not in _anchors(linked):
                    broken.append(f"{page.relative_to(REPO)}:{number}: {target}#{anchor}")
    assert broken == []
