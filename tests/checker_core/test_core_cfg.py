"""The control-flow graph and liveness over structured IR, and the core's independence from front ends."""

from __future__ import annotations

import subprocess
import sys

from core_ir_builders import blk, fn, fresh, move, sp, use

from ownership_check.core import ir
from ownership_check.core.cfg import build
from ownership_check.core.liveness import live_out


def test_loop_has_back_edge_and_unsafe_flag() -> None:
    f = fn(ir.Loop(blk(), blk(ir.Unsafe(blk(use("x", 3)), sp(3))), blk(), sp(2)))
    graph = build(f)
    uses = [n for n in graph.nodes if isinstance(n.op, ir.Use)]
    assert len(uses) == 1 and uses[0].unsafe
    header = next(n for n in graph.nodes if n.op is None and n.id not in (graph.entry, graph.exit))
    assert header.id in uses[0].succ


def test_liveness_is_killed_by_rebinding() -> None:
    f = fn(fresh("a", 1), use("a", 2), fresh("a", 3), move("a", 4))
    graph = build(f)
    live = live_out(graph)
    by_line = {n.op.span.line: live[n.id] for n in graph.nodes if n.op is not None and hasattr(n.op, "span")}
    assert "a" not in by_line[2]
    assert "a" in by_line[3]


def test_core_imports_neither_libcst_nor_mypy() -> None:
    code = (
        "import sys; import ownership_check.core; "
        "assert 'libcst' not in sys.modules and 'mypy' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
