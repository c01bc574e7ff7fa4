"""A tile value has at most 2**18 elements: both executors refuse a larger one in the shared front end.

A tile block keeps its tiles in registers; a (1 << 20,) elementwise tile took 43 s to compile for the GPU (the
CPU executor ran it at once), so the user saw a hang on one executor and a result on the other.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
import pytest

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.codegen.tile.frontend import MAX_TILE_ELEMENTS
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BIG = MAX_TILE_ELEMENTS * 2


@tile.kernel
def add_one_big(z: Annotated[Partition[f32], tile.Dims(BIG)], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + 1.0)


@tile.kernel
def add_one_at_the_limit(z: Annotated[Partition[f32], tile.Dims(MAX_TILE_ELEMENTS)], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + 1.0)


def test_the_cpu_executor_refuses_a_tile_past_the_limit_where_it_is_built() -> None:
    stream = sk.Device.cpu().new_stream()
    op = add_one_big(tile.zeros((BIG,), f32).partition((BIG,)), tile.zeros((BIG,), f32))
    with pytest.raises(DiagnosticError, match=r"test_tile_size_limit\.py:\d+:\d+: SK023 a tile of 524288 elements"):
        op.sync_on(stream)


def test_the_gpu_compiler_refuses_it_alike() -> None:
    with pytest.raises(DiagnosticError, match=r"SK023 a tile of 524288 elements .*\(at most 262144"):
        add_one_big.inspect(tile.zeros((BIG,), f32).partition((BIG,)), tile.zeros((BIG,), f32), arch="sm_90a")


def test_a_tile_at_the_limit_runs() -> None:
    stream = sk.Device.cpu().new_stream()
    n = MAX_TILE_ELEMENTS
    z, _ = add_one_at_the_limit(tile.zeros((n,), f32).partition((n,)), tile.zeros((n,), f32)).sync_on(stream)
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.ones(n, np.float32))
