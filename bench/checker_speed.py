"""How fast is `ownership-check`?  Lines per second, cold / one process / warm (cache), beside ruff and mypy.

Two corpora, each checked by every tool from the same copied directory:

- *mixed tree*: the CPython stdlib's top-level modules plus the golden checker cases: what a real repository
  looks like (almost nothing involves safekernels, so the cheap prescan carries the run);
- *safekernels only*: the golden cases and examples replicated until the corpus reaches `--sk-lines` lines:
  every file goes through the prescan, the lowering and the core (the dense case; target >= 50,000 lines/s cold).

Modes: cold (`--no-cache`: the default `--jobs auto`, the number of worker processes it chose stated), cold in
one process (`--jobs 1`), warm (every file's result cached), and a re-check after editing one file's function
body (the cache redoes only that file).  Each number is the median of
`--repeat` runs (default 3) of wall-clock time including interpreter start-up, as a user sees it.  Prints a
markdown table; `--out FILE` also writes it there (docs/benchmarks.md keeps the latest).

The tools run from compiled bytecode, as an installed copy does (pip writes `.pyc` files at install, an editable
install on first import): the environment of every timed command drops `PYTHONDONTWRITEBYTECODE` and points
`PYTHONPYCACHEPREFIX` at a private directory that an untimed run fills first.  Without that, a development
environment that sets `PYTHONDONTWRITEBYTECODE` recompiles the checker's ~40 modules from source on every run
(~0.1 s of every `ownership-check` run measured so; `--source-only` measures it that way on purpose).
"""

from __future__ import annotations

import argparse
import ast
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
#: The environment of every timed command (`tool_environment`); None: this process's own.
TOOL_ENV: dict[str, str] | None = None


def tool_environment(pycache: Path) -> dict[str, str]:
    """This process's environment with bytecode written to and read from `pycache` (see the module docstring)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def count_lines(root: Path) -> tuple[int, int]:
    files = list(root.rglob("*.py"))
    return len(files), sum(p.read_bytes().count(b"\n") for p in files)


def _parses(path: Path) -> bool:
    try:
        ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return False
    return True


def build_mixed(dest: Path) -> None:
    """Stdlib top-level modules and golden cases as packages (mypy sees no shadowed or duplicate modules)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    (dest / "stdlib_copy").mkdir(parents=True)
    for p in sorted(stdlib.glob("*.py")):
        if _parses(p):
            shutil.copy(p, dest / "stdlib_copy" / p.name)
    cases = REPO / "tests" / "checker_cases"
    for p in sorted(cases.rglob("*.py")):
        if _parses(p):
            target = dest / "cases" / p.relative_to(cases)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(p, target)
    for directory in [d for d in dest.rglob("*") if d.is_dir()]:
        (directory / "__init__.py").touch()


def _standalone(path: Path) -> bool:
    """Parses, and imports nothing relatively (copied flat, a relative import stops mypy with an error)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return False
    return not any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(tree))


def build_safekernels(dest: Path, min_lines: int) -> None:
    sources = [p for p in (REPO / "tests" / "checker_cases").rglob("*.py") if _standalone(p)]
    if (REPO / "examples").exists():
        sources += [p for p in (REPO / "examples").rglob("*.py") if _standalone(p)]
    dest.mkdir(parents=True)
    lines = 0
    copy = 0
    while lines < min_lines:
        for p in sources:
            data = p.read_bytes()  # some cases declare another encoding: copy bytes
            (dest / f"m{copy}_{p.parent.name}_{p.name}").write_bytes(data)
            lines += data.count(b"\n")
        copy += 1


def timed_median(run: Callable[[], float | None], repeat: int) -> float | None:
    """The median of `repeat` runs of `run` (None if any run failed): one run is at the mercy of a shared machine."""
    times = [run() for _ in range(max(repeat, 1))]
    if any(t is None for t in times):
        return None
    return statistics.median(t for t in times if t is not None)


def timed(cmd: list[str], cwd: Path, timeout: float) -> float | None:
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False, env=TOOL_ENV
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.stderr.write(f"{' '.join(cmd)} exited {proc.returncode}: {(proc.stdout + proc.stderr)[-500:]}\n")
        return None
    return elapsed


def _edit_one_file(root: Path) -> tuple[Path, bytes] | None:
    """Append a statement to the first function body of the middle safekernels file (what saving it in an editor
    does); returns the file and its original bytes."""
    files = sorted(p for p in root.rglob("*.py") if b"safekernels" in p.read_bytes())
    for path in files[len(files) // 2 :]:
        data = path.read_bytes()
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.body:
                last = node.body[-1]
                if last.end_lineno is None or last.lineno == node.lineno or isinstance(last, ast.Return):
                    continue
                lines = data.split(b"\n")
                indent = b" " * last.col_offset
                lines.insert(last.end_lineno, indent + b"_edited = 1")
                path.write_bytes(b"\n".join(lines))
                return path, data
    return None


def auto_workers(root: Path) -> int:
    """How many processes `--jobs auto` analyses `root` with on this machine (as the checker itself decides)."""
    code = (
        "from ownership_check.api import check_paths; "
        "print(check_paths(['.'], jobs=0, use_cache=False).workers)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False, env=TOOL_ENV
    )
    try:
        return int(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return 0


def measure(root: Path, skip_mypy: bool, timeout: float, repeat: int = 1) -> list[tuple[str, float | None]]:
    check = [str(BIN / "ownership-check"), ".", "--format", "concise"]
    shutil.rmtree(root / ".ownership_check_cache", ignore_errors=True)
    workers = auto_workers(root)  # untimed: also compiles the checker's bytecode (see `tool_environment`)
    rows = [
        (
            f"ownership-check cold (`--no-cache`, default `--jobs auto`: {workers} process(es) here)",
            timed_median(lambda: timed([*check, "--no-cache"], root, timeout), repeat),
        )
    ]
    rows.append(
        (
            "ownership-check cold `--no-cache --jobs 1` (one process)",
            timed_median(lambda: timed([*check, "--no-cache", "--jobs", "1"], root, timeout), repeat),
        )
    )
    timed(check, root, timeout)  # fill the cache
    rows.append(("ownership-check warm (cache)", timed_median(lambda: timed(check, root, timeout), repeat)))

    def recheck() -> float | None:
        timed(check, root, timeout)  # the cache as it was before the edit
        edited = _edit_one_file(root)
        if edited is None:
            return None
        path, original = edited
        try:
            return timed(check, root, timeout)
        finally:
            path.write_bytes(original)

    rows.append(("ownership-check re-check after editing one file (cache)", timed_median(recheck, repeat)))
    ruff = shutil.which("ruff") or str(BIN / "ruff")
    rows.append(
        (
            "ruff check `--no-cache`",
            timed_median(lambda: timed([ruff, "check", "--no-cache", "--isolated", "-q", "."], root, timeout), repeat),
        )
    )
    if not skip_mypy:

        def mypy_cold() -> float | None:
            cache = tempfile.mkdtemp(prefix="mypy-cache-")
            mypy = [
                str(BIN / "mypy"),
                "--cache-dir",
                cache,
                "--no-error-summary",
                "--ignore-missing-imports",
                "--follow-imports",
                "silent",
                "--explicit-package-bases",
                ".",
            ]
            try:
                return timed(mypy, root, timeout)
            finally:
                shutil.rmtree(cache, ignore_errors=True)

        mypy_cold()  # untimed: compiles the bytecode of mypy's interpreted modules
        rows.append(("mypy (cold cache)", timed_median(mypy_cold, repeat)))
    return rows


def _versions() -> str:
    """The tools' versions, as their own command lines report them."""
    out = []
    for tool, args in (("ownership-check", ["--version"]), ("ruff", ["--version"]), ("mypy", ["--version"])):
        path = str(BIN / tool) if (BIN / tool).exists() else shutil.which(tool) or tool
        try:
            proc = subprocess.run([path, *args], capture_output=True, text=True, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        text = (proc.stdout or proc.stderr).strip().splitlines()
        if text:
            out.append(text[0].replace("(compiled: yes)", "").strip())
    return ", ".join(out)


def table(title: str, root: Path, rows: list[tuple[str, float | None]]) -> str:
    files, lines = count_lines(root)
    out = [
        f"### {title}: {files} files, {lines:,} lines",
        "",
        "| tool / mode | wall s | lines/s |",
        "|---|---:|---:|",
    ]
    for name, seconds in rows:
        if seconds is None:
            out.append(f"| {name} | n/a | n/a |")
        else:
            out.append(f"| {name} | {seconds:.2f} | {lines / seconds:,.0f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", help="also write the markdown report to this file")
    parser.add_argument("--sk-lines", type=int, default=20000, help="size of the safekernels-only corpus")
    parser.add_argument("--skip-mypy", action="store_true", help="do not run mypy (slow on large trees)")
    parser.add_argument("--timeout", type=float, default=900.0, help="per-command timeout, seconds")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median is reported")
    parser.add_argument(
        "--source-only",
        action="store_true",
        help="run the tools with this environment as it is (no bytecode cache if PYTHONDONTWRITEBYTECODE is set)",
    )
    args = parser.parse_args(argv)
    cpu = platform.processor() or platform.machine()
    header = [
        "## ownership-check speed (bench/checker_speed.py)",
        "",
        f"{time.strftime('%Y-%m-%d', time.gmtime())}: Python {platform.python_version()}, {os.cpu_count()} CPUs"
        f" ({cpu}, load average {os.getloadavg()[0]:.1f} at the start), {_versions()}; median of"
        f" {max(args.repeat, 1)} run(s) each, wall clock including interpreter start-up"
        + (
            ", this environment's bytecode setting."
            if args.source_only
            else ", from compiled bytecode (as installed)."
        ),
        "",
    ]
    parts = []
    global TOOL_ENV
    with tempfile.TemporaryDirectory(prefix="checker-bench-") as tmp:
        if not args.source_only:
            TOOL_ENV = tool_environment(Path(tmp) / "pycache")
        mixed = Path(tmp) / "mixed"
        build_mixed(mixed)
        parts.append(
            table(
                "Mixed tree (stdlib top level + golden cases)",
                mixed,
                measure(mixed, args.skip_mypy, args.timeout, args.repeat),
            )
        )
        only = Path(tmp) / "sk"
        build_safekernels(only, args.sk_lines)
        parts.append(
            table("safekernels-only files", only, measure(only, args.skip_mypy, args.timeout, args.repeat))
        )
    report = "\n".join(header) + "\n" + "\n\n".join(parts) + "\n"
    print(report)
    if args.out:
        write_section(Path(args.out), report)
    return 0


def write_section(path: Path, report: str) -> None:
    """Write the report as this script's own `##` section of `path`, replacing an older one."""
    marker = report.split("\n", 1)[0]
    if not path.exists():
        path.write_text(report, encoding="utf-8")
        return
    text = path.read_text(encoding="utf-8")
    start = text.find(marker)
    if start == -1:
        path.write_text(text.rstrip("\n") + "\n\n" + report, encoding="utf-8")
        return
    end = text.find("\n## ", start + len(marker))
    rest = text[end + 1 :] if end != -1 else ""
    path.write_text(text[:start] + report + ("\n" + rest if rest else ""), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
