"""Diagnostics inside a call written over several lines are reported on the line Python's traceback names (the
callee's), keep their argument as a second primary label, and a suppression on either line covers them."""

from __future__ import annotations

from pathlib import Path

import pytest

from ownership_check.cli import main
from ownership_check.core import raising_lines
from ownership_check.diagnostics import Diagnostic, Label, Span

HEAD = '''import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(stream: sk.Stream) -> None:
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    _z, _x, y = add(tile.zeros((64,), f32).partition((16,)), x, y).sync_on(stream)
'''


def _run(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "prog.py"
    path.write_text(HEAD + body, encoding="utf-8")
    main(["--no-cache", "--output-format", "concise", str(path)])
    return capsys.readouterr().out


def test_an_argument_on_its_own_line_is_reported_at_the_callee(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "    print(add(\n        tile.zeros((64,), f32).partition((16,)),\n        x,\n        y,\n    ))\n"
    out = _run(tmp_path, body, capsys)
    assert "prog.py:16:11: E0382" in out, out


def test_a_suppression_on_the_argument_line_still_covers_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = (
        "    print(add(\n        tile.zeros((64,), f32).partition((16,)),\n"
        "        x,  # ownership: ignore[E0382]\n        y,\n    ))\n"
    )
    out = _run(tmp_path, body, capsys)
    assert "E0382" not in out and "W0001" not in out, out


def test_a_read_inside_an_inner_call_stays_on_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, "    print(\n        len(x.to_numpy(stream)),\n    )\n", capsys)
    assert "prog.py:17:13: E0382" in out, out


def test_the_rule_on_spans() -> None:
    call = raising_lines.CallExtent(Span(3, 5, 6, 6), Span(3, 5, 3, 9))
    argument = Span(5, 9, 5, 10)
    diagnostic = Diagnostic("E0382", "use of moved value: `x`", "p.py", argument,
                            labels=(Label(argument, "value used here after move", primary=True),))
    moved = raising_lines.at_raising_line(diagnostic, [call])
    assert moved.span == call.raising
    assert raising_lines.operation_span(moved) == argument
    assert raising_lines.reported_lines(moved) == {3, 5}
    assert [lb.span for lb in moved.related_labels()] == [argument]
    assert raising_lines.at_raising_line(diagnostic, []) is diagnostic
    # an attribute callee split over lines raises from the attribute's line
    assert raising_lines.callee_part(Span(3, 5, 4, 12), "launch") == Span(4, 6, 4, 12)
