"""The parts of `bench/issue24_table.py` that need no GPU and no torch: arguments, targets, checks, the per-case
failure handling, and the markdown / JSON it writes, on fake results."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("issue24_table_under_test", REPO / "bench" / "issue24_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["issue24_table_under_test"] = module
    spec.loader.exec_module(module)
    return module


T = _load()

CUDNN = {"peer": "cuDNN SDPA", "min": 1.0, "limit": "attention-cudnn"}


def _attention_row(graph: float, cudnn: float) -> dict[str, Any]:
    return {
        "section": "attention",
        "program": "plain + `fast_math`",
        "case": "4x32x4096 d=128 non-causal",
        "unit": "TFLOP/s",
        "values": {"eager": graph - 5, "graph": graph, "harness": graph + 2},
        "peers": {"cuDNN SDPA": cudnn, "FA2 SDPA": 330.0, "Triton": 500.0},
        "targets": [CUDNN],
        "check": T.check_text({"eager": 1e-4, "graph": 1e-4, "harness": 1e-4}, 2e-2),
        "status": "ok",
    }


FAKE: dict[str, Any] = {
    "meta": {
        "date": "2026-12-02 10:00 UTC",
        "gpu": "NVIDIA H200",
        "versions": "torch X",
        "elapsed_s": 301.0,
        "warmup_ms": 25,
        "rep_ms": 100,
        "section_s": {"attention": 120.0, "gemm": 90.0},
    },
    "rows": [
        _attention_row(486.0, 596.0),
        {
            "section": "gemm",
            "program": "user path: `@tile.autotune(matmul_configs())`",
            "case": "4096x4096x4096 f16",
            "unit": "TFLOP/s",
            "values": {"eager": 690.0, "graph": 700.0},
            "peers": {"cuBLAS": 710.0, "Triton (tutorial)": 600.0},
            "targets": [{"peer": "cuBLAS", "min": 0.95, "limit": "gemm-cublas"}],
            "check": "ok (max rel err 1.0e-03)",
            "status": "ok",
            "notes": "tuner's pick 128x256x64",
        },
        {"section": "gemm", "case": "4096x4096x256 bf16", "status": "failed: RuntimeError: boom"},
        {
            "section": "simt",
            "program": "examples/vecadd_simt.py",
            "case": "268435456 f32",
            "unit": "GB/s",
            "values": {"eager": 4000.0, "harness": 4100.0},
            "peers": {"torch": 4200.0, "d2d copy (`copy_`)": 4150.0},
            "targets": [{"peer": "d2d copy (`copy_`)", "min": 0.95, "limit": "simt-copy"}],
            "check": "ok (bitwise equal to torch)",
            "status": "ok",
        },
        {"section": "backward", "case": "4x32x4096 d=128 causal", "status": "skipped: budget of 340 s spent"},
        {
            "section": "sass",
            "program": "attention plain + `fast_math` d=128",
            "case": "4x32x4096 d=128 non-causal",
            "facts": {
                "regs": 168,
                "stack": 0,
                "LDL": 0,
                "STL": 0,
                "instructions": 2100,
                "HGMMA loop": 595,
                "HGMMA": 16,
                "MUFU": 130,
            },
            "status": "ok",
        },
    ],
}


def test_arguments() -> None:
    args = T.parse_args(["--quick", "--only", "gemm,sass", "--match", "f16", "--out", "x.md"])
    assert args.quick and args.only == ["gemm", "sass"] and args.match == "f16" and args.out == Path("x.md")
    assert T.parse_args([]).only == list(T.SECTIONS)
    with pytest.raises(SystemExit):
        T.parse_args(["--only", "attention,nonsense"])


def test_sizes_cover_issue_24() -> None:
    full = T.FULL
    assert set(full.attention) == {(4, 32, 4096), (8, 16, 2048)} and set(full.heads) == {64, 128}
    assert (4096, 4096, 4096) in full.gemm and (4096, 4096, 256) in full.gemm
    assert full.simt_n == 1 << 28
    assert {d for *_, d in full.backward} == {64, 128}
    quick = T.QUICK
    assert all(s % 256 == 0 for _, _, s in quick.attention) and quick.simt_n < full.simt_n


def test_judge_met_missed_and_missing() -> None:
    missed = T.judge(_attention_row(486.0, 596.0))
    assert "missed: 0.82x, short by 0.18x" in missed and "(graph; kernel only 0.82x)" in missed
    assert missed.endswith("; limit: `attention-cudnn`")  # the known limit is named next to a missed target
    met = T.judge(_attention_row(620.0, 596.0))
    assert met.startswith("met: 1.04x (graph") and "limited" not in met
    row = _attention_row(486.0, 596.0)
    row["values"] = {"harness": 500.0}  # no public-path value: not judged on the harness alone
    assert T.judge(row) == "not judged (a value is missing)"
    row = _attention_row(486.0, 596.0)
    del row["values"]["graph"]
    assert "(eager;" in T.judge(row)  # eager where there is no graph replay
    row["targets"] = [CUDNN, {"peer": "tuned (same path)", "min": 0.95}]
    row["peers"]["tuned (same path)"] = 480.0
    assert T.judge(row).count(";") >= 2 and "met: 1.00x" in T.judge(row)
    row["peers"]["tuned (same path)"] = 509.0  # 481 / 509 = 0.945: three places, not "short by 0.00x"
    assert "**missed: 0.945x, short by 0.005x**" in T.judge(row)
    row["targets"] = []
    assert T.judge(row) == ""


def test_check_text() -> None:
    assert T.check_text({"eager": 1e-4, "graph": 3e-4}, 2e-2) == "ok (max rel err 3.0e-04)"
    bad = T.check_text({"eager": 1e-4, "graph": 0.5, "harness": float("nan")}, 2e-2)
    assert bad.startswith("**FAILED**") and "graph 5.0e-01" in bad and "harness nan" in bad and "eager" not in bad


def test_render_markdown() -> None:
    text = T.render(FAKE)
    assert "## Issue 24, one run (2026-12-02 10:00 UTC)" in text and "301 s" in text
    assert "### Flash attention forward, bf16 (TFLOP/s)" in text
    head = next(line for line in text.splitlines() if line.startswith("| program") and "cuDNN SDPA" in line)
    assert "eager `sync_on`" in head and "`graph_on` replay" in head and "kernel only (harness)" in head
    row = next(line for line in text.splitlines() if line.startswith("| plain + `fast_math`"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2:8] == ["481", "486", "488", "596", "330", "500"]
    assert "failed: RuntimeError: boom" in text and "skipped: budget of 340 s spent" in text
    simt_head = next(line for line in text.splitlines() if "safe `kernel.launch`" in line)
    assert "`graph_on` replay" not in simt_head  # SIMT has no graph path: no empty column
    assert "met: 0.96x (eager; kernel only 0.99x)" in text
    assert (
        "| attention plain + `fast_math` d=128 | 4x32x4096 d=128 non-causal | 168 | 0 | 0 | 0 | 2100 | 595 | 16 | 130 |"
        in text
    )
    assert "- 4096x4096x4096 f16 user path: `@tile.autotune(matmul_configs())`: tuner's pick 128x256x64" in text
    assert "Seconds per section: attention 120, gemm 90." in text
    # each missed target's known limit is spelled out once, under its section's table
    assert text.count("- `attention-cudnn`: of FA3's pieces the pair ping-pong") == 1
    assert "`gemm-cublas`:" not in text  # met targets name no limit


def _table(tmp_path: Path, *argv: str) -> Any:
    args = T.parse_args(["--out", str(tmp_path / "t.md"), "--json", str(tmp_path / "t.json"), *argv])
    return T.Table(args, T.QUICK)


def test_a_broken_case_is_a_row_and_the_files_are_written(tmp_path: Path) -> None:
    table = _table(tmp_path)

    def broken() -> list[dict[str, Any]]:
        raise RuntimeError("no cuDNN here")

    table.run("gemm", "512x512x512 f16", broken)
    table.run("simt", "vecadd", lambda: [dict(FAKE["rows"][3])])
    data = json.loads((tmp_path / "t.json").read_text())
    assert [r["status"] for r in data["rows"]] == ["failed: RuntimeError: no cuDNN here", "ok"]
    assert data["rows"][0]["section"] == "gemm" and data["rows"][0]["case"] == "512x512x512 f16"
    assert "failed: RuntimeError: no cuDNN here" in (tmp_path / "t.md").read_text()
    assert "### SIMT vecadd, f32 (GB/s)" in (tmp_path / "t.md").read_text()


def test_timeout_match_and_budget(tmp_path: Path) -> None:
    table = _table(tmp_path, "--row-timeout", "0.2", "--match", " f16")

    def spin() -> list[dict[str, Any]]:
        end = time.monotonic() + 5
        while time.monotonic() < end:
            pass
        return []

    t0 = time.monotonic()
    table.run("gemm", "512x512x512 f16", spin)
    assert time.monotonic() - t0 < 3
    table.run("gemm", "512x512x512 bf16", spin)  # does not match " f16": not run, no row
    assert [r["status"] for r in table.rows] == ["failed: CaseTimeout: timed out after 0.2 s"]
    spent = _table(tmp_path, "--budget", "0")
    spent.started -= 1
    spent.run("norms", "1024x4096", spin)
    assert spent.rows[0]["status"] == "skipped: budget of 0 s spent"


def test_no_torch_needed_to_render() -> None:
    code = (
        "import json, sys; sys.path.insert(0, 'bench');"
        "import importlib.util as u; s = u.spec_from_file_location('t', 'bench/issue24_table.py');"
        "m = u.module_from_spec(s); sys.modules['t'] = m; s.loader.exec_module(m);"
        f"m.render(json.loads({json.dumps(json.dumps(FAKE))}));"
        "assert 'torch' not in sys.modules and 'triton' not in sys.modules, 'imported at module level'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, timeout=120)


def test_render_a_json_file_without_a_gpu(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text(json.dumps(FAKE))
    T.main(["--render", str(tmp_path / "t.json"), "--out", str(tmp_path / "t.md")])
    assert (tmp_path / "t.md").read_text() == T.render(FAKE)
