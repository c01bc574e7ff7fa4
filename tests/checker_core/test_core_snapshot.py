"""Differential guard for the core: every stored IR function still gets exactly the stored diagnostics.

`core_snapshot.json.gz` holds lowered IR (the golden corpus and a generated safekernels project, through both
front ends, plus seeded random functions) with the diagnostics the core gave before its performance rewrite
(see `make_core_snapshot.py`).  Any change of code, message, span, label, note or help fails here.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from core_ir_codec import decode_diagnostic, decode_function, encode, encode_diagnostic
from core_ir_fuzz import random_function

from ownership_check.core import check_function

SNAPSHOT = Path(__file__).resolve().parent / "core_snapshot.json.gz"


def _entries() -> list[dict[str, Any]]:
    with gzip.open(SNAPSHOT, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    entries: list[dict[str, Any]] = data["functions"]
    return entries


def test_snapshot_covers_real_and_random_functions() -> None:
    names = [e["ir"]["name"] for e in _entries()]
    assert sum(not n.startswith("fuzz_") for n in names) >= 400
    assert sum(n.startswith("fuzz_") for n in names) >= 300
    assert sum(len(e["diagnostics"]) for e in _entries()) >= 3000


def test_every_snapshot_function_keeps_its_diagnostics() -> None:
    mismatches = []
    for entry in _entries():
        function = decode_function(entry["ir"])
        expected = [decode_diagnostic(d) for d in entry["diagnostics"]]
        actual = check_function(function)
        if actual != expected:
            mismatches.append((function.name, function.path, [encode_diagnostic(d) for d in actual]))
    assert not mismatches, mismatches[:3]


def test_codec_round_trips_and_fuzz_is_deterministic() -> None:
    function = random_function(7)
    assert decode_function(encode(function)) == function
    assert random_function(7) == function
    entry = next(e for e in _entries() if e["ir"]["name"] != "fuzz_7")
    assert encode(decode_function(entry["ir"])) == entry["ir"]


def test_core_is_deterministic_per_function() -> None:
    for seed in range(40):
        function = random_function(seed)
        assert check_function(function) == check_function(function)
