"""`safekernels explain CODE`: the long explanation of a diagnostic code, like `rustc --explain`.

The text lives once, in the error index `docs/checker.md` (checker codes) and `docs/simt-compiler.md` /
`docs/tile.md` (`SK` codes); this module finds the `## CODE` section and prints it, so the terminal and the
documentation can never disagree.
"""

from __future__ import annotations

import re
from pathlib import Path

_DOCS = Path(__file__).resolve().parents[2] / "docs"
_INDEX_FILES = ("checker.md", "simt-compiler.md", "tile.md", "simt.md")
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
    return None


def known_codes(docs_dir: Path = _DOCS) -> list[str]:
    codes: list[str] = []
    for name in _INDEX_FILES:
        path = docs_dir / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                match = _HEADING.match(line)
                if match and match.group(2) not in codes:
                    codes.append(match.group(2))
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
