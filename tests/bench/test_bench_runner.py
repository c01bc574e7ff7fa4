"""The pure parts of `bench/run.py` on fake results: discovery, merging, table parsing, plot series, the page."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load_runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run_under_test", REPO / "bench" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run_under_test"] = module
    spec.loader.exec_module(module)
    return module


run = _load_runner()

SIMT_MD = """## SIMT codegen benchmark

### Throughput (GB/s)

| implementation | vecadd GB/s | saxpy GB/s | vecadd vs best |
| --- | ---: | ---: | ---: |
| safekernels | 3336 | 3305 | 0.774 |
| torch | 4310 | 4312 | 1.000 |
| device-to-device copy | 4184 | | |
"""

TILE_MD = """## Tile

| kernel | size | safekernels tile | PyTorch | Triton | CuPy | unit |
| --- | --- | --- | --- | --- | --- | --- |
| vecadd | 268435456 f32 | 3900 | 4300 | 4100 | 2500 | GB/s |
| gemm f16 | 4096^3 | 520 | 646 | 526 |  | TFLOP/s |
| gemm f16 | 8192^3 | 600 | 722 |  |  | TFLOP/s |
"""

CHECKER_MD = """## ownership-check speed

### mixed tree: 300 files, 120,000 lines

| tool / mode | wall s | lines/s |
|---|---:|---:|
| ownership-check cold (`--no-cache`) | 2.00 | 60,000 |
| ruff check `--no-cache` | 0.75 | 160,000 |
| mypy (cold cache) | n/a | n/a |
"""


def _run(date: str, benchmarks: dict[str, Any], gpu: str | None = None, stamp: str = "") -> dict[str, Any]:
    return {
        "date": date,
        "timestamp": stamp or f"{date}T12:00:00",
        "environment": {"gpu": gpu, "versions": {"python": "3.11.7"}, "platform": "Linux", "cpu_count": 4},
        "benchmarks": benchmarks,
    }


def _ok(markdown: str, seconds: float = 10.0) -> dict[str, Any]:
    return {"status": "ok", "needs_gpu": False, "seconds": seconds, "markdown": markdown, "json": None}


def test_discovery_classifies_scripts(tmp_path: Path) -> None:
    (tmp_path / "cpu_one.py").write_text('p.add_argument("--out")\np.add_argument("--json")\n')
    (tmp_path / "gpu_one.py").write_text('import torch\np.add_argument("--out", required=True)\n"--quick"\n')
    (tmp_path / "marked.py").write_text('# bench: cpu\nimport torch\np.add_argument("--out")\n')
    (tmp_path / "helper.py").write_text("def helper() -> None: ...\n")
    (tmp_path / "run.py").write_text('p.add_argument("--out")\n')
    scripts = {s.name: s for s in run.discover(tmp_path)}
    assert sorted(scripts) == ["cpu_one", "gpu_one", "marked"]
    assert not scripts["cpu_one"].needs_gpu and scripts["cpu_one"].takes_json
    assert scripts["gpu_one"].needs_gpu and scripts["gpu_one"].takes_quick
    assert not scripts["marked"].needs_gpu


def test_the_real_bench_folder_has_the_checker_on_the_cpu() -> None:
    scripts = {s.name: s for s in run.discover()}
    assert "checker_speed" in scripts and not scripts["checker_speed"].needs_gpu
    if "simt_bench" in scripts:
        assert scripts["simt_bench"].needs_gpu


def test_run_script_records_success_and_failure(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(
        "import argparse, json\np = argparse.ArgumentParser()\n"
        'p.add_argument("--out")\np.add_argument("--json")\na = p.parse_args()\n'
        'open(a.out, "w").write("| a | lines/s |\\n|---|---:|\\n| x | 5 |\\n")\n'
        'json.dump({"series": {"checker": [["c", "x", 5]]}}, open(a.json, "w"))\n'
    )
    bad = tmp_path / "bad.py"
    bad.write_text('import sys\n"--out"\nsys.exit("boom")\n')
    scripts = {s.name: s for s in run.discover(tmp_path)}
    ok = run.run_script(scripts["good"], timeout=60, quick=False)
    assert ok["status"] == "ok" and "lines/s" in ok["markdown"] and ok["json"]["series"]["checker"]
    failed = run.run_script(scripts["bad"], timeout=60, quick=False)
    assert failed["status"] == "failed" and "boom" in failed["stderr_tail"]
    assert "exit status 1" in failed["reason"]


def test_merge_keeps_the_latest_success_of_each_benchmark() -> None:
    older = _run("2026-11-01", {"simt_bench": _ok(SIMT_MD), "checker_speed": _ok("old")}, gpu="NVIDIA H200")
    newer = _run("2026-11-20", {"simt_bench": _ok(SIMT_MD.replace("3336", "3400"))}, gpu="NVIDIA H200")
    current = _run(
        "2026-12-01",
        {
            "simt_bench": {"status": "not run", "reason": "no GPU", "markdown": "", "json": None},
            "checker_speed": _ok(CHECKER_MD),
            "tile_bench": {"status": "failed", "reason": "exit status 1", "markdown": "", "json": None},
        },
    )
    merged = run.merge_results([newer, older], current)  # order of `previous` does not matter
    simt = merged["benchmarks"]["simt_bench"]
    assert simt["status"] == "ok" and "3400" in simt["markdown"] and simt["date"] == "2026-11-20"
    assert simt["environment"]["gpu"] == "NVIDIA H200"
    assert merged["benchmarks"]["checker_speed"]["date"] == "2026-12-01"
    assert merged["benchmarks"]["tile_bench"]["status"] == "failed"
    assert list(merged["benchmarks"]) == sorted(merged["benchmarks"])


def test_a_later_failure_does_not_hide_an_earlier_success_but_a_later_success_wins() -> None:
    first = _run("2026-12-01", {"x": _ok("first")}, stamp="2026-12-01T10:00:00")
    second = _run("2026-12-01", {"x": _ok("second")}, stamp="2026-12-01T11:00:00")
    failed = _run("2026-12-02", {"x": {"status": "failed", "reason": "r", "markdown": "", "json": None}})
    assert run.merge_results([second, first], failed)["benchmarks"]["x"]["markdown"] == "second"


def test_tables_become_plot_series() -> None:
    tables = run.parse_markdown_tables(SIMT_MD + "\n" + TILE_MD + "\n" + CHECKER_MD)
    assert [t.title for t in tables] == ["Throughput (GB/s)", "Tile", "mixed tree: 300 files, 120,000 lines"]
    series = run.series_from_tables(tables)
    assert ("vecadd", "safekernels", 3336.0) in series["bandwidth"]
    assert ("saxpy", "torch", 4312.0) in series["bandwidth"]
    assert ("vecadd", "device-to-device copy", 4184.0) in series["bandwidth"]
    assert ("vecadd", "CuPy", 2500.0) in series["bandwidth"]
    assert ("gemm f16 4096^3", "PyTorch", 646.0) in series["gemm"]
    assert ("gemm f16 8192^3", "safekernels tile", 600.0) in series["gemm"]
    assert not any(system == "CuPy" for _, system, _ in series["gemm"])  # empty cells are not zeros
    assert ("mixed tree", "ruff check `--no-cache`", 160000.0) in series["checker"]
    assert len(series["checker"]) == 2  # n/a is skipped


def test_json_series_win_over_tables() -> None:
    record = _ok(SIMT_MD)
    record["json"] = {"series": {"bandwidth": [["k", "sys", 1.5]]}}
    merged = run.merge_results([], _run("2026-12-01", {"simt_bench": record}))
    assert run.extract_series(merged)["bandwidth"] == [("k", "sys", 1.5)]


def test_markdown_page_has_status_versions_reports_and_kept_notes() -> None:
    old = _run("2026-11-20", {"simt_bench": _ok(SIMT_MD)}, gpu="NVIDIA H200 (sm_90), 1 device(s)")
    current = _run(
        "2026-12-01",
        {
            "checker_speed": _ok(CHECKER_MD, 42.0),
            "tile_bench": {"status": "not run", "reason": "no GPU", "markdown": "", "json": None},
        },
    )
    merged = run.merge_results([old], current)
    notes = "\n### Reading the numbers\n\nHand-written analysis.\n"
    page = run.render_markdown(merged, [], "Plots: not drawn (matplotlib is not installed).", notes)
    assert page.startswith("# Benchmarks\n")
    assert "| `checker_speed` | ok | 2026-12-01 | none | 42 |" in page
    assert "| `tile_bench` | not run: no GPU | 2026-12-01 | none |  |" in page
    assert "Run 2026-11-20: NVIDIA H200 (sm_90), 1 device(s); Linux, 4 CPUs; python 3.11.7." in page
    assert "#### Throughput (GB/s)" in page  # the script's ### heading, demoted under its section
    assert "matplotlib is not installed" in page
    assert page.count(run.NOTES_MARKER) == 1
    assert run.kept_notes(page).strip() == notes.strip()
    again = run.render_markdown(merged, [], "", run.kept_notes(page))
    assert again.count("Hand-written analysis.") == 1


def test_plots_are_optional(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    series = run.series_from_tables(run.parse_markdown_tables(TILE_MD))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    plots, note = run.make_plots(series, tmp_path / "img")
    assert plots == [] and "matplotlib is not installed" in note
    assert not (tmp_path / "img").exists()


def test_plots_are_drawn_when_matplotlib_exists(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    series = run.series_from_tables(run.parse_markdown_tables(TILE_MD + CHECKER_MD))
    plots, note = run.make_plots(series, tmp_path / "img")
    assert [title for title, _ in plots] == [
        "Bandwidth per kernel per system",
        "GEMM TFLOP/s per size",
        "Checker lines/s per tool",
    ]
    assert all((tmp_path / path).is_file() for _, path in plots) and note == ""


def test_result_files_never_overwrite_each_other(tmp_path: Path) -> None:
    first = run.result_path(tmp_path, "2026-12-01")
    first.write_text("{}")
    second = run.result_path(tmp_path, "2026-12-01")
    assert first.name == "2026-12-01.json" and second.name == "2026-12-01-2.json"


def test_regenerate_docs_from_saved_results(tmp_path: Path) -> None:
    import json

    results = tmp_path / "results"
    results.mkdir()
    (results / "2026-11-20.json").write_text(json.dumps(_run("2026-11-20", {"simt_bench": _ok(SIMT_MD)})))
    (results / "2026-12-01.json").write_text(json.dumps(_run("2026-12-01", {"checker_speed": _ok(CHECKER_MD)})))
    page = tmp_path / "docs" / "benchmarks.md"
    page.parent.mkdir()
    page.write_text(f"old generated text\n{run.NOTES_MARKER}\nkeep me\n")
    message = run.regenerate_docs(results, page, tmp_path / "docs" / "img")
    text = page.read_text()
    assert "wrote" in message and "old generated text" not in text and text.rstrip().endswith("keep me")
    assert "## `simt_bench`" in text and "## `checker_speed`" in text
