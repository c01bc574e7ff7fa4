"""Time the checker core alone (`check_function` on already-lowered IR), apart from parsing and lowering.

`collect` lowers the golden corpus and a generated safekernels project (bench/mypy_plugin_overhead.py's
generator) with both front ends, recording every distinct `ir.Function` handed to the core, and writes them as
JSON; `time` loads such a file and reports the core's time over all of them (best of `--repeat`).

    .venv/bin/python bench/tools/core_speed.py collect --lines 20000 --out /tmp/core_ir.json
    .venv/bin/python bench/tools/core_speed.py time /tmp/core_ir.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "bench"), str(REPO / "tests" / "checker_core")]

from core_ir_codec import decode_function, encode  # noqa: E402

from ownership_check.core import check_function, ir  # noqa: E402
from ownership_check.diagnostics import Diagnostic  # noqa: E402


@contextmanager
def recording(module: Any, into: dict[ir.Function, None]) -> Iterator[None]:
    original: Callable[[ir.Function], list[Diagnostic]] = module.check_function

    def record(function: ir.Function) -> list[Diagnostic]:
        into.setdefault(function, None)
        return original(function)

    module.check_function = record
    try:
        yield
    finally:
        module.check_function = original


def lower_cli(root: Path, names: list[str], into: dict[ir.Function, None]) -> None:
    from ownership_check import api, runner

    cwd = os.getcwd()
    os.chdir(root)
    try:
        with recording(runner, into):
            for name in names:
                api.check_paths([name], use_cache=False)
    finally:
        os.chdir(cwd)


def lower_mypy(root: Path, files: list[str], into: dict[ir.Function, None]) -> None:
    from mypy import api as mypy_api

    from mypy_plugin import reporting

    config = root / "bench-mypy.ini"
    config.write_text(
        "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\nallow_redefinition_new = True\n"
        f"local_partial_types = True\nmypy_path = {REPO / 'src'}\n",
        encoding="utf-8",
    )
    cwd = os.getcwd()
    os.chdir(root)
    try:
        with recording(reporting, into), tempfile.TemporaryDirectory() as cache:
            reporting.CORE.entries.clear()
            mypy_api.run(["--config-file", str(config), "--cache-dir", cache, *files])
    finally:
        os.chdir(cwd)


def collect(lines: int, corpus: bool) -> list[ir.Function]:
    from mypy_plugin_overhead import generate_project, python_files

    found: dict[ir.Function, None] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if corpus:
            cases = REPO / "tests" / "checker_cases"
            names = []
            for case in sorted(cases.iterdir()):
                if case.name.startswith((".", "__")) or not (case.is_dir() or case.suffix == ".py"):
                    continue
                if case.is_dir():
                    shutil.copytree(case, Path(tmp) / case.name, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copy2(case, Path(tmp) / case.name)
                names.append(case.name)
            lower_cli(Path(tmp), names, found)
            for name in names:
                target = Path(tmp) / name
                files = python_files(target) if target.is_dir() else [target.name]
                lower_mypy(target if target.is_dir() else Path(tmp), files, found)
        if lines:
            project = Path(tmp) / "generated"
            generate_project(project, lines)
            lower_cli(project, ["."], found)
            lower_mypy(project, python_files(project), found)
    return list(found)


def time_core(functions: list[ir.Function], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for f in functions:
            check_function(f)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--lines", type=int, default=20_000)
    c.add_argument("--no-corpus", action="store_true")
    c.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("time")
    t.add_argument("ir", type=Path)
    t.add_argument("--repeat", type=int, default=3)
    t.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    if args.cmd == "collect":
        functions = collect(args.lines, not args.no_corpus)
        args.out.write_text(json.dumps([encode(f) for f in functions]), encoding="utf-8")
        print(f"{len(functions)} functions -> {args.out}")
        return 0
    functions = [decode_function(d) for d in json.loads(args.ir.read_text(encoding="utf-8"))]
    gc.collect()
    gc.freeze()  # the decoded IR is large and long-lived: keep full collections from timing it
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("time_core(functions, 1)", globals(), {"functions": functions, "time_core": time_core},
                        "/tmp/core.prof")
        pstats.Stats("/tmp/core.prof").sort_stats("tottime").print_stats(25)
        return 0
    seconds = time_core(functions, args.repeat)
    ops = sum(1 for _ in functions)
    print(f"{ops} functions: core {seconds * 1000:.1f} ms (best of {args.repeat})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
