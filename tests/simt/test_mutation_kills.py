"""Boundary and wording tests written to kill mutants that survived mutation testing (docs/reliability.md).

Each test pins one behaviour a mutant changed without any other test noticing: the inclusive ends of a shared
memory range and of every device limit, exact adjacency of pending `launch_async` borrows, the order in which
pending borrows and empty buffers are scanned, `requires` arithmetic messages, and the relation text in launch
errors for a kernel decorated at run time.  `bench/tools/mutation.py` lists the groups these tests serve.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u8, u32, u64
from safekernels.errors import BorrowError
from safekernels.runtime.limits import CPU_EXECUTOR_LIMITS
from safekernels.simt import DisjointSlice, LaunchContractError, Slice, thread
from safekernels.simt.requires import parse_requires
from safekernels.simt.validation import FunctionLimits, validate_dynamic_shared, validate_live, validate_rank

DEV = sk.Device.cpu()


def contract_of(**kwargs: Any) -> Any:
    @simt.kernel
    @simt.launch_contract(**kwargs)
    def k(a: Slice[f32], c: DisjointSlice[f32], n: u32, m: u64) -> None:
        pass

    return k.contract


# -- launch validation: every limit is inclusive -----------------------------------------------------------------
def test_a_dynamic_shared_range_includes_both_ends() -> None:
    contract = contract_of(block=32, dynamic_shared=(16, 64))
    for ok in (16, 40, 64):
        validate_dynamic_shared("k", contract, ok)
    for bad in (15, 65):
        with pytest.raises(LaunchContractError, match=rf"^k: dynamic shared memory of {bad} bytes is outside"):
            validate_dynamic_shared("k", contract, bad)


LIMITS = dataclasses.replace(
    CPU_EXECUTOR_LIMITS,
    max_grid_dim=(100, 50, 7),
    max_block_dim=(64, 32, 4),
    max_threads_per_block=128,
    max_shared_memory_per_block=1000,
    max_shared_memory_per_block_optin=3000,
)


def test_every_device_limit_is_inclusive() -> None:
    contract = contract_of(dynamic_shared=(0, 2000))
    function = FunctionLimits(128, 1000)
    validate_live("k", contract, (100, 50, 7), (64, 2, 1), LIMITS, function)  # each at its maximum
    validate_live("k", contract, (1, 1, 1), (1, 32, 4), LIMITS, function)
    validate_live("k", contract, (1, 1, 1), (32, 4, 1), LIMITS, function)  # 128 threads: both maxima
    cases = [
        ((101, 1, 1), (1, 1, 1), "grid dimension x = 101 exceeds the device maximum 100"),
        ((1, 51, 1), (1, 1, 1), "grid dimension y = 51"),
        ((1, 1, 8), (1, 1, 1), "grid dimension z = 8"),
        ((1, 1, 1), (65, 1, 1), "block dimension x = 65 exceeds the device maximum 64"),
        ((1, 1, 1), (1, 33, 1), "block dimension y = 33"),
        ((1, 1, 1), (1, 1, 5), "block dimension z = 5"),
        ((1, 1, 1), (64, 3, 1), "block has 192 threads; device maximum is 128"),
    ]
    for grid, block, message in cases:
        with pytest.raises(LaunchContractError, match=rf"^k: {message}"):
            validate_live("k", contract, grid, block, LIMITS, function)


def test_function_limits_are_inclusive() -> None:
    contract = contract_of(dynamic_shared=(0, 2000))
    validate_live("k", contract, (1, 1, 1), (8, 4, 1), LIMITS, FunctionLimits(32, 1000))
    with pytest.raises(LaunchContractError, match=r"^k: block has 33 threads; function maximum is 32"):
        validate_live("k", contract, (1, 1, 1), (33, 1, 1), LIMITS, FunctionLimits(32, 0))
    with pytest.raises(LaunchContractError, match=r"^k: 1001 shared-memory bytes exceed the device portable"):
        validate_live("k", contract, (1, 1, 1), (1, 1, 1), LIMITS, FunctionLimits(32, 1001))
    validate_live("k", contract_of(dynamic_shared=2000), (1, 1, 1), (1, 1, 1), LIMITS, FunctionLimits(32, 1000))
    with pytest.raises(LaunchContractError, match=r"^k: 3001 shared-memory bytes exceed the device opt-in limit"):
        validate_live("k", contract_of(dynamic_shared=2001), (1, 1, 1), (1, 1, 1), LIMITS, FunctionLimits(32, 1000))


def test_the_cpu_executor_reports_no_static_shared_memory() -> None:
    assert FunctionLimits.of_device(LIMITS) == FunctionLimits(128, 0)
    # the whole opt-in budget is available to dynamic shared memory on the CPU executor
    validate_live("k", contract_of(dynamic_shared=3000), (1, 1, 1), (1, 1, 1), LIMITS, FunctionLimits.of_device(LIMITS))


def test_a_rank_mismatch_names_the_configuration_given() -> None:
    contract = contract_of(domain=2, block=(8, 8))
    with pytest.raises(
        LaunchContractError, match=r"expected LaunchConfig2D for a domain=2 contract, found LaunchConfig1D"
    ):
        validate_rank("k", contract, simt.LaunchConfig1D(1, 64))


# -- pending launch_async borrows: exact overlap, scan order ----------------------------------------------------
@simt.kernel
@simt.launch_contract(block=32)
def copy_k(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(a) and (out := c.get_mut(idx)) is not None:
        out.set(a[i])


@simt.kernel
@simt.launch_contract(block=32)
def copy_u8(a: Slice[u8], c: DisjointSlice[u8]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(a) and (out := c.get_mut(idx)) is not None:
        out.set(a[i])


def _prepared(kernel: Any = copy_k) -> Any:
    return kernel.prepare(simt.LaunchConfig1D(1, 32), DEV)


def test_adjacent_buffers_do_not_conflict_with_a_pending_borrow() -> None:
    prepared, stream = _prepared(), DEV.new_stream()
    whole = sk.zeros(16, f32)
    low, high = whole.split_at(8)
    source = sk.to_device(np.arange(8, dtype=np.float32))
    op = copy_k.launch_async(prepared, source, low)  # [0, 8) mutably borrowed
    copy_k.launch(prepared, stream, source, high)  # [8, 16): starts exactly where the borrow ends
    with pytest.raises(BorrowError):
        copy_k.launch(prepared, stream, source, whole.view(7, 15))
    op.sync_on(stream)
    op = copy_k.launch_async(prepared, source, high)  # [8, 16) borrowed
    copy_k.launch(prepared, stream, source, low)  # [0, 8): ends exactly where the borrow starts
    with pytest.raises(BorrowError):
        copy_k.launch(prepared, stream, source, whole.view(1, 9))
    op.sync_on(stream)
    np.testing.assert_array_equal(whole.to_numpy(), np.tile(np.arange(8, dtype=np.float32), 2))


def test_an_empty_argument_does_not_hide_a_later_conflict() -> None:
    prepared, stream = _prepared(), DEV.new_stream()
    out = sk.zeros(8, f32)
    op = copy_k.launch_async(prepared, sk.zeros(8, f32), out)
    with pytest.raises(BorrowError, match=r"cannot borrow `c` as mutable more than once at a time \(E0499\)"):
        copy_k.launch(prepared, stream, sk.zeros(0, f32), out)  # `a` is empty, `c` conflicts
    op.sync_on(stream)


def test_a_one_byte_buffer_still_conflicts() -> None:
    prepared, stream = _prepared(copy_u8), DEV.new_stream()
    tiny = sk.zeros(1, u8)
    op = copy_u8.launch_async(prepared, sk.zeros(1, u8), tiny)
    with pytest.raises(BorrowError, match=r"cannot borrow `a` as immutable because it is also borrowed as mutable"):
        copy_u8.launch(prepared, stream, tiny, sk.zeros(1, u8))
    op.sync_on(stream)


def test_every_pending_record_is_checked_not_only_the_first() -> None:
    prepared, stream = _prepared(), DEV.new_stream()
    first, second = sk.zeros(8, f32), sk.zeros(8, f32)
    source = sk.zeros(8, f32)
    op1 = copy_k.launch_async(prepared, source, first)
    op2 = copy_k.launch_async(prepared, source, second)
    with pytest.raises(BorrowError) as info:
        copy_k.launch(prepared, stream, sk.zeros(8, f32), second)  # conflicts with the later record only
    assert str(info.value) == (
        "cannot borrow `c` as mutable more than once at a time (E0499): argument `c` of `copy_k` overlaps "
        "argument `c` of a pending `copy_k.launch_async`; sync that DeviceOp first"
    )
    with pytest.raises(BorrowError) as info:
        copy_k.launch(prepared, stream, second, sk.zeros(8, f32))
    assert str(info.value) == (
        "cannot borrow `a` as immutable because it is also borrowed as mutable (E0502): argument `a` of `copy_k` "
        "overlaps argument `c` of a pending `copy_k.launch_async`; sync that DeviceOp first"
    )
    op1.sync_on(stream)
    op2.sync_on(stream)


def test_a_shared_pending_borrow_does_not_end_the_scan() -> None:
    """A read next to a pending read is no conflict, but the scan must go on to a pending write after it."""
    prepared, stream = _prepared(), DEV.new_stream()
    whole = sk.zeros(16, f32)
    op1 = copy_k.launch_async(prepared, whole.view(0, 8), sk.zeros(8, f32))  # reads [0, 8)
    op2 = copy_k.launch_async(prepared, sk.zeros(8, f32), whole.view(8, 16))  # writes [8, 16)
    with pytest.raises(BorrowError, match=r"cannot borrow `a` as immutable because it is also borrowed as mutable"):
        copy_k.launch(prepared, stream, whole, sk.zeros(16, f32))  # reads both halves
    copy_k.launch(prepared, stream, whole.view(0, 8), sk.zeros(8, f32))  # reading what is only read: fine
    op1.sync_on(stream)
    op2.sync_on(stream)


# -- requires: messages and run-time decoration ------------------------------------------------------------------
def test_u64_overflow_names_the_operation() -> None:
    @simt.kernel
    @simt.launch_contract(block=32, requires=("len(a) - n >= 1",))
    def sub(a: Slice[f32], c: DisjointSlice[f32], n: u32) -> None:
        pass

    prepared = sub.prepare(simt.LaunchConfig1D(1, 32), DEV)
    with pytest.raises(LaunchContractError) as info:
        sub.launch(prepared, DEV.new_stream(), sk.zeros(4, f32), sk.zeros(4, f32), 5)
    assert str(info.value) == "sub: requirement `len(a) - n >= 1` overflows u64 (4 - 5 leaves the u64 range)"


@pytest.mark.parametrize(
    ("relation", "n", "message"),
    [
        ("len(a) >= n", 11, "left side = 10, right side = 11"),
        ("len(a) + 2 == n", 11, "left side = 12, right side = 11"),
        ("n * 2 < len(c)", 5, "left side = 10, right side = 10"),
        ("len(a) > n", 10, "left side = 10, right side = 10"),
    ],
)
def test_a_violated_relation_quotes_its_text_and_both_sides(relation: str, n: int, message: str) -> None:
    @simt.kernel
    @simt.launch_contract(block=32, requires=(relation,))
    def rel(a: Slice[f32], c: DisjointSlice[f32], n: u32) -> None:
        pass

    prepared = rel.prepare(simt.LaunchConfig1D(1, 32), DEV)
    with pytest.raises(LaunchContractError) as info:
        rel.launch(prepared, DEV.new_stream(), sk.zeros(10, f32), sk.zeros(10, f32), n)
    assert str(info.value) == f"rel: requirement `{relation}` is violated ({message})"


def test_a_relation_without_comparison_is_named_exactly() -> None:
    with pytest.raises(LaunchContractError) as info:
        contract_of(block=32, requires=("len(a) + n",))
    assert str(info.value).startswith(
        "k: expected exactly one comparison (< <= > >= == !=), found none in requires `len(a) + n`"
    )


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_every_comparison_compiles_for_the_fast_path(op: str) -> None:
    params = contract_params()
    (relation,) = parse_requires("k", (f"len(a) {op} n + 1",), params)
    lines = relation.fast_check_lines({"a": "la", "c": "lc"}, {"n": "n", "m": "m"}, "t")
    namespace: dict[str, Any] = {}
    exec("def check(la, n):\n" + "".join(f"    {line}\n" for line in lines) + "    return True\n", namespace)
    for la, n in itertools.product([0, 1, 2, 3], repeat=2):
        assert namespace["check"](la, n) is relation.evaluate({"a": la}, {"n": n})[0], (op, la, n)


def contract_params() -> Any:
    @simt.kernel
    @simt.launch_contract(block=32)
    def k(a: Slice[f32], c: DisjointSlice[f32], n: u32, m: u64) -> None:
        pass

    return k.params
