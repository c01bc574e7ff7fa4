"""Several real GPUs in one process (`pytest -m gpu` on a machine with two or more): the paths
`test_fake_gpus.py` runs on a fake driver, now on the hardware.  Skipped where fewer than two GPUs answer.
Must import neither libcst nor mypy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.errors import CrossDeviceError, UseAfterMoveError
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(sk.Device.count() < 2, reason="needs two or more CUDA GPUs"),
]


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def tile_add(z: Partition[Any], x: Tensor[Any], y: Tensor[Any]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def current_context() -> int:
    from cuda.bindings import driver

    err, ctx = driver.cuCtxGetCurrent()
    assert err == driver.CUresult.CUDA_SUCCESS
    return int(ctx)


def test_interleaved_launches_on_two_gpus_give_each_its_own_result() -> None:
    n = 1 << 20
    devices = [sk.Device(0), sk.Device(1)]
    streams = [d.new_stream() for d in devices]
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    bufs = [(sk.to_device(x, s), sk.to_device(x * (k + 1), s), sk.zeros(n, f32, s)) for k, s in enumerate(streams)]
    prepared = [vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), d) for d in devices]
    before = current_context()
    for _ in range(20):
        for k in (0, 1):
            vecadd.launch(prepared[k], streams[k], *bufs[k])
    assert current_context() == before  # every switch was undone
    for k in (0, 1):
        np.testing.assert_array_equal(bufs[k][2].to_numpy(streams[k]), x + x * (k + 1))


def test_a_buffer_of_the_other_gpu_is_refused() -> None:
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    theirs = sk.zeros(64, f32, s0)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=256), g1)
    with pytest.raises(CrossDeviceError, match=r"lives on Device\(0\), but the launch runs on Device\(1\)"):
        vecadd.launch(prepared, s1, theirs, theirs, sk.zeros(64, f32, s1))
    with pytest.raises(CrossDeviceError, match=r"the array lives on Device\(0\), not Device\(1\)"):
        sk.as_buffer(type("Cai", (), {"__cuda_array_interface__": theirs.__cuda_array_interface__})(), g1)


@pytest.mark.parametrize("ordered_by", ["device", "source_stream"])
def test_to_moves_data_between_gpus(ordered_by: str) -> None:
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    n = 1 << 22
    x = np.arange(n, dtype=np.float32)
    a, b, c = sk.to_device(x, s0), sk.to_device(x, s0), sk.zeros(n, f32, s0)
    vecadd.launch(vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), g0), s0, a, b, c)  # async on s0
    moved = c.to(g1, s1, source_stream=s0) if ordered_by == "source_stream" else c.to(g1, s1)
    del c
    np.testing.assert_array_equal(moved.to_numpy(s1), 2 * x)
    a1 = a.to(g1, s1)  # ordered after everything queued on device 0
    np.testing.assert_array_equal(a1.to_numpy(s1), x)
    with pytest.raises(UseAfterMoveError):
        a.to_numpy(s0)


def test_a_tile_kernel_runs_on_each_gpu() -> None:
    for device in (sk.Device(0), sk.Device(1)):
        s = device.new_stream()
        z = tile.zeros((4096,), f32).sync_on(s).partition((1024,))
        x = tile.from_numpy(np.arange(4096, dtype=np.float32)).sync_on(s)
        y = tile.from_numpy(np.ones(4096, np.float32)).sync_on(s)
        z, x, y = tile_add(z, x, y).sync_on(s)
        np.testing.assert_array_equal(z.unpartition().to_numpy(s), np.arange(4096, dtype=np.float32) + 1)
