"""One benchmark runner: run every script in bench/, keep the results, regenerate docs/benchmarks.md.

    python bench/run.py                 # everything this machine can run, then docs/benchmarks.md
    python bench/run.py --only checker_speed --no-docs
    python bench/run.py --list          # what would run, and why some would not
    python bench/run.py --ingest DIR    # record reports written on another machine (bench/tile_device_run.sh)

A *benchmark script* is any `bench/*.py` whose argument parser takes `--out FILE` (a markdown report); when it
also takes `--json FILE` its structured results are kept too, and `--quick` is passed on with `--quick`.  The
runner:

1. discovers the scripts and decides which need a GPU (a `# bench: gpu` / `# bench: cpu` comment in the script
   wins; otherwise importing torch, triton or cupy, or naming `Device(0)`, means GPU);
2. runs each in its own process (PYTHONPATH=src:.) with a timeout; without a GPU the GPU scripts are recorded
   as "not run (no GPU)" and the CPU-side ones (checker speed, mypy overhead) still run;
3. writes `bench/results/<date>.json`: the environment (exact versions, GPU, driver) and, per script, status,
   wall time, markdown and JSON;
4. merges with earlier result files, so a benchmark that could not run now keeps its latest successful result
   (shown with that run's date and environment), and regenerates `docs/benchmarks.md` from the merged
   results, with plots under `docs/img/` when matplotlib is installed (bandwidth per kernel per system, GEMM
   TFLOP/s per size, checker lines/s per tool).  Plot data come from each script's JSON when it writes one,
   else from its markdown tables (columns named `... GB/s`, a `unit` column of `GB/s` / `TFLOP/s`, a
   `lines/s` column).

Everything that decides *what the page says* is a pure function of the result dictionaries (`merge_results`,
`parse_markdown_tables`, `extract_series`, `render_markdown`), tested with fake data in tests/bench/.  Text in
docs/benchmarks.md after the line `<!-- notes: kept by bench/run.py -->` is hand-written and kept.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
RESULTS = BENCH / "results"
DOCS_PAGE = REPO / "docs" / "benchmarks.md"
IMG_DIR = REPO / "docs" / "img"
NOTES_MARKER = "<!-- notes: kept by bench/run.py -->"
RESULT_FORMAT = 1

_NOT_SCRIPTS = {"run.py"}
_GPU_HINTS = re.compile(r"^\s*(import|from)\s+(torch|triton|cupy)\b|Device\(0\)", re.MULTILINE)
_MARKER = re.compile(r"^#\s*bench:\s*(gpu|cpu)\s*$", re.MULTILINE)
_VERSIONED = (
    "safekernels",
    "llvmlite",
    "numpy",
    "cuda-bindings",
    "nvidia-nvjitlink",
    "libcst",
    "mypy",
    "ruff",
    "torch",
    "triton",
    "cupy-cuda13x",
    "cupy-cuda12x",
    "numba-cuda",
    "matplotlib",
)


# -- discovery and running ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Script:
    name: str  # file stem, e.g. "checker_speed"
    path: Path
    needs_gpu: bool
    takes_json: bool
    takes_quick: bool


def classify_script(path: Path, text: str) -> Script | None:
    """A `Script` when `text` is a benchmark script (its parser takes `--out`), else None."""
    if path.name in _NOT_SCRIPTS or path.name.startswith("_") or '"--out"' not in text:
        return None
    marker = _MARKER.search(text)
    needs_gpu = marker.group(1) == "gpu" if marker else bool(_GPU_HINTS.search(text))
    return Script(path.stem, path, needs_gpu, '"--json"' in text, '"--quick"' in text)


def discover(bench_dir: Path = BENCH) -> list[Script]:
    found = []
    for path in sorted(bench_dir.glob("*.py")):
        script = classify_script(path, path.read_text(encoding="utf-8", errors="replace"))
        if script is not None:
            found.append(script)
    return found


def run_script(script: Script, timeout: float, quick: bool) -> dict[str, Any]:
    """Run one script; never raises.  Returns its result record."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{script.name}-") as tmp:
        md_path, json_path = Path(tmp) / "out.md", Path(tmp) / "out.json"
        cmd = [sys.executable, str(script.path), "--out", str(md_path)]
        if script.takes_json:
            cmd += ["--json", str(json_path)]
        if quick and script.takes_quick:
            cmd.append("--quick")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(REPO), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
            returncode, stderr = proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as exc:
            partial = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr
            returncode, stderr = -1, f"timed out after {timeout:.0f} s\n{partial or ''}"
        except OSError as exc:
            returncode, stderr = -1, str(exc)
        seconds = time.perf_counter() - start
        markdown = md_path.read_text(encoding="utf-8") if md_path.is_file() else ""
        data: Any = None
        if json_path.is_file():
            try:
                data = json.loads(json_path.read_text(encoding="utf-8"))
            except ValueError:
                data = None
    ok = returncode == 0 and bool(markdown.strip())
    record: dict[str, Any] = {
        "status": "ok" if ok else "failed",
        "needs_gpu": script.needs_gpu,
        "seconds": round(seconds, 2),
        "command": f"python bench/{script.path.name} --out FILE{' --json FILE' if script.takes_json else ''}",
        "markdown": markdown,
        "json": data,
    }
    if not ok:
        record["reason"] = f"exit status {returncode}" + ("" if markdown.strip() else ", no report written")
        record["stderr_tail"] = stderr[-2000:]
    return record


def not_run(script: Script, reason: str) -> dict[str, Any]:
    return {
        "status": "not run",
        "needs_gpu": script.needs_gpu,
        "reason": reason,
        "markdown": "",
        "json": None,
    }


def environment() -> dict[str, Any]:
    """Exact versions and the GPU of this machine; every probe is optional."""
    from importlib.metadata import PackageNotFoundError, version

    versions: dict[str, str] = {"python": platform.python_version()}
    for dist in _VERSIONED:
        try:
            versions[dist] = version(dist)
        except PackageNotFoundError:
            continue
    env: dict[str, Any] = {
        "platform": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cpu_count": os.cpu_count(),
        "versions": versions,
        "gpu": None,
        "driver": None,
    }
    try:
        from cuda.bindings import driver

        (err,) = driver.cuInit(0)
        if err == driver.CUresult.CUDA_SUCCESS:
            _, raw = driver.cuDriverGetVersion()
            env["driver"] = f"CUDA {raw // 1000}.{(raw % 1000) // 10}"
            _, count = driver.cuDeviceGetCount()
            if count:
                _, dev = driver.cuDeviceGet(0)
                _, name = driver.cuDeviceGetName(256, dev)
                attr = driver.CUdevice_attribute
                _, major = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
                _, minor = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
                gpu_name = bytes(name).split(b"\0", 1)[0].decode(errors="replace")
                env["gpu"] = f"{gpu_name} (sm_{major}{minor}), {count} device(s)"
    except Exception:
        pass
    return env


# -- pure parts: merging, tables, series, markdown --------------------------------------------------------


def _run_order(run: dict[str, Any]) -> tuple[str, str]:
    return str(run.get("date", "")), str(run.get("timestamp", ""))


def merge_results(previous: list[dict[str, Any]], current: dict[str, Any]) -> dict[str, Any]:
    """Per benchmark, the newest successful result among `previous` and `current` (newest last in `previous`).

    Returns `{"date", "benchmarks": {name: record + "date" + "environment"}}`: a record that comes from an
    earlier run carries that run's date and environment; a benchmark that never succeeded keeps the current
    status.
    """
    runs = [*sorted(previous, key=_run_order), current]
    merged: dict[str, dict[str, Any]] = {}
    for run in runs:
        for name, record in run.get("benchmarks", {}).items():
            stamped = {**record, "date": run.get("date"), "environment": run.get("environment", {})}
            if record.get("status") == "ok" or merged.get(name, {}).get("status") != "ok":
                merged[name] = stamped
    return {"date": current.get("date"), "benchmarks": dict(sorted(merged.items()))}


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def parse_markdown_tables(markdown: str) -> list[Table]:
    """Every pipe table, titled by the nearest heading above it."""
    tables: list[Table] = []
    title = ""
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            title = line.lstrip("#").strip()
        elif (
            line.strip().startswith("|")
            and i + 1 < len(lines)
            and re.fullmatch(r"\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?", lines[i + 1].strip())
        ):
            table = Table(title, _cells(line))
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                table.rows.append(_cells(lines[i]))
                i += 1
            tables.append(table)
            continue
        i += 1
    return tables


def _number(text: str) -> float | None:
    match = re.fullmatch(r"\*{0,2}([0-9][0-9,]*(?:\.[0-9]+)?)\*{0,2}", text.strip())
    return float(match.group(1).replace(",", "")) if match else None


Series = dict[str, list[tuple[str, str, float]]]  # kind -> [(group, system, value)]


def series_from_tables(tables: list[Table]) -> Series:
    """Plot data from markdown tables: bandwidth (kernel, system, GB/s), gemm (size, system, TFLOP/s),
    checker (corpus, tool, lines/s)."""
    out: Series = {"bandwidth": [], "gemm": [], "checker": []}
    for table in tables:
        lower = [h.lower() for h in table.headers]
        if "lines/s" in lower:
            column = lower.index("lines/s")
            corpus = table.title.split(":")[0].strip() or "corpus"
            for row in table.rows:
                value = _number(row[column]) if column < len(row) else None
                if value is not None:
                    out["checker"].append((corpus, row[0], value))
        elif "unit" in lower:
            unit_col = lower.index("unit")
            size_col = lower.index("size") if "size" in lower else None
            systems = [j for j in range(1, len(table.headers)) if j not in (unit_col, size_col)]
            for row in table.rows:
                unit = row[unit_col].lower() if unit_col < len(row) else ""
                kind = "bandwidth" if unit == "gb/s" else "gemm" if unit.startswith("tflop") else None
                if kind is None:
                    continue
                size = row[size_col] if size_col is not None and size_col < len(row) else ""
                group = row[0] if kind == "bandwidth" else f"{row[0]} {size}".strip()
                for j in systems:
                    value = _number(row[j]) if j < len(row) else None
                    if value is not None:
                        out[kind].append((group, table.headers[j], value))
        elif any(h.endswith("gb/s") for h in lower):
            for j, header in enumerate(table.headers):
                if not header.lower().endswith("gb/s"):
                    continue
                kernel = header[: -len("GB/s")].strip() or table.title
                for row in table.rows:
                    value = _number(row[j]) if j < len(row) else None
                    if value is not None:
                        out["bandwidth"].append((kernel, row[0], value))
    return out


def extract_series(merged: dict[str, Any]) -> Series:
    """All plot data of a merged result: each script's JSON series when it gave them, else its tables."""
    out: Series = {"bandwidth": [], "gemm": [], "checker": []}
    for record in merged["benchmarks"].values():
        if record.get("status") != "ok":
            continue
        data = record.get("json")
        given = data.get("series") if isinstance(data, dict) else None
        if isinstance(given, dict):
            for kind in out:
                out[kind].extend((str(g), str(s), float(v)) for g, s, v in given.get(kind, []))
        else:
            for kind, points in series_from_tables(parse_markdown_tables(record.get("markdown", ""))).items():
                out[kind].extend(points)
    return out


def _environment_line(env: dict[str, Any]) -> str:
    versions = env.get("versions", {})
    text = ", ".join(f"{k} {v}" for k, v in versions.items())
    gpu = env.get("gpu") or "no GPU"
    driver = f", driver {env['driver']}" if env.get("driver") else ""
    return f"{gpu}{driver}; {env.get('platform', '?')}, {env.get('cpu_count', '?')} CPUs; {text}"


def _demote_headings(markdown: str, levels: int) -> str:
    return re.sub(r"^(#{1,6}) ", lambda m: "#" * min(6, len(m.group(1)) + levels) + " ", markdown, flags=re.M)


def render_markdown(merged: dict[str, Any], plots: list[tuple[str, str]], plot_note: str, notes: str) -> str:
    """The whole docs/benchmarks.md: summary table, plots, each benchmark's report, kept notes."""
    lines = [
        "# Benchmarks",
        "",
        "<!-- generated by `python bench/run.py`: edit bench/ scripts, or write below the notes marker -->",
        "",
        f"Regenerated {merged.get('date')} by `python bench/run.py` from `bench/results/*.json`. Each section"
        " is one run of its script, numbers copied unedited; a benchmark that could not run this time shows"
        " its latest successful run, with that run's date, versions and GPU.",
        "",
        "| benchmark | status | run on | GPU | wall s |",
        "| --- | --- | --- | --- | ---: |",
    ]
    for name, record in merged["benchmarks"].items():
        status = record.get("status", "?")
        if status != "ok" and record.get("reason"):
            status = f"{status}: {record['reason']}"
        env = record.get("environment") or {}
        seconds = record.get("seconds")
        lines.append(
            f"| `{name}` | {status} | {record.get('date') or ''} | {env.get('gpu') or 'none'} | "
            f"{'' if seconds is None else f'{seconds:.0f}'} |"
        )
    lines += ["", "## Plots", ""]
    if plots:
        lines += [f"![{title}]({path})" for title, path in plots]
    lines += ["", plot_note] if plot_note else []
    for name, record in merged["benchmarks"].items():
        lines += ["", f"## `{name}`", ""]
        env = record.get("environment") or {}
        if record.get("status") == "ok":
            lines += [f"Run {record.get('date')}: {_environment_line(env)}.", ""]
            lines.append(_demote_headings(record.get("markdown", "").strip(), 2))
        else:
            reason = record.get("reason", "no reason recorded")
            lines.append(f"Not available: {record.get('status')} ({reason}).")
    lines += ["", NOTES_MARKER]
    if notes.strip():
        lines += ["", notes.strip()]
    return "\n".join(lines).rstrip() + "\n"


def kept_notes(page: str) -> str:
    """The hand-written part of an existing docs/benchmarks.md (after the notes marker)."""
    return page.split(NOTES_MARKER, 1)[1] if NOTES_MARKER in page else ""


# -- plots (optional: matplotlib) -------------------------------------------------------------------------


def make_plots(series: Series, img_dir: Path, link_prefix: str = "img") -> tuple[list[tuple[str, str]], str]:
    """PNG plots for the non-empty series; returns ([(title, relative path)], note for the page)."""
    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return [], "Plots: not drawn (matplotlib is not installed; `pip install matplotlib` and rerun)."
    specs = {
        "bandwidth": ("Bandwidth per kernel per system", "GB/s", "bench-bandwidth.png"),
        "gemm": ("GEMM TFLOP/s per size", "TFLOP/s", "bench-gemm.png"),
        "checker": ("Checker lines/s per tool", "lines/s", "bench-checker.png"),
    }
    img_dir.mkdir(parents=True, exist_ok=True)
    made = []
    for kind, (title, unit, filename) in specs.items():
        points = series.get(kind, [])
        if not points:
            continue
        groups = list(dict.fromkeys(g for g, _, _ in points))
        systems = list(dict.fromkeys(s for _, s, _ in points))
        values = {(g, s): v for g, s, v in points}
        fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(groups) * max(1, len(systems)) ** 0.5), 4.0))
        width = 0.8 / max(1, len(systems))
        for k, system in enumerate(systems):
            xs = [i + k * width for i, g in enumerate(groups) if (g, system) in values]
            ys = [values[(g, system)] for g in groups if (g, system) in values]
            ax.bar(xs, ys, width=width, label=system)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(groups))])
        ax.set_xticklabels(groups, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel(unit)
        if kind == "checker":
            ax.set_yscale("log")
        ax.set_title(title)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(img_dir / filename, dpi=110)
        plt.close(fig)
        made.append((title, f"{link_prefix}/{filename}"))
    note = "" if made else "Plots: no plottable numbers in these results."
    return made, note


# -- main ---------------------------------------------------------------------------------------------------


def load_results(results_dir: Path) -> list[dict[str, Any]]:
    runs = []
    for path in sorted(results_dir.glob("*.json")):
        try:
            runs.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            print(f"bench/run.py: skipping unreadable {path}", file=sys.stderr)
    return sorted(runs, key=_run_order)


def result_path(results_dir: Path, date: str) -> Path:
    """`<date>.json`, or `<date>-2.json`, ... when that day already has a file."""
    path = results_dir / f"{date}.json"
    n = 2
    while path.exists():
        path = results_dir / f"{date}-{n}.json"
        n += 1
    return path


def regenerate_docs(results_dir: Path, page: Path, img_dir: Path) -> str:
    runs = load_results(results_dir)
    if not runs:
        return "no results to render"
    merged = merge_results(runs[:-1], runs[-1])
    plots, note = make_plots(extract_series(merged), img_dir, os.path.relpath(img_dir, page.parent))
    old = page.read_text(encoding="utf-8") if page.is_file() else ""
    page.write_text(render_markdown(merged, plots, note, kept_notes(old)), encoding="utf-8")
    return f"wrote {page}" + (f" and {len(plots)} plot(s)" if plots else f" ({note})")


def ingest(directory: Path, scripts: list[Script], date: str) -> dict[str, Any]:
    """A run record from a folder written on another machine: `environment.json` (what `environment()` gives
    there) and, per benchmark script `X`, `X.md` (its report) and optionally `X.json` (e.g. the device call of
    `bench/tile_device_run.sh`, whose machine has no copy of this repo's results)."""
    env_path = directory / "environment.json"
    env = json.loads(env_path.read_text(encoding="utf-8")) if env_path.is_file() else {}
    records: dict[str, Any] = {}
    for script in scripts:
        md_path = directory / f"{script.name}.md"
        if not md_path.is_file():
            continue
        json_path = directory / f"{script.name}.json"
        data: Any = None
        if json_path.is_file():
            try:
                data = json.loads(json_path.read_text(encoding="utf-8"))
            except ValueError:
                data = None
        markdown = md_path.read_text(encoding="utf-8")
        records[script.name] = {
            "status": "ok" if markdown.strip() else "failed",
            "needs_gpu": script.needs_gpu,
            "command": f"python bench/{script.path.name} --out FILE{' --json FILE' if script.takes_json else ''}",
            "markdown": markdown,
            "json": data,
            "ingested_from": str(directory),
        }
    return {
        "format": RESULT_FORMAT,
        "date": date,
        "timestamp": _dt.datetime.now().isoformat(timespec="seconds"),
        "environment": env,
        "benchmarks": records,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="comma-separated script names to run (default: all)")
    parser.add_argument("--skip", default="", help="comma-separated script names not to run")
    parser.add_argument("--timeout", type=float, default=1800.0, help="per-script timeout, seconds")
    parser.add_argument("--quick", action="store_true", help="pass --quick to scripts that take it")
    parser.add_argument("--cpu-only", action="store_true", help="do not run GPU benchmarks even with a GPU")
    parser.add_argument("--no-docs", action="store_true", help="do not regenerate docs/benchmarks.md")
    parser.add_argument("--docs-only", action="store_true", help="only rebuild the page from saved results")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument(
        "--ingest", type=Path, help="record the reports in DIR (written on another machine) instead of running"
    )
    args = parser.parse_args(argv)
    if args.docs_only:
        print(regenerate_docs(args.results_dir, DOCS_PAGE, IMG_DIR))
        return 0
    scripts = discover()
    if args.ingest is not None:
        run = ingest(args.ingest, scripts, _dt.date.today().isoformat())
        if not run["benchmarks"]:
            print(f"bench/run.py: no benchmark reports (<script>.md) in {args.ingest}", file=sys.stderr)
            return 1
        args.results_dir.mkdir(parents=True, exist_ok=True)
        path = result_path(args.results_dir, run["date"])
        path.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path} ({', '.join(run['benchmarks'])})")
        if not args.no_docs:
            print(regenerate_docs(args.results_dir, DOCS_PAGE, IMG_DIR))
        return 0
    only = {s for s in (args.only or "").split(",") if s}
    skip = {s for s in args.skip.split(",") if s}
    sys.path[:0] = [str(REPO / "src")]
    from safekernels import gpu_available

    have_gpu = gpu_available() and not args.cpu_only
    records: dict[str, Any] = {}
    for script in scripts:
        if (only and script.name not in only) or script.name in skip:
            continue
        if script.needs_gpu and not have_gpu:
            records[script.name] = not_run(script, "no GPU" if not args.cpu_only else "--cpu-only")
        elif args.list:
            records[script.name] = {"status": "would run", "needs_gpu": script.needs_gpu}
        else:
            print(f"== {script.name} ...", file=sys.stderr, flush=True)
            records[script.name] = run_script(script, args.timeout, args.quick)
        record = records[script.name]
        detail = record.get("reason") or (f"{record['seconds']:.0f} s" if "seconds" in record else "")
        print(f"{script.name:<24} {'gpu' if script.needs_gpu else 'cpu'}  {record['status']}  {detail}")
    if args.list:
        return 0
    date = _dt.date.today().isoformat()
    run: dict[str, Any] = {
        "format": RESULT_FORMAT,
        "date": date,
        "timestamp": _dt.datetime.now().isoformat(timespec="seconds"),
        "environment": environment(),
        "benchmarks": records,
    }
    args.results_dir.mkdir(parents=True, exist_ok=True)
    path = result_path(args.results_dir, date)
    path.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
    if not args.no_docs:
        print(regenerate_docs(args.results_dir, DOCS_PAGE, IMG_DIR))
    failed = [n for n, r in records.items() if r["status"] == "failed"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
