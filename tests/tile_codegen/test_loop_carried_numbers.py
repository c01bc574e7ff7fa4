"""A number bound before a `for` loop and updated in it is carried by the loop (a silent GPU bug until now).

`steps = 0` then `steps = steps + 1` in the loop: the front end folded `steps` as a compile-time constant, dropped
the loop's updates, and the GPU stored 0 where the CPU executor (and Python) give the trip count. The front end now
turns such a number into a run-time value carried by the loop. With a constant trip count LLVM folds the loop, so
the stored constant in the IR is the value the GPU computes: the check needs no GPU.
"""

from __future__ import annotations

import re
from typing import Annotated

import numpy as np
import pytest

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor


@tile.kernel
def count_steps(out: Annotated[Partition[i32], tile.Dims(8)], x: Tensor[f32]) -> None:
    steps = 0
    for _ in range(x.shape[0] // 8):
        steps = steps + 1
    out.store(tile.full((8,), steps, i32))


@tile.kernel
def three_steps(out: Annotated[Partition[i32], tile.Dims(8)]) -> None:
    steps = 10
    for k in range(3):
        steps = steps * 2 + k
    out.store(tile.full((8,), steps, i32))


@tile.kernel
def doubled(out: Annotated[Partition[f32], tile.Dims(8)]) -> None:
    acc = 0.5
    for _ in range(4):
        acc = acc * 2.0
    out.store(tile.full((8,), acc, f32))


def _run_count_steps(device: sk.Device, length: int) -> np.ndarray:
    stream = device.new_stream()
    out = tile.zeros((16,), i32, device=device).partition((8,))
    got, _ = count_steps(out, tile.from_numpy(np.zeros(length, np.float32), device=device)).sync_on(stream)
    return got.unpartition().to_numpy(stream)  # type: ignore[no-any-return]


def _first_store(kernel: object, *args: object) -> str:
    """The first `store` line of the kernel's optimized LLVM IR (the output tile's value)."""
    llvm = kernel.inspect(*args, arch="sm_90a")["llvm"]  # type: ignore[attr-defined]
    stores = [line.strip() for line in llvm.splitlines() if line.strip().startswith("store ")]
    assert stores, llvm
    return stores[0]


def test_a_counter_carried_by_the_loop_on_the_cpu_executor() -> None:
    assert (_run_count_steps(sk.Device.cpu(), 40) == 5).all()


def test_the_compiled_loop_stores_the_carried_number() -> None:
    out = tile.zeros((8,), i32).partition((8,))
    assert re.search(r"\bi32 84\b", _first_store(three_steps, out))  # ((10*2+0)*2+1)*2+2, not the initial 10
    fout = tile.zeros((8,), f32).partition((8,))
    assert re.search(r"\bfloat 8\.0", _first_store(doubled, fout))  # not 0.5


def test_the_cpu_executor_agrees_on_the_folded_forms() -> None:
    stream = sk.Device.cpu().new_stream()
    out, *_ = three_steps(tile.zeros((8,), i32).partition((8,))).sync_on(stream)
    assert (out.unpartition().to_numpy(stream) == 84).all()
    fout, *_ = doubled(tile.zeros((8,), f32).partition((8,))).sync_on(stream)
    assert (fout.unpartition().to_numpy(stream) == 8.0).all()


@pytest.mark.gpu
@pytest.mark.parametrize("length", [8, 40, 0])
def test_the_gpu_carries_the_counter_like_the_cpu(length: int) -> None:
    np.testing.assert_array_equal(_run_count_steps(sk.Device(0), length), _run_count_steps(sk.Device.cpu(), length))
