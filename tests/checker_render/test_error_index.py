"""`docs/checker.md` stays in sync with the renderers' catalog and with SPEC §5's wording."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ownership_check.render.catalog import CODES, docs_anchor

DOCS = Path(__file__).resolve().parents[2] / "docs" / "checker.md"

#: SPEC §5 messages (rustc's wording) that the error index must show verbatim.
SPEC_WORDING = [
    "use of moved value: `z`",
    "value moved here",
    "value used here after move",
    "value moved here, in previous iteration of loop",
    "cannot borrow `c` as mutable because it is also borrowed as immutable",
    "cannot borrow `c` as immutable because it is also borrowed as mutable",
    "cannot borrow `c` as mutable more than once at a time",
    "use of unsafe operation `shared_array` requires an unsafe block",
    "cannot move out of `c` because it is borrowed",
    "# ownership: ignore[E0502]",
    "[tool.ownership-check]",
]


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    return {part.split("\n", 1)[0].strip(): part for part in parts[1:]}


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_an_index_entry(code: str) -> None:
    section = _sections(DOCS.read_text(encoding="utf-8")).get(code)
    assert section is not None, f"docs/checker.md lacks a `## {code}` section"
    assert "Failing example" in section
    assert "Fixed example" in section
    assert section.count("```python") >= 2
    assert f"[{code}](#{code.lower()})" in DOCS.read_text(encoding="utf-8")
    assert docs_anchor(code).endswith(f"/docs/checker.md#{code.lower()}")
    assert docs_anchor(code).startswith("https://")


def test_spec_wording_appears_verbatim() -> None:
    text = DOCS.read_text(encoding="utf-8")
    missing = [phrase for phrase in SPEC_WORDING if phrase not in text]
    assert missing == []


def test_cli_flags_and_formats_are_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for flag in ("--format", "--select", "--ignore", "--jobs", "--no-cache", "--exit-zero"):
        assert flag in text
    for fmt in ("text", "concise", "json", "sarif", "github"):
        assert f"`{fmt}`" in text
