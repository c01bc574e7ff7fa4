"""The long differential fuzz run (not part of the test suite): seeded programs in batches, counts at the end.

    .venv/bin/python tests/checker_fuzz/run_long.py --programs 3000 [--first-seed 0] [--batch 100]

Prints the counts (programs, typed by mypy, diagnostics, internal errors, disagreements, runtime errors and how many
of their lines the checker missed) and the first few failing programs; exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parent / "mypy_plugin")]

from differential import Counts, describe, run_batch  # noqa: E402
from programs import random_program  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=3000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--max-statements", type=int, default=8)
    args = parser.parse_args(argv)
    counts = Counts()
    failures = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "mypy-cache"
        for first in range(args.first_seed, args.first_seed + args.programs, args.batch):
            last = min(first + args.batch, args.first_seed + args.programs)
            sources = [random_program(seed, args.max_statements) for seed in range(first, last)]
            directory = Path(tmp) / f"batch{first}"
            directory.mkdir()
            for outcome in run_batch(sources, directory, cache):
                counts.add(outcome)
                if outcome.internal_errors or (outcome.disagrees and outcome.typed) or outcome.missed_runtime_lines:
                    failures.append(outcome)
            print(f"{last - args.first_seed} programs: {counts}", flush=True)
    print(f"done in {time.perf_counter() - start:.0f} s: {counts}")
    for outcome in failures[:5]:
        print(describe(outcome))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
