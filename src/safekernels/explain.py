"""`safekernels explain CODE`: the long explanation of a diagnostic code, like `rustc --explain`.

The text lives once, in the documentation: the error index `docs/checker.md` has a `## CODE` section per checker
code, and the compiler guides (`docs/simt-compiler.md`, `docs/tile-compiler.md`) describe the `SK` codes in a table
and in the text around it.  This module prints the section, or for an `SK` code its table row plus every
paragraph of the compiler guides that mentions it, so the terminal and the documentation can never disagree.

Where the pages come from: a wheel carries them as package data (`safekernels/_bundled/docs/`, copied there by
the build step in setup.py); a source checkout (an editable install, the test suite) reads `docs/` directly.
What is printed is for a reader, not for the docs test harness: the `<!-- snippet: ... -->` markers are dropped
and relative links (`[editors.md](editors.md#x)`, `[E0502](#e0502)`) become absolute URLs of the online docs,
since a pip user has no docs/ folder to resolve them against.
"""

from __future__ import annotations

import re
from pathlib import Path

from safekernels.project_links import docs_url

_PACKAGE = Path(__file__).resolve().parent
_BUNDLED_DOCS = _PACKAGE / "_bundled" / "docs"
_CHECKOUT_DOCS = _PACKAGE.parents[1] / "docs"
_INDEX_FILES = ("checker.md", "simt-compiler.md", "tile-compiler.md", "tile.md", "simt.md")
_SK_DOCS = ("simt-compiler.md", "tile-compiler.md")
_HEADING = re.compile(r"^(#{2,3})\s+`?([A-Z]+[0-9]{3,4})`?\b.*$")
_SNIPPET_MARKER = re.compile(r"^\s*<!--\s*snippet:.*-->\s*$")
_RELATIVE_LINK = re.compile(r"\]\((?!https?://|mailto:)([^)\s]*)\)")


def docs_dir() -> Path:
    """The folder holding the explained pages: the wheel's bundled copy, else the checkout's docs/."""
    return _BUNDLED_DOCS if _BUNDLED_DOCS.is_dir() else _CHECKOUT_DOCS


def _for_reader(text: str, page: str) -> str:
    """`text` of docs/`page` without the snippet harness's markers and with absolute links."""
    lines = [line for line in text.splitlines() if not _SNIPPET_MARKER.match(line)]

    def absolute(match: re.Match[str]) -> str:
        target = match.group(1)
        path, _, anchor = target.partition("#")
        if path.startswith("../") or (path and not path.endswith(".md")):
            return match.group(0)  # a file outside docs/ (a test, an image): leave the reference as written
        return f"]({docs_url(path or page, anchor or None)})"

    return _RELATIVE_LINK.sub(absolute, "\n".join(lines))


def explanation(code: str, docs: Path | None = None) -> str | None:
    """The Markdown section documenting `code`, ready to print, or None when no document has one."""
    docs = docs_dir() if docs is None else docs
    wanted = code.strip().upper()
    for name in _INDEX_FILES:
        path = docs / name
        if not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for start, line in enumerate(lines):
            match = _HEADING.match(line)
            if match and match.group(2) == wanted:
                level = len(match.group(1))
                end = start + 1
                while end < len(lines):
                    other = re.match(r"^(#{1,6})\s", lines[end])
                    if other and len(other.group(1)) <= level:
                        break
                    end += 1
                section = _for_reader("\n".join(lines[start:end]), name).strip()
                return f"{section}\n\nOnline: {docs_url(name, wanted.lower())}\n"
    if re.fullmatch(r"SK[0-9]{3}", wanted):
        return _sk_explanation(wanted, docs)
    return None


def _sk_explanation(code: str, docs: Path) -> str | None:
    """An `SK` code's table row and the paragraphs of the compiler guides that mention it."""
    parts: list[str] = []
    for name in _SK_DOCS:
        path = docs / name
        if not path.is_file():
            continue
        found = 0
        paragraphs = re.split(r"\n\s*\n", _for_reader(path.read_text(encoding="utf-8"), name))
        for paragraph in paragraphs:
            if re.search(rf"\b{code}\b", paragraph) is None:
                continue
            found += 1
            if paragraph.lstrip().startswith("|"):  # a table: keep its header and the code's row
                rows = paragraph.strip().splitlines()
                hit = [row for row in rows if re.search(rf"\b{code}\b", row)]
                parts.append("\n".join(rows[:2] + hit))
            else:
                parts.append(paragraph.strip())
        if found:
            parts.append(f"(from {docs_url(name)})")
    return "\n\n".join(parts) + "\n" if parts else None


def known_codes(docs: Path | None = None) -> list[str]:
    docs = docs_dir() if docs is None else docs
    codes: list[str] = []
    for name in _INDEX_FILES:
        path = docs / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                match = _HEADING.match(line)
                if match and match.group(2) not in codes:
                    codes.append(match.group(2))
    for name in _SK_DOCS:
        path = docs / name
        if path.is_file():
            for code in sorted(set(re.findall(r"\bSK[0-9]{3}\b", path.read_text(encoding="utf-8")))):
                if code not in codes:
                    codes.append(code)
    return codes


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print("usage: safekernels explain CODE   (for example: safekernels explain E0502)")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    text = explanation(argv[0])
    if text is None:
        codes = known_codes()
        if not codes:
            print(
                f"safekernels explain: the error index is missing from this installation ({docs_dir()}); "
                f"read it online: {docs_url('checker.md')}"
            )
            return 2
        print(f"safekernels explain: no explanation for {argv[0]!r}; known codes: {', '.join(codes)}")
        return 2
    print(text, end="")
    return 0
