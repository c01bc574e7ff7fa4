"""Golden fixes (tests/fixtures/lsp/NAME.before.py -> NAME.after.py) through `ownership-check --fix`, the gate
that re-checks every fix, and the incremental workspace checker against the whole-file analysis."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from ownership_check.api import check_source
from ownership_check.cli import main as cli_main
from ownership_check.diagnostics import Diagnostic
from ownership_check.fixes import candidate_fixes, suppression_fix, verified_fixes
from ownership_check.server.workspace import Workspace
from ownership_check.source_files import decode_source

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lsp"
CASES = Path(__file__).resolve().parents[1] / "checker_cases"
#: golden name -> (what --fix does to it, the flags it needs)
CLI_GOLDEN = {
    "fresh_output": ("fixed", []),
    "shared_input": ("fixed", []),
    "unsafe_block": ("fixed", ["--unsafe-fixes"]),
    "suppress": ("unchanged", []),  # --fix never adds a suppression
}


def _copy(tmp_path: Path, name: str) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.ownership-check]\n")
    target = tmp_path / f"{name}.py"
    shutil.copyfile(FIXTURES / f"{name}.before.py", target)
    return target


@pytest.mark.parametrize("name", sorted(CLI_GOLDEN))
def test_cli_fix_gives_the_golden_result(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome, flags = CLI_GOLDEN[name]
    target = _copy(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    status = cli_main(["--no-cache", "--fix", *flags, target.name])
    expected = FIXTURES / f"{name}.{'after' if outcome == 'fixed' else 'before'}.py"
    assert target.read_text() == expected.read_text()
    out = capsys.readouterr()
    if outcome == "fixed":
        assert status == 0, out.out
        assert "Fixed 1 diagnostic(s) in 1 file(s)" in out.err
    else:
        assert status == 1 and "E0382" in out.out


def test_unsafe_fix_needs_its_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = _copy(tmp_path, "unsafe_block")
    monkeypatch.chdir(tmp_path)
    assert cli_main(["--no-cache", "--fix", target.name]) == 1
    assert target.read_text() == (FIXTURES / "unsafe_block.before.py").read_text()


def test_diff_prints_the_fix_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = _copy(tmp_path, "fresh_output")
    monkeypatch.chdir(tmp_path)
    assert cli_main(["--no-cache", "--diff", target.name]) == 1
    out = capsys.readouterr().out
    assert "+    c_out = sk.to_device(c.to_numpy(stream), stream, dtype=c.element_type)" in out
    assert "-    vecadd.launch(prepared, stream, c, b, c)  # c += b" in out
    assert target.read_text() == (FIXTURES / "fresh_output.before.py").read_text()


def test_fix_keeps_crlf_line_endings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = _copy(tmp_path, "fresh_output")
    target.write_bytes(target.read_bytes().replace(b"\n", b"\r\n"))
    monkeypatch.chdir(tmp_path)
    assert cli_main(["--no-cache", "--fix", target.name]) == 0
    assert target.read_bytes() == (FIXTURES / "fresh_output.after.py").read_bytes().replace(b"\n", b"\r\n")


@pytest.mark.parametrize("name", ["fresh_output", "shared_input", "unsafe_block", "suppress"])
def test_golden_after_rechecks_clean(name: str) -> None:
    before = check_source((FIXTURES / f"{name}.before.py").read_text(), f"{name}.py")
    after = check_source((FIXTURES / f"{name}.after.py").read_text(), f"{name}.py")
    assert len(before) == 1 and after == []


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"lsp_golden_{path.stem.replace('.', '_')}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fixed_programs_compute_what_the_author_meant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fixes change no behaviour: run on the CPU executor, the fixed code gives the intended results."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    out = _load(FIXTURES / "fresh_output.after.py").double_into(300)
    np.testing.assert_array_equal(out, 1 + np.arange(300, dtype=np.float32))
    first, second = _load(FIXTURES / "shared_input.after.py").two_sums()
    x = np.arange(256, dtype=np.float32)
    np.testing.assert_array_equal(first, x + 1)
    np.testing.assert_array_equal(second, x + 2)


def test_a_fix_that_leaves_its_diagnostic_or_adds_one_is_not_offered() -> None:
    source = (FIXTURES / "fresh_output.before.py").read_text()
    diags = check_source(source, "f.py")
    assert [f.kind for f in candidate_fixes(source, diags[0])] == ["fresh-output"]

    def unchanged(text: str) -> list[Diagnostic]:
        return diags

    def adds_one(text: str) -> list[Diagnostic]:
        return [diags[0].__class__("W0001", "unused suppression", "f.py", diags[0].span)]

    assert verified_fixes(source, diags[0], diags, unchanged) == []
    assert verified_fixes(source, diags[0], diags, adds_one) == []
    assert verified_fixes(source, diags[0], diags, lambda text: None) == []  # the re-check failed
    real = verified_fixes(source, diags[0], diags, lambda text: check_source(text, "f.py"))
    assert [f.kind for f in real] == ["fresh-output", "suppress"]


def test_suppression_joins_an_existing_directive() -> None:
    source = (FIXTURES / "suppress.before.py").read_text().replace(
        "print(z)  # the old handle", "print(z)  # ownership: ignore[E0502] the old handle"
    )
    diag = next(d for d in check_source(source, "s.py") if d.code == "E0382")
    fix = suppression_fix(source, diag)
    assert fix is not None
    assert "print(z)  # ownership: ignore[E0502, E0382] the old handle\n" in fix.new_source
    assert [d.code for d in check_source(fix.new_source, "s.py")] == ["W0001"]  # E0502 was never reported there


def _text(case: Path) -> str:
    """The case's source as Python decodes it (a coding cookie, a BOM)."""
    text, error = decode_source(case.read_bytes(), str(case))
    assert error is None, case.name
    return text


def _equivalence_cases() -> list[Path]:
    """Every golden case (about 8 s for all 425 on the CI machine)."""
    return sorted(CASES.glob("*.py"))


#: Golden cases where a function's unit lacks code outside it, so the editor shows fewer diagnostics than the
#: whole-file analysis (never other ones): a helper wrapped by a decorator (`@functools.cache`, a forwarding or
#: retrying decorator of the module, `@contextmanager`, `@functools.singledispatch`, one filling a registry) is a
#: stub in the caller's unit, and so are a subclass's override, a method keeping an op, and a registry a
#: module-level comprehension builds, and a helper's launch checked against the prepared launch its caller passes
#: (reported inside the helper, whose own unit does not see the caller), a gathered coroutine's move another one's
#: pending op meets (reported inside the coroutine, found in the caller's unit), and an attribute registry the module's
#: calls of a method fill outside the function (docs/editors.md lists them).  The module's constants a unit names
#: are in it (`workspace.top_level`): a dict display of kernels, a cache's module-level dict, `HEADER = 1`.
PER_FUNCTION_GAPS = frozenset({
    "e0308_prepared_field_of_helper_argument.py",
    "e0308_subclass_kernel_with_base_prepared_launch.py",
    "e0308_inherited_method_of_a_registered_subclass.py",
    "e0308_base_method_runs_with_a_subclass_prepared_launch.py",
    "e0133_unannotated_device_helper_parameter_given_a_shared_array.py",
    "e0308_prepared_from_cached_helper.py",
    "e0308_memoised_helper_builds_a_named_tuple.py",
    "e0382_memoized_call_same_object.py",
    "e0382_memoized_call_kept_across_runs.py",
    "e0382_memoized_call_read_then_moved_across_runs.py",
    "e0382_forwarding_decorator.py",
    "e0382_class_decorator_forwards_call.py",
    "e0382_registry_filled_by_decorator.py",
    "e0502_attribute_registry_of_hooks.py",
    "e0382_retry_decorator_calls_again.py",
    "e0499_contextmanager_yields_parameter.py",
    "e0505_contextmanager_op_pending_across_yield.py",
    "e0505_contextmanager_local_op_across_yield.py",
    "e0505_contextmanager_yields_borrowed_argument.py",
    "e0505_contextmanager_yields_list_item.py",
    "e0502_singledispatch_base_function.py",
    "e0502_subclass_override_dispatch.py",
    "e0502_helper_built_dict_new_key.py",
    "e0308_helper_launches_item_of_dict_argument.py",
    "e0502_helper_wrapped_by_an_untyped_decorator.py",
    "e0502_call_arguments_through_dict_get_and_next.py",
})


def test_incremental_workspace_matches_the_whole_file_analysis(tmp_path: Path) -> None:
    """Per-function chunks and their cache give exactly `check_source`'s diagnostics, first and warm."""
    (tmp_path / "pyproject.toml").write_text("[tool.ownership-check]\n")
    cases = _equivalence_cases()
    paths = []
    for case in cases:
        target = tmp_path / case.name
        shutil.copyfile(case, target)
        paths.append(str(target))
    workspace = Workspace([str(tmp_path)])
    got = workspace.check(paths)
    again = workspace.check(paths)
    compared = 0
    for case, path in zip(cases, paths, strict=True):
        want = check_source(_text(case), path)
        if case.name in PER_FUNCTION_GAPS:
            # fewer diagnostics, each one the whole-file analysis reports too; the gap must still be there
            assert set(got[path]) < set(want), case.name
            assert again[path] == got[path], case.name
            continue
        assert got[path] == want, case.name
        assert again[path] == want, case.name
        compared += bool(want)
    print(f"{len(cases)} checker cases compared, {compared} with diagnostics")
    # every error case outside the gaps had diagnostics to compare (a clean case has none)
    assert compared == sum(1 for c in cases if not c.name.startswith("clean") and c.name not in PER_FUNCTION_GAPS)


def _edits(source: str) -> list[str]:
    """Buffers an editor produces while typing inside each function: a line added (lines below move), a line
    removed again, and a name typed into the first statement of the body."""
    import ast

    out = []
    lines = source.splitlines(keepends=True)
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return []
    for node in body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.body:
            continue
        first = node.body[0].lineno  # 1-based line of the first statement
        indent = lines[first - 1][: len(lines[first - 1]) - len(lines[first - 1].lstrip())]
        added = [*lines[:first - 1], f"{indent}typed_here = 0\n", *lines[first - 1 :]]
        out.append("".join(added))
        out.append("".join([*lines[:first - 1], "\n", *lines[first - 1 :]]))
    return out


def test_incremental_edits_inside_functions_match_the_whole_file_analysis(tmp_path: Path) -> None:
    """The per-keystroke path (one function re-read, summary and kernel lines shifted) against `check_source`
    on the same text, for edits inside every function of the sampled cases."""
    (tmp_path / "pyproject.toml").write_text("[tool.ownership-check]\n")
    workspace = Workspace([str(tmp_path)])
    edits = 0
    cases = _equivalence_cases()
    sampled = cases if os.environ.get("OWNERSHIP_LSP_ALL_CASES") else cases[1::15]  # every case: the env var
    for case in (c for c in sampled if c.name not in PER_FUNCTION_GAPS):
        path = str(tmp_path / case.name)
        source = _text(case)
        workspace.set_overlay(path, source)
        workspace.check([path])
        for text in _edits(source):
            workspace.set_overlay(path, text)
            assert workspace.check([path])[path] == check_source(text, path), case.name
            workspace.set_overlay(path, source)
            assert workspace.check([path])[path] == check_source(source, path), case.name
            edits += 1
    print(f"{edits} edits compared")
    assert edits >= 20


def test_fix_leaves_ignored_codes_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = _copy(tmp_path, "fresh_output")
    monkeypatch.chdir(tmp_path)
    assert cli_main(["--no-cache", "--fix", "--ignore", "E0502", target.name]) == 0
    assert target.read_text() == (FIXTURES / "fresh_output.before.py").read_text()


def test_workspace_matches_the_cli_on_the_multi_file_cases(tmp_path: Path) -> None:
    """Kernels defined in one module and launched in another: the workspace (all files on disk, none open)
    reports what `check_paths` reports for the folder."""
    from dataclasses import replace

    from ownership_check.api import check_paths
    from ownership_check.config import load_config

    folders = sorted(p for p in CASES.iterdir() if p.is_dir() and any(p.rglob("*.py")))
    for folder in folders:
        root = tmp_path / folder.name
        shutil.copytree(folder, root)
        (root / "pyproject.toml").write_text("[tool.ownership-check]\n")
        want = check_paths([str(root)], config=load_config(str(root)), use_cache=False).diagnostics
        files = sorted(str(p) for p in root.rglob("*.py"))
        got = Workspace([str(root)]).check(files)
        normal = sorted((os.path.abspath(d.path), d.code, d.span) for d in want)
        assert sorted((p, d.code, d.span) for p, ds in got.items() for d in ds) == normal, folder.name
        assert [replace(d, path="") for p in files for d in got[p]] == [
            replace(d, path="") for d in sorted(want, key=lambda d: (os.path.abspath(d.path), d.sort_key()))
        ], folder.name
    print(f"{len(folders)} multi-file cases compared")
    assert len(folders) >= 5


def test_a_checker_crash_on_one_file_is_reported_and_never_reads_as_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ownership_check.runner as runner_module

    (tmp_path / "pyproject.toml").write_text("[tool.ownership-check]\n")
    path = str(tmp_path / "f.py")
    source = (FIXTURES / "fresh_output.before.py").read_text()
    workspace = Workspace([str(tmp_path)])
    workspace.set_overlay(path, source)

    def crash(module: object) -> list[Diagnostic]:
        raise RuntimeError("boom")

    monkeypatch.setattr(runner_module, "check_module", crash)  # the analysis the server shares with the CLI
    assert workspace.check([path]) == {path: []}
    assert len(workspace.internal_errors) == 1 and "RuntimeError: boom" in workspace.internal_errors[0]
    assert workspace.check_text(path, source + "\n") is None
    assert workspace.overlays[path] == source
