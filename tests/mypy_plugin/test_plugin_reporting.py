"""What the plugin reports for ownership errors, and how: codes, notes, suppressions, exactly once."""

from __future__ import annotations

from pathlib import Path

import pytest
from plugin_cases import check, lines

TILE = """
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)
    print(x){suffix}
    op.sync_on(stream)
"""


def test_use_after_move_is_reported_once_with_notes_at_its_position(tmp_path: Path) -> None:
    reported, raw = check(tmp_path, {"prog.py": TILE.format(suffix="")})
    errors = [r for r in reported if r.code == "E0382" and r.severity == "error"]
    assert [(r.line, r.column, r.message) for r in errors] == [(18, 11, "use of moved value: `x`")], raw
    notes = [(r.line, r.column, r.message) for r in reported if r.severity == "note" and r.code is None]
    assert (18, 11, "value moved here (line 17, column 17)") in notes, raw


def test_type_ignore_with_the_cli_code_suppresses(tmp_path: Path) -> None:
    reported, raw = check(tmp_path, {"prog.py": TILE.format(suffix="  # type: ignore[E0382]")})
    assert lines(reported, "E0382") == [], raw
    assert "unused" not in raw


def test_ownership_ignore_comment_suppresses_that_code_only(tmp_path: Path) -> None:
    reported, raw = check(tmp_path, {"prog.py": TILE.format(suffix="  # ownership: ignore[E0382] known")})
    assert lines(reported, "E0382") == [], raw
    reported, raw = check(tmp_path, {"prog.py": TILE.format(suffix="  # ownership: ignore[E0502]")})
    assert len(lines(reported, "E0382")) == 1, raw


def test_disable_error_code_accepts_the_cli_code(tmp_path: Path) -> None:
    reported, raw = check(tmp_path, {"prog.py": TILE.format(suffix="")}, "disable_error_code = E0382\n")
    assert lines(reported, "E0382") == [], raw


def test_deferred_function_reports_once(tmp_path: Path) -> None:
    source = TILE.format(suffix="\n    print(LATER)") + "\n\nLATER = [1][0]\n"
    reported, raw = check(tmp_path, {"prog.py": source})
    assert len(lines(reported, "E0382")) == 1, raw


def test_unannotated_function_is_checked_with_check_untyped_defs(tmp_path: Path) -> None:
    source = TILE.format(suffix="").replace("def main() -> None:", "def main():")
    reported, raw = check(tmp_path, {"prog.py": source})
    assert len(lines(reported, "E0382")) == 1, raw


def test_device_helper_without_any_annotation_given_a_shared_array(tmp_path: Path) -> None:
    """A `@simt.device` helper with no annotation at all (mypy gives it no signature) that a kernel passes a shared
    array: indexing it outside the helper's own unsafe block is E0133 at each access, as the CLI reports."""
    source = """
    from safekernels import simt
    from safekernels.dtypes import f32
    from safekernels.simt import DisjointSlice, thread


    @simt.device
    def first_of(scratch, t):
        scratch[t] = f32(1.0)
        return scratch[0]


    @simt.kernel
    @simt.launch_contract(block=64)
    def k(c: DisjointSlice[f32]) -> None:
        t = thread.thread_idx_x()
        with simt.unsafe():
            scratch = simt.shared_array(f32, 64)
            v = first_of(scratch, t)
        if (o := c.get_mut(thread.index_1d())) is not None:
            o.set(v)
    """
    reported, raw = check(tmp_path, {"prog.py": source})
    assert [(line, column) for line, column, _ in lines(reported, "E0133")] == [(8, 5), (9, 12)], raw


def test_code_without_safekernels_is_silent(tmp_path: Path) -> None:
    source = """
    def partition(line: str) -> tuple[str, str, str]:
        head = line.partition(":")
        data = [1, 2, 3]
        data.sort()
        return head
    """
    reported, raw = check(tmp_path, {"plain.py": source})
    assert reported == [], raw


def test_unsafe_operation_outside_unsafe_block(tmp_path: Path) -> None:
    source = """
    from safekernels import simt
    from safekernels.dtypes import f32
    from safekernels.simt import DisjointSlice, thread


    @simt.kernel
    @simt.launch_contract(block=256)
    def k(c: DisjointSlice[f32]) -> None:
        buf = simt.shared_array(f32, 256)
        with simt.unsafe():
            tile_buf = simt.shared_array(f32, 256)
            tile_buf[0] = f32(1.0)
        i = thread.index_1d().get()
        c.get_unchecked_mut(i).set(f32(0.0))
        print(buf)
    """
    reported, raw = check(tmp_path, {"kern.py": source})
    assert sorted((r.line, r.code) for r in reported if r.severity == "error" and r.code == "E0133") == [
        (9, "E0133"), (14, "E0133"),
    ], raw


def test_a_checker_failure_is_one_error_not_a_mypy_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mypy_plugin import reporting

    def broken(*args: object) -> object:
        raise ValueError("boom")

    monkeypatch.setattr(reporting, "lower", broken)
    monkeypatch.setattr(reporting.PASS_CACHE, "enabled", False)
    reported, raw = check(tmp_path, {"prog.py": TILE.format(suffix="")}, allow_internal_errors=True)
    internal = [r for r in reported if r.code == "ownership-internal"]
    assert internal and "ValueError: boom" in internal[0].message, raw
    assert "INTERNAL ERROR" not in raw


def test_incremental_rerun_replays_the_same_errors(tmp_path: Path) -> None:
    first, raw1 = check(tmp_path, {"prog.py": TILE.format(suffix="")})
    second, raw2 = check(tmp_path, {"prog.py": TILE.format(suffix="")})  # same cache: served from it
    assert [(r.line, r.column, r.code) for r in first] == [(r.line, r.column, r.code) for r in second], raw2
    assert any(r.code == "E0382" for r in second), raw1


def test_plugin_fingerprint_is_part_of_the_cache_key() -> None:
    from mypy.options import Options

    from mypy_plugin import plugin

    instance = plugin("2.4.1")(Options())
    data = instance.report_config_data(None)  # type: ignore[arg-type]
    assert isinstance(data, str) and len(data) == 16


def test_loading_the_plugin_imports_no_analysis_until_a_safekernels_call_is_hooked() -> None:
    """What mypy does before it checks a module (load the plugin, validate its cache, ask about non-safekernels
    names) imports neither the lowering nor the core; the first safekernels hook does (mypy_plugin.hooks)."""
    import subprocess
    import sys

    script = """
import sys
from mypy.options import Options
from mypy_plugin import plugin
analysis = ("ownership_check.core", "mypy_plugin.lowering", "mypy_plugin.reporting", "mypy_plugin.typed_launch")
instance = plugin("2.4.1")(Options())
instance.report_config_data(None)
assert instance.get_method_hook("builtins.str.partition") is None
assert instance.get_function_hook("builtins.print") is None
print(sorted(m for m in analysis if m in sys.modules))
assert instance.get_method_hook("safekernels.simt.kernel.SimtKernel.prepare") is not None
print(sorted(m for m in analysis if m in sys.modules))
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    before, after = proc.stdout.splitlines()
    assert before == "[]"
    assert "mypy_plugin.typed_launch" in after and "ownership_check.core" in after


KERNELS = """
from typing import Annotated

from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=256)
def scale(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(f32(x[i] * 2.0))


@tile.kernel
def add(z: Partition[f32], x: Annotated[Tensor[f32], tile.Dims(-1)], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))
"""

HOST = """
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32

from kernels import add, scale


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.zeros(n, f32, stream)
    plan = scale.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    scale.launch(plan, stream, a, a){extra}
    x = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, tile.ones((1024,), f32))
    print(x)
    op.sync_on(stream)
"""


def test_kernels_loaded_from_mypys_cache_keep_their_parameter_modes(tmp_path: Path) -> None:
    reported, raw = check(tmp_path, {"kernels.py": KERNELS, "host.py": HOST.format(extra="")})
    first = sorted((r.line, r.code) for r in reported if r.code in ("E0502", "E0382"))
    assert first == [(13, "E0502"), (17, "E0382")], raw
    # Edit only host.py: kernels.py now comes from the cache, without decorator expressions or `Annotated`.
    reported, raw = check(tmp_path, {"host.py": HOST.format(extra="  # edited")})
    second = sorted((r.line, r.code) for r in reported if r.code in ("E0502", "E0382"))
    assert second == first, raw


MANY_HOOKS = """
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32

from kernels import scale


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    plan = scale.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    scale.launch(plan, stream, a, a)
    scale.launch(plan, stream, b, b)
    scale.launch(plan, stream, a, b)
    scale.launch(plan, stream, b, a)
    print(a.to_numpy(stream), b.to_numpy(stream))
"""


def _count_emits(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, bool]]:
    """Record every report the plugin hands mypy: (line, code, whether mypy kept it)."""
    from mypy_plugin import reporting

    seen: list[tuple[int, str, bool]] = []
    original = reporting.emit

    def spy(api: object, diagnostic: object) -> bool:
        kept = original(api, diagnostic)  # type: ignore[arg-type]
        seen.append((diagnostic.span.line, diagnostic.code, kept))  # type: ignore[attr-defined]
        return kept

    monkeypatch.setattr(reporting, "emit", spy)
    return seen


def test_a_function_with_many_hooked_calls_hands_mypy_each_diagnostic_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every hook of the function may report its diagnostics, but once mypy has kept one it is not handed over
    again in the same pass (mypy compares every pair of a file's messages when it prints them)."""
    seen = _count_emits(monkeypatch)
    reported, raw = check(tmp_path, {"kernels.py": KERNELS, "host.py": MANY_HOOKS})
    assert sorted((r.line, r.code) for r in reported if r.code == "E0502") == [(14, "E0502"), (15, "E0502")], raw
    assert sorted(seen) == [(14, "E0502", True), (15, "E0502", True)], seen


def test_a_report_mypy_discards_is_made_again_by_the_next_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hook that fires while mypy discards errors (a speculative inference) must not use up the report: here
    mypy discards the first two reports of each diagnostic, and the later hooks of the function report it."""
    from mypy.plugin import CheckerPluginInterface

    from mypy_plugin import reporting

    discarded: dict[tuple[int, str], int] = {}
    original = reporting.emit

    def flaky(api: CheckerPluginInterface, diagnostic: object) -> bool:
        key = (diagnostic.span.line, diagnostic.code)  # type: ignore[attr-defined]
        discarded[key] = discarded.get(key, 0) + 1
        if discarded[key] <= 2:
            with api.msg.filter_errors():  # what mypy does around a speculative inference
                return original(api, diagnostic)  # type: ignore[arg-type]
        return original(api, diagnostic)  # type: ignore[arg-type]

    monkeypatch.setattr(reporting, "emit", flaky)
    reported, raw = check(tmp_path, {"kernels.py": KERNELS, "host.py": MANY_HOOKS})
    assert sorted((r.line, r.code) for r in reported if r.code == "E0502") == [(14, "E0502"), (15, "E0502")], raw
    assert discarded == {(14, "E0502"): 3, (15, "E0502"): 3}, discarded


def test_the_incremental_cache_replays_edits_and_fixes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mypy's own cache (no daemon): an unchanged re-run replays the errors, an edit that adds one reports it,
    a fix removes it, and an untouched module keeps its errors while another is edited."""
    # (each edit changes the file's size: mypy trusts a file of the same size and the same mtime second)
    fresh = "sk.zeros(n, f32, stream)"
    clean = MANY_HOOKS.replace("(plan, stream, a, a)", f"(plan, stream, a, {fresh})").replace(
        "(plan, stream, b, b)", f"(plan, stream, b, {fresh})"
    )
    other = clean.replace("def main(", "def other(")
    reported, raw = check(tmp_path, {"kernels.py": KERNELS, "host.py": clean, "other.py": other})
    assert [r for r in reported if r.code == "E0502"] == [], raw
    reported, raw = check(tmp_path, {"host.py": MANY_HOOKS, "other.py": other})
    assert sorted((r.path[-7:], r.line) for r in reported if r.code == "E0502") == [
        ("host.py", 14), ("host.py", 15)
    ], raw
    seen = _count_emits(monkeypatch)
    reported, raw = check(tmp_path, {"host.py": MANY_HOOKS, "other.py": other + "\n# edited\n"})
    assert sorted((r.path[-7:], r.line) for r in reported if r.code == "E0502") == [
        ("host.py", 14), ("host.py", 15)
    ], raw
    assert seen == [], seen  # host.py came from the cache: replayed, not analysed again
    reported, raw = check(tmp_path, {"host.py": clean, "other.py": other})
    assert [r for r in reported if r.code == "E0502"] == [], raw


def test_a_function_whose_analysis_did_not_converge_is_w0002(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The core's step budget spent before its fixed point settles: W0002 at the function, as in the CLI."""
    from ownership_check.core import checker

    monkeypatch.setattr(checker, "STEP_BUDGET_PER_NODE", 0)
    monkeypatch.setattr(checker, "STEP_BUDGET_BASE", 0)
    source = TILE.format(suffix="").replace("def main()", "def starved_main()")
    reported, raw = check(tmp_path, {"prog.py": source})
    found = [(r.line, r.code, r.message) for r in reported if r.code == "W0002"]
    assert found == [
        (12, "W0002", "ownership of this file was not checked: the analysis of `starved_main` stopped before it "
         "converged (please report this file)")
    ], raw


IMPORTED_CALL = """
from dataclasses import dataclass, replace

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@dataclass(frozen=True)
class State:
    x: Tensor[f32]


def renewed(state: State, stream: sk.Stream) -> State:
    return replace(state, x=tile.full((64,), 2.0, f32).sync_on(stream))


def main() -> None:
    stream = sk.Device(0).new_stream()
    state = renewed(State(tile.ones((64,), f32).sync_on(stream)), stream)
    y = tile.ones((64,), f32).sync_on(stream)
    z, x, y = add(tile.zeros((64,), f32).partition((16,)), state.x, y).sync_on(stream)
    print(state.x)
"""


def test_a_function_the_module_imports_is_not_read_as_its_own(tmp_path: Path) -> None:
    """`replace` of `from dataclasses import replace` is another module's function, whose tree mypy loads from its
    cache without a body: the plugin must not read it as a helper of the module (the CLI cannot see it either)."""
    reported, raw = check(tmp_path, {"host.py": IMPORTED_CALL})
    assert [(r.line, r.code) for r in reported if r.code is not None] == [(28, "E0382")], raw
