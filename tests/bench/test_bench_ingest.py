"""`bench/run.py --ingest DIR`: reports written on the device machine become a run record like a local run's."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def _load_runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run_ingest_under_test", REPO / "bench" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run_ingest_under_test"] = module
    spec.loader.exec_module(module)
    return module


run = _load_runner()


def test_ingest_records_each_scripts_report_with_the_remote_environment(tmp_path: Path) -> None:
    scripts = [
        run.Script("tile_bench", REPO / "bench" / "tile_bench.py", True, True, True),
        run.Script("launch_overhead", REPO / "bench" / "launch_overhead.py", True, True, False),
        run.Script("checker_speed", REPO / "bench" / "checker_speed.py", False, False, False),
    ]
    env = {"gpu": "NVIDIA H200 (sm_90), 1 device(s)", "versions": {"python": "3.12.3"}}
    (tmp_path / "environment.json").write_text(json.dumps(env))
    (tmp_path / "tile_bench.md").write_text("# Tile\n\n| kernel | unit |\n| --- | --- |\n| vecadd | GB/s |\n")
    (tmp_path / "tile_bench.json").write_text(json.dumps({"rows": [["vecadd"]]}))
    (tmp_path / "launch_overhead.md").write_text("## Launch\n")
    (tmp_path / "launch_overhead.json").write_text("{not json")
    record = run.ingest(tmp_path, scripts, "2026-12-01")
    assert record["date"] == "2026-12-01" and record["environment"] == env
    assert set(record["benchmarks"]) == {"tile_bench", "launch_overhead"}  # no checker_speed.md: not recorded
    tile = record["benchmarks"]["tile_bench"]
    assert tile["status"] == "ok" and tile["needs_gpu"] and tile["json"] == {"rows": [["vecadd"]]}
    assert record["benchmarks"]["launch_overhead"]["json"] is None  # unreadable JSON: the report still counts
    merged = run.merge_results([], record)
    assert merged["benchmarks"]["tile_bench"]["environment"]["gpu"].startswith("NVIDIA H200")


def test_ingest_of_a_folder_without_reports_writes_nothing(tmp_path: Path) -> None:
    results = tmp_path / "results"
    assert run.main(["--ingest", str(tmp_path), "--results-dir", str(results), "--no-docs"]) == 1
    assert not results.exists()
