"""Seeded generator of hostile checker inputs, and a runner that counts crashes, tracebacks and hangs.

    python tests/hostile/checker_fuzz.py --files 5000 --seed 1     # the long run of docs/reliability.md

Each file is a relevant safekernels program (it imports safekernels and launches a kernel) bent one way:
nesting of a random kind and depth (1..6,000), `and`/`or` chains (1..12,000 operands), byte-level mutations of a
buggy program (deleted, duplicated or inserted ranges, stray NUL/CR/BOM/0xff bytes, flipped bytes), line-ending
and encoding changes, and whole lines repeated or swapped.  Files go to one folder per batch, and each batch is
checked by `python -m ownership_check --format json` in a subprocess with a timeout, so a native crash is a
signal exit and a hang a timeout.  A batch passes when the exit status is 0 or 1, stderr has no traceback or
internal error, the JSON parses and every diagnostic names a generated file at a line >= 1.  The same seed
always generates the same files.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hostile_corpus import KERNEL, RELEVANT

NESTING: dict[str, Callable[[int], str]] = {
    "not": lambda n: "not " * n + "x",
    "neg": lambda n: "-" * n + "x",
    "plus": lambda n: " + ".join(["x"] * n),
    "cond": lambda n: "x if x else " * n + "x",
    "subscript": lambda n: "x" + "[0]" * n,
    "call": lambda n: "x" + "()" * n,
    "attr": lambda n: "x" + ".a" * n,
    "lambda": lambda n: "lambda: " * n + "x",
    "power": lambda n: " ** ".join(["x"] * n),
    "tuple": lambda n: "(" * min(n, 300) + "x," + ")" * min(n, 300),
    "list": lambda n: "[" * min(n, 300) + "x" + "]" * min(n, 300),
}
STRAY = [b"\x00", b"\r", b"\xef\xbb\xbf", b"\xff", b"\n", b"\t", b"(", b")", b":", b"'''", b"\\", b"\f", b"\x85"]


def _nesting(rng: random.Random) -> tuple[str, bytes]:
    kind = rng.choice(sorted(NESTING))
    depth = int(rng.choice([rng.randint(1, 500), rng.randint(1, 6000)]))
    return f"nest-{kind}", RELEVANT.format(expr=NESTING[kind](depth)).encode()


def _chain(rng: random.Random) -> tuple[str, bytes]:
    op = rng.choice([" and ", " or ", "\n    and ", "\n    or "])
    n = rng.choice([rng.randint(1, 600), rng.randint(1, 12_000)])
    return "chain", RELEVANT.format(expr="(" + op.join(["x"] * n) + ")").encode()


def _mutate(rng: random.Random) -> tuple[str, bytes]:
    data = bytearray(rng.choice([KERNEL, RELEVANT.format(expr="x")]).encode())
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data))
        j = min(len(data), i + rng.randint(1, 40))
        what = rng.randrange(4)
        if what == 0:
            del data[i:j]
        elif what == 1:
            data[i:i] = data[i:j] * rng.randint(1, 50)
        elif what == 2:
            data[i:i] = rng.choice(STRAY)
        else:
            data[i] = rng.randrange(256)
    return "mutate", bytes(data)


def _endings(rng: random.Random) -> tuple[str, bytes]:
    text = KERNEL
    choice = rng.randrange(4)
    if choice == 0:
        return "endings-cr", text.replace("\n", "\r").encode()
    if choice == 1:
        return "endings-mixed", "".join(line + rng.choice(["\n", "\r\n", "\r"]) for line in text.split("\n")).encode()
    if choice == 2:
        return "encoding-bom", b"\xef\xbb\xbf" + text.encode()
    return "encoding-latin1", ("# -*- coding: latin-1 -*-\n# \xe9\xe8\n" + text).encode("latin-1")


def _lines(rng: random.Random) -> tuple[str, bytes]:
    lines = KERNEL.split("\n")
    for _ in range(rng.randint(1, 3)):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines[i:i] = [lines[j]] * rng.randint(1, 300)
    return "lines", "\n".join(lines).encode()


GENERATORS = [_nesting, _chain, _mutate, _endings, _lines]


def generate(count: int, seed: int) -> list[tuple[str, bytes]]:
    rng = random.Random(seed)
    return [rng.choice(GENERATORS)(rng) for _ in range(count)]


@dataclass
class FuzzReport:
    files: int = 0
    batches: int = 0
    seconds: float = 0.0
    codes: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)  # crashes, tracebacks, hangs, bad output


def run(count: int, seed: int, batch: int = 50, timeout: float = 300, jobs: int = 1) -> FuzzReport:
    report = FuzzReport()
    cases = generate(count, seed)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="checker-fuzz-") as tmp:
        for first in range(0, len(cases), batch):
            folder = Path(tmp) / f"batch{first // batch:04d}"
            folder.mkdir()
            names = set()
            for k, (kind, data) in enumerate(cases[first : first + batch], start=first):
                name = f"case{k:05d}_{kind}.py"
                (folder / name).write_bytes(data)
                names.add(f"{folder.name}/{name}")
                report.kinds[kind] += 1
            report.files += len(names)
            report.batches += 1
            where = f"seed {seed}, files {first}..{first + len(names) - 1}"
            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "ownership_check", folder.name, "--no-cache", "--format", "json",
                     "--jobs", str(jobs)],
                    cwd=tmp, capture_output=True, text=True, timeout=timeout,
                )
            except subprocess.TimeoutExpired:
                report.failures.append(f"{where}: hang (no answer in {timeout:g} s)")
                continue
            if proc.returncode not in (0, 1):
                report.failures.append(f"{where}: exit status {proc.returncode}\n{proc.stderr[-3000:]}")
                continue
            if "Traceback" in proc.stderr or "internal error" in proc.stderr:
                report.failures.append(f"{where}: traceback\n{proc.stderr[-3000:]}")
                continue
            try:
                diagnostics = json.loads(proc.stdout)["diagnostics"]
            except (ValueError, KeyError) as exc:
                report.failures.append(f"{where}: unreadable JSON ({exc})")
                continue
            for diag in diagnostics:
                if diag["path"] not in names or diag["line"] < 1 or diag["column"] < 1:
                    report.failures.append(f"{where}: diagnostic at a bad place: {diag}")
                report.codes[diag["code"]] += 1
    report.seconds = time.perf_counter() - start
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    report = run(args.files, args.seed, args.batch, jobs=args.jobs)
    print(f"{report.files} files in {report.batches} batches, {report.seconds:.0f} s, seed {args.seed}")
    print("kinds:", dict(sorted(report.kinds.items())))
    print("diagnostics:", dict(sorted(report.codes.items())))
    print(f"failures (crash, traceback, hang, bad output): {len(report.failures)}")
    for failure in report.failures:
        print("----", failure, sep="\n")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
