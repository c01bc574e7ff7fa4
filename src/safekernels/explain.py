"""`safekernels explain CODE`: the long explanation of a diagnostic code, like `rustc --explain`.

The text lives once, in the documentation: the error index `docs/checker.md` has a `## CODE` section per checker
code, and the compiler guides (`docs/simt-compiler.md`, `docs/tile-compiler.md`) describe the `SK` codes in a table
and in the text around it.  This module prints the section, or for an `SK` code its table row plus every
paragraph of the compiler guides that mentions it, so the terminal and the documentation can never disagree.
"""

from __future__ import annotations

import re
from pathlib import Path

_DOCS = Path(__file__).resolve().parents[2] / "docs"
_INDEX_FILES = ("checker.md", "simt-compiler.md", "tile-compiler.md", "tile.md", "simt.md")
_SK_DOCS = ("simt-compiler.md", "tile-compiler.md")
_HEADING = re.compile(r"^(#{2,3})\s+`?([A-Z]+[0-9]{3,4})`?\b.*$")


def explanation(code: str, docs_dir: Path = _DOCS) -> str | None:
    """The Markdown section documenting `code`, or None when no document has one."""
    wanted = code.strip().upper()
    for name in _INDEX_FILES:
        path = docs_dir / name
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
                return "\n".join(lines[start:end]).strip() + "\n"
    if re.fullmatch(r"SK[0-9]{3}", wanted):
        return _sk_explanation(wanted, docs_dir)
    return None


def _sk_explanation(code: str, docs_dir: Path) -> str | None:
    """An `SK` code's table row and the paragraphs of the compiler guides that mention it."""
    parts: list[str] = []
    for name in _SK_DOCS:
        path = docs_dir / name
        if not path.is_file():
            continue
        paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        for paragraph in paragraphs:
            if re.search(rf"\b{code}\b", paragraph) is None:
                continue
            if paragraph.lstrip().startswith("|"):  # a table: keep its header and the code's row
                rows = paragraph.strip().splitlines()
                hit = [row for row in rows if re.search(rf"\b{code}\b", row)]
                parts.append("\n".join(rows[:2] + hit))
            else:
                parts.append(paragraph.strip())
        if parts and not parts[-1].startswith(f"(from docs/{name})"):
            parts.append(f"(from docs/{name})")
    return "\n\n".join(parts) + "\n" if parts else None


def known_codes(docs_dir: Path = _DOCS) -> list[str]:
    codes: list[str] = []
    for name in _INDEX_FILES:
        path = docs_dir / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                match = _HEADING.match(line)
                if match and match.group(2) not in codes:
                    codes.append(match.group(2))
    for name in _SK_DOCS:
        path = docs_dir / name
        if path.is_file():
            for code in sorted(set(re.findall(r"\bSK[0-9]{3}\b", path.read_text(encoding="utf-8")))):
                if code not in codes:
                    codes.append(code)
    return codes


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: safekernels explain CODE   (for example: safekernels explain E0502)")
        return 2
    text = explanation(argv[0])
    if text is None:
        codes = ", ".join(known_codes()) or "none found (docs/ missing?)"
        print(f"safekernels explain: no explanation for {argv[0]!r}; known codes: {codes}")
        return 2
    print(text, end="")
    return 0
