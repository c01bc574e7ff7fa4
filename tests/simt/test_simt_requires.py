"""The `requires` grammar: each rejection at decoration time, and evaluation at launch."""

from __future__ import annotations

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32, u64
from safekernels.simt import DisjointSlice, LaunchContractError, Slice, thread


def make(requires: str) -> None:
    @simt.kernel
    @simt.launch_contract(block=32, requires=(requires,))
    def k(a: Slice[f32], c: DisjointSlice[f32], n: u32, m: u64, s: i32, x: f32) -> None:
        pass


OPERANDS = "available operands: len(a), len(c), n, m, integer literals"


@pytest.mark.parametrize(
    "relation",
    [
        "len(a) >= n",
        "len(c) == n * 2 + 1",
        "(n + m) * 4 <= len(a) - 1",
        "len(a) != 0",
        "n < m",
        "len(a) > 3 * (n - 1)",
    ],
)
def test_accepted(relation: str) -> None:
    make(relation)


@pytest.mark.parametrize(
    ("relation", "problem"),
    [
        ("len(a) >= k", "unknown identifier `k`"),
        ("len(z) >= n", "unknown identifier `z`"),
        ("len(n) >= 1", "`len(n)`: `n` is a scalar parameter"),
        ("a >= n", "slice parameter `a` used without len()"),
        ("len(a) >= n / 2", "operator `/` is not supported"),
        ("len(a) >= n % 2", "operator `%` is not supported"),
        ("len(a) >= n << 1", "operator `<<` is not supported"),
        ("len(a) >= s", "signed integer parameter `s: i32` is not supported"),
        ("len(a) >= x", "non-integer parameter `x: f32` is not supported"),
        ("len(a) >= -n", "unary operator `-` is not supported"),
        ("len(a) >= 1.5", "literal `1.5` is not an integer literal"),
        ("len(a) + n", "expected exactly one comparison"),
        ("0 < n < len(a)", "found 2 (chained comparison)"),
        ("len(a) >= max(n, m)", "call `max(...)` is not supported"),
        ("len(a) >= a.size", "`a.size` is not supported"),
        ("len(a) >=", "syntax error"),
        ("n in a", "comparison `in` is not supported"),
    ],
)
def test_rejected_with_token_and_operands(relation: str, problem: str) -> None:
    with pytest.raises(LaunchContractError) as info:
        make(relation)
    message = str(info.value)
    assert message.startswith("k: ")
    assert problem in message
    assert f"requires `{relation}`" in message
    assert OPERANDS in message


@simt.kernel
@simt.launch_contract(block=32, requires=("len(a) >= n", "len(c) >= n"))
def copy_n(a: Slice[f32], c: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (out := c.get_mut(idx)) is not None:
        out.set(a[i])


@simt.kernel
@simt.launch_contract(block=32, requires=("len(a) - n >= 1",))
def sub_rel(a: Slice[f32], c: DisjointSlice[f32], n: u32) -> None:
    pass


def test_requires_checked_at_launch() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.arange(10, dtype=np.float32))
    c = sk.zeros(10, f32)
    prepared = copy_n.prepare(simt.LaunchConfig1D(1, 32), dev)
    copy_n.launch(prepared, stream, a, c, 10)
    np.testing.assert_array_equal(c.to_numpy(), np.arange(10, dtype=np.float32))
    with pytest.raises(
        LaunchContractError,
        match=r"^copy_n: requirement `len\(a\) >= n` is violated \(left side = 10, right side = 11\)",
    ):
        copy_n.launch(prepared, stream, a, c, 11)


def test_requires_arithmetic_is_checked_u64() -> None:
    dev = sk.Device.cpu()
    prepared = sub_rel.prepare(simt.LaunchConfig1D(1, 32), dev)
    a = sk.zeros(4, f32)
    with pytest.raises(LaunchContractError, match=r"overflows u64"):
        sub_rel.launch(prepared, dev.new_stream(), a, sk.zeros(4, f32), 5)
