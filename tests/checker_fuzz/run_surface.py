"""The long run of the surface generator (not part of the test suite): seeded programs in batches, then the report.

    .venv/bin/python tests/checker_fuzz/run_surface.py --programs 1000 [--first-seed 0] [--batch 100] [--save F]
    .venv/bin/python tests/checker_fuzz/run_surface.py --merge F1 F2 ...   (one report over chunks run apart)

Prints the table's coverage, misses, candidate false alarms by class, CLI/plugin disagreements and W0003 against
its runtime twin (`surface_run.SurfaceReport`), and the first few failing programs; exit status 1 on a miss, a
disagreement or an internal error.  `SAFEKERNELS_SURFACE_PROGRAMS=N` makes the CI test run N programs instead.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import tempfile
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parent / "mypy_plugin")]

from surface import random_program  # noqa: E402
from surface_run import SurfaceReport, run_surface  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--statements", type=int, default=8)
    parser.add_argument("--minimum", type=int, default=20, help="coverage every entry must reach")
    parser.add_argument("--save", type=Path, help="also write the report here (pickle), for --merge")
    parser.add_argument("--merge", type=Path, nargs="+", help="print one report over saved chunks, run nothing")
    args = parser.parse_args(argv)
    os.environ.setdefault("SAFEKERNELS_NO_CACHE", "1")  # autotuned kernels: no tuning files left behind
    report = SurfaceReport()
    start = time.perf_counter()
    if args.merge:
        for path in args.merge:
            chunk: SurfaceReport = pickle.loads(path.read_bytes())
            report.merge(chunk)
        return _print(report, args.minimum, start)
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "mypy-cache"
        for first in range(args.first_seed, args.first_seed + args.programs, args.batch):
            last = min(first + args.batch, args.first_seed + args.programs)
            directory = Path(tmp) / f"batch{first}"
            directory.mkdir()
            run_surface([random_program(s, args.statements) for s in range(first, last)], directory, cache, report)
            print(f"{last - args.first_seed} programs, {time.perf_counter() - start:.0f} s: misses "
                  f"{len(report.misses)}, disagreements {len(report.disagreements)}", flush=True)
    if args.save is not None:
        args.save.write_bytes(pickle.dumps(report))
    return _print(report, args.minimum, start)


def _print(report: SurfaceReport, minimum: int, start: float) -> int:
    print(f"done in {time.perf_counter() - start:.0f} s")
    print(report.table(minimum))
    for failure in report.failures():
        print(failure)
    for key, outcome in list(report.false_alarm_examples.items())[:8]:
        print(f"--- candidate false alarm {key}:\n{outcome.source.split('def main', 1)[1][:1500]}")
    under = report.under_covered(minimum)
    if under:
        print(f"under-covered (< {minimum}): {under}")
    return 1 if report.failures() or under else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
