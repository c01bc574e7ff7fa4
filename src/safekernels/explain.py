"""`safekernels explain CODE`: the long explanation of a diagnostic code, like `rustc --explain`.

The text lives once, in the documentation: the error index `docs/checker.md` has a `## CODE` section per checker
code, and the compiler guides (`docs/simt-compiler.md`, `docs/tile-compiler.md`) describe the `SK` codes in a table
and in the text around it.  This module prints the section, or for an `SK` code its table row plus every
paragraph of the compiler guides that mentions it, so the terminal and the documentation can never disagree.

Where the pages come from: a wheel carries them as package data (`safekernels/_bundled/docs/`, copied there by
the build step in setup.py); a source checkout (an editable install, the test suite) reads `docs/` directly.
What is printed is for a reader, not for the docs test harness: the `<!-- snippet: ... -->` markers are dropped
and relative links (`[editors.md](editors.md#x)`, `[E0502](#e0502)`) become absolute URLs of the online docs,
since a pip user has no docs/ folder to resolve them against.  On a terminal the Markdown is rendered (headings,
code blocks, tables) with rich, a dependency already; through a pipe, or with `--markdown`, it is printed as
Markdown, for a file or another tool.  An `SK` code's table rows are the rows *of that code* (a row about SK011 that
mentions SK010 is not SK010's explanation).
"""

from __future__ import annotations

import os
import re
import sys
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
            if paragraph.lstrip().startswith("|"):  # a table: keep its header and the code's own rows
                rows = paragraph.strip().splitlines()
                own = [row for row in rows[2:] if _first_cell(row) == code]
                if not own:
                    found -= 1  # the table only mentions the code in another code's row
                    continue
                parts.append("\n".join(rows[:2] + own))
            else:
                parts.append(paragraph.strip())
        if found:
            parts.append(f"(from {docs_url(name)})")
    return "\n\n".join(parts) + "\n" if parts else None


def _first_cell(row: str) -> str:
    cells = row.strip().strip("|").split("|")
    return cells[0].strip().strip("`") if cells else ""


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


def _use_rich(markdown: bool) -> bool:
    """Render for a terminal unless `--markdown`, NO_COLOR-independent (rendering is layout, not only colour)."""
    if markdown:
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


def render(text: str, *, width: int | None = None) -> str:
    """`text` (Markdown) rendered for a terminal by rich: headings, emphasis, code blocks and tables."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(
        force_terminal=True,
        no_color=bool(os.environ.get("NO_COLOR")),
        width=width or min(Console().width, 100),
        record=False,
    )
    with console.capture() as capture:
        console.print(Markdown(text, code_theme="ansi_dark", hyperlinks=False))
    return capture.get()


def main(argv: list[str]) -> int:
    markdown = "--markdown" in argv
    args = [a for a in argv if a != "--markdown"]
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(
            "usage: safekernels explain CODE [--markdown]   (for example: safekernels explain E0502)\n\n"
            "Prints the long explanation of a diagnostic code, rendered on a terminal; --markdown prints the\n"
            "Markdown source (the default when the output is not a terminal)."
        )
        return 0 if args and args[0] in ("-h", "--help") else 2
    text = explanation(args[0])
    if text is None:
        codes = known_codes()
        if not codes:
            print(
                f"safekernels explain: the error index is missing from this installation ({docs_dir()}); "
                f"read it online: {docs_url('checker.md')}"
            )
            return 2
        print(f"safekernels explain: no explanation for {args[0]!r}; known codes: {', '.join(codes)}")
        return 2
    print(render(text) if _use_rich(markdown) else text, end="")
    return 0
