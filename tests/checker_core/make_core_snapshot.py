"""(Re)write `core_snapshot.json.gz`: lowered IR functions with the diagnostics the core gives them.

Run only to extend the snapshot, with a core whose output is trusted (the snapshot was first written with the
core as it was before its performance rewrite, from a copy of that version importable as `--checker MODULE`):

    .venv/bin/python bench/tools/core_speed.py collect --lines 2000 --out /tmp/core_ir.json
    .venv/bin/python tests/checker_core/make_core_snapshot.py /tmp/core_ir.json [--checker MODULE]

After a deliberate change of what the core reports (each change listed in docs/checker-internals.md), keep the
stored IR and re-diagnose it, then review the difference (`git diff --stat` shows only this file):

    .venv/bin/python tests/checker_core/make_core_snapshot.py --refresh

Inputs: IR collected by `bench/tools/core_speed.py collect` (the golden corpus and a generated project through both
front ends) plus seeded random functions from `core_ir_fuzz`.  Each function is checked in several processes
with different `PYTHONHASHSEED`s and kept only when they all agree: the pre-rewrite core picked among several
conflicting loans in set order, so a few of its answers varied from run to run, and those pin nothing.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_ir_codec import decode_function, encode, encode_diagnostic
from core_ir_fuzz import random_function

from ownership_check.core import ir

SNAPSHOT = Path(__file__).resolve().parent / "core_snapshot.json.gz"
FUZZ_SEEDS = range(600)
HASH_SEEDS = tuple(str(n) for n in range(12))


def _diagnose(ir_file: str, checker: str, out_file: str) -> None:
    check = importlib.import_module(checker).check_function
    functions = [decode_function(d) for d in json.loads(Path(ir_file).read_text(encoding="utf-8"))]
    result = [[encode_diagnostic(d) for d in check(f)] for f in functions]
    Path(out_file).write_text(json.dumps(result), encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ir", nargs="*", type=Path)
    parser.add_argument("--checker", default="ownership_check.core.checker")
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="re-diagnose the IR already in the snapshot (after a deliberate change of what the core reports)",
    )
    parser.add_argument("--diagnose", nargs=2, metavar=("IR", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.diagnose:
        _diagnose(args.diagnose[0], args.checker, args.diagnose[1])
        return 0
    functions: dict[ir.Function, None] = {}
    if args.refresh:
        with gzip.open(SNAPSHOT, "rt", encoding="utf-8") as fh:
            for entry in json.load(fh)["functions"]:
                functions.setdefault(decode_function(entry["ir"]), None)
    for name in args.ir:
        for data in json.loads(name.read_text(encoding="utf-8")):
            functions.setdefault(decode_function(data), None)
    for seed in FUZZ_SEEDS:
        functions.setdefault(random_function(seed), None)
    encoded = [encode(f) for f in functions]
    runs: list[list[Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        ir_file = os.path.join(tmp, "ir.json")
        Path(ir_file).write_text(json.dumps(encoded), encoding="utf-8")
        for hash_seed in HASH_SEEDS:
            out_file = os.path.join(tmp, f"out{hash_seed}.json")
            subprocess.run(
                [sys.executable, __file__, "--checker", args.checker, "--diagnose", ir_file, out_file],
                check=True,
                env={**os.environ, "PYTHONHASHSEED": hash_seed},
            )
            runs.append(json.loads(Path(out_file).read_text(encoding="utf-8")))
    entries = [
        {"ir": data, "diagnostics": runs[0][k]}
        for k, data in enumerate(encoded)
        if all(run[k] == runs[0][k] for run in runs)
    ]
    with gzip.open(SNAPSHOT, "wt", encoding="utf-8") as fh:
        json.dump({"version": 1, "functions": entries}, fh, separators=(",", ":"))
    dropped = len(encoded) - len(entries)
    print(
        f"{len(entries)} functions ({dropped} dropped: answer varied with the hash seed), "
        f"{sum(len(e['diagnostics']) for e in entries)} diagnostics -> {SNAPSHOT}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
