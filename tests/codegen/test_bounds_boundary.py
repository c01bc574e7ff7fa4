"""Boundary values of the SIMT bounds checks, decided from the emitted LLVM IR (issue 15, item 17).

A golden test that only looks for `trap;` in the PTX, and a GPU test that reads a million elements past the end,
both pass when the check is `index <= len` instead of `index < len`.  Here every bounds-check branch of the
unoptimized LLVM IR (`icmp` feeding `br i1 %c, label %ok, label %trap`) is evaluated at the boundary: index
`len - 1` must reach `ok`, index `len` (and `len + 1`, and a negative index seen as a huge unsigned one) must
reach `trap`.  The GPU suite runs the same probe on the device (tests/gpu: `read_at`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from safekernels import codegen, simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
from conftest_helpers import load  # noqa: E402

CATALOG: Any = load(ROOT / "tests/codegen/kernels_catalog.py", "kernels_catalog")
U64 = (1 << 64) - 1

_BRANCH = re.compile(r'br i1 (%"?[\w.]+"?), label %"?(ok[\w.]*)"?, label %"?(trap[\w.]*)"?')
_ICMP = r'{name} = icmp (\w+) i64 (%"?[\w.]+"?|-?\d+), (%"?[\w.]+"?|-?\d+)'
_LENGTH = r'{name} = extractvalue \{{[^}}]*\}} %"?[\w.]+"?, 1$'


def _signed(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


PREDICATES = {
    "ult": lambda a, b: a < b,
    "ule": lambda a, b: a <= b,
    "ugt": lambda a, b: a > b,
    "uge": lambda a, b: a >= b,
    "slt": lambda a, b: _signed(a) < _signed(b),
    "sle": lambda a, b: _signed(a) <= _signed(b),
    "sgt": lambda a, b: _signed(a) > _signed(b),
    "sge": lambda a, b: _signed(a) >= _signed(b),
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
}


def bounds_checks(ir: str) -> list[tuple[str, bool, int | None]]:
    """(predicate, index_is_left, constant length or None) for every `icmp` branch to the trap block (other
    trap branches test an `Optional`'s flag or a `range` step, not an index)."""
    checks = []
    for cond, _ok, _trap in _BRANCH.findall(ir):
        match = re.search(_ICMP.format(name=re.escape(cond)), ir)
        if match is None:
            continue
        pred, left, right = match.groups()

        def is_const(operand: str) -> bool:
            return re.fullmatch(r"-?\d+", operand) is not None

        def is_slice_length(operand: str) -> bool:
            return re.search(_LENGTH.format(name=re.escape(operand)), ir, re.MULTILINE) is not None

        if is_slice_length(left) or is_slice_length(right):  # a slice: the length is `extractvalue ..., 1`
            right_len = is_slice_length(right)
            index = left if right_len else right
        else:  # a shared array: the length is a constant
            right_len = is_const(right)
            index = left if right_len else right
        if is_const(index):
            continue  # a constant index (`s[0]`, `fetch_add(0, v)`): nothing to vary
        constant = right if right_len else left
        length = int(constant) if is_const(constant) else None
        checks.append((pred, right_len, length))
    return checks


def reaches_ok(check: tuple[str, bool, int | None], index: int, length: int) -> bool:
    pred, index_is_left, _ = check
    a, b = (index, length) if index_is_left else (length, index)
    return bool(PREDICATES[pred](a & U64, b & U64))


def ir_of(kernel: Any) -> str:
    return str(codegen.compile_simt_kernel(kernel, arch="sm_90", use_cache=False).llvm_ir)


@pytest.mark.parametrize("kernel_name", ["read_at", "block_sum", "warp_sums", "out_of_bounds"])
def test_every_bounds_check_passes_len_minus_one_and_traps_at_len(kernel_name: str) -> None:
    checks = bounds_checks(ir_of(getattr(CATALOG, kernel_name)))
    assert checks, f"{kernel_name}: no bounds check found"
    for check in checks:
        lengths = [check[2]] if check[2] is not None else [1, 10, 1 << 20]
        for length in lengths:
            assert length is not None
            assert reaches_ok(check, length - 1, length), (kernel_name, check, "len - 1 must be readable")
            assert reaches_ok(check, 0, length), (kernel_name, check)
            assert not reaches_ok(check, length, length), (kernel_name, check, "index == len must trap")
            assert not reaches_ok(check, length + 1, length), (kernel_name, check)
            assert not reaches_ok(check, -1, length), (kernel_name, check, "a negative index must trap")
        if check[2] is None:
            assert not reaches_ok(check, 0, 0), (kernel_name, check, "nothing is readable in an empty slice")


@simt.kernel
@simt.launch_contract(block=32)
def count_at(keys: Slice[u32], counts: AtomicSlice[u32], shared_probe: DisjointSlice[f32]) -> None:
    """An atomic and a shared-array access at data-dependent indices: both must be bounds-checked."""
    i = thread.index_1d().get()
    if i < len(keys):
        counts.fetch_add(keys[i], u32(1))
    with simt.unsafe():
        s = simt.shared_array(f32, 32)
        s[thread.thread_idx_x()] = f32(1.0)
    thread.sync_threads()
    with simt.unsafe():
        v = s[keys[0]] if len(keys) > 0 else f32(0.0)
    if (out := shared_probe.get_mut(thread.index_1d())) is not None:
        out.set(v)


def test_atomics_and_shared_arrays_are_bounds_checked_at_the_boundary() -> None:
    checks = bounds_checks(ir_of(count_at))
    slice_checks = [c for c in checks if c[2] is None]
    shared_checks = [c for c in checks if c[2] == 32]
    assert len(slice_checks) >= 2, checks  # keys[i] and counts.fetch_add(keys[i], ...) (and keys[0])
    assert shared_checks, checks  # s[keys[0]]
    for check in checks:
        length = check[2] if check[2] is not None else 10
        assert reaches_ok(check, length - 1, length) and not reaches_ok(check, length, length), check


def test_unchecked_indexing_has_no_trap_branch() -> None:
    assert bounds_checks(ir_of(CATALOG.unchecked_copy)) == []


def test_the_evaluator_tells_lt_from_le() -> None:
    ir = 'ok:\n  %"l" = extractvalue {ptr, i64} %"a", 1\n  %"c" = icmp ule i64 %"i", %"l"\n'
    ir += '  br i1 %"c", label %"ok", label %"trap"\n'
    (check,) = bounds_checks(ir)
    assert reaches_ok(check, 10, 10)  # the mutant `<=` lets index == len through: the test above rejects it
