"""docs/tile.md's op reference names every op of the op table and every memory and grid call (its blocks are
run on the CPU executor by tests/docs/test_doc_snippets.py)."""

from __future__ import annotations

import re
from pathlib import Path

from safekernels.tile.ops import GRID_OPS, MEMORY_OPS, OPS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "tile.md"


def _reference() -> str:
    text = PAGE.read_text()
    start = text.index("## Op reference")
    return text[start : text.index("\n## ", start + 1)]


def test_every_op_has_an_example_in_the_reference() -> None:
    section = _reference()
    names = {*OPS, *MEMORY_OPS, *GRID_OPS, "num_tiles", "cumsum", "ones", "function"}
    missing = sorted(n for n in names if not re.search(rf"\b{re.escape(n)}\b", section))
    assert not missing, f"docs/tile.md's op reference has no example for {missing}"
    assert section.count("```python") >= 3


def test_the_page_no_longer_says_gpu_codegen_is_missing() -> None:
    text = PAGE.read_text()
    assert "not yet" not in text and "NotImplementedError" not in text
