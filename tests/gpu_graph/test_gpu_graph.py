"""`DeviceOp.graph_on` on a real GPU (`pytest -m gpu`): chains of SIMT `launch_async` launches and of tile
launches captured as CUDA graphs, replayed, and compared with eager execution.  Must import neither libcst nor
mypy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.runtime.graph import GraphCaptureError
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

pytestmark = pytest.mark.gpu

N = 1000


@simt.kernel
@simt.launch_contract(block=128)
def twice_plus_one(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(src[i] * 2.0 + 1.0)


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def gpu() -> sk.Device:
    return sk.Device(0)


def ping_pong(a: sk.DeviceBuffer[Any], b: sk.DeviceBuffer[Any], launches: int) -> sk.DeviceOp[Any]:
    prepared = twice_plus_one.prepare(simt.LaunchConfig1D.for_len(N, block=128), gpu())
    op = twice_plus_one.launch_async(prepared, a, b)
    for _ in range(launches - 1):
        op = op.then(lambda v: twice_plus_one.launch_async(prepared, v[1], v[0]))
    return op


def wait_then(stream: sk.Stream, value: Any) -> Any:
    stream.synchronize()
    return value


def start_values(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(-40, 40, N).astype(np.float32) / np.float32(8)


@pytest.mark.parametrize("launches", [1, 7, 32])
def test_simt_chain_replay_equals_eager(launches: int) -> None:
    dev = gpu()
    stream = dev.new_stream()
    start = start_values(launches)
    a, b = sk.to_device(start, stream), sk.zeros(N, f32, stream)
    ea, eb = sk.to_device(start, stream), sk.zeros(N, f32, stream)
    graph = ping_pong(a, b, launches).graph_on(stream)
    assert graph.node_count == launches
    stream.synchronize()
    np.testing.assert_array_equal(a.to_numpy(stream), start)  # capture ran nothing
    ping_pong(ea, eb, launches).sync_on(stream)
    graph.replay()
    stream.synchronize()
    np.testing.assert_array_equal(a.to_numpy(stream), ea.to_numpy(stream))
    np.testing.assert_array_equal(b.to_numpy(stream), eb.to_numpy(stream))
    # inputs rewritten in place between replays; replay on another stream too
    other = dev.new_stream()
    for seed in range(3):
        fresh = start_values(100 + seed)
        a.copy_from_numpy(fresh, other)
        ea.copy_from_numpy(fresh, stream)
        graph.replay(other)
        ping_pong(ea, eb, launches).sync_on(stream)
        other.synchronize()
        np.testing.assert_array_equal(a.to_numpy(other), ea.to_numpy(stream))
        np.testing.assert_array_equal(b.to_numpy(other), eb.to_numpy(stream))


def tile_chain() -> sk.DeviceOp[Any]:
    x = tile.from_numpy(np.arange(N, dtype=np.float32))
    y = tile.full((N,), 3.0, f32)
    z = tile.zeros((N,), f32).partition((128,))
    return add(z, x, y).then(lambda v: add(tile.zeros((N,), f32).partition((128,)), v[0].unpartition(), v[2]))


def test_tile_chain_replay_equals_eager() -> None:
    stream = gpu().new_stream()
    eager_z2, eager_z1, _ = tile_chain().sync_on(stream)
    graph = tile_chain().graph_on(stream)
    assert graph.node_count == 2
    z2, z1, y = graph.value
    np.testing.assert_array_equal(z2.to_numpy(stream), 0)  # constructors ran once; kernels not yet
    for _ in range(2):
        graph.replay(stream)
        stream.synchronize()
        np.testing.assert_array_equal(z1.to_numpy(stream), eager_z1.to_numpy(stream))
        np.testing.assert_array_equal(z2.to_numpy(stream), eager_z2.to_numpy(stream))
    y.buffer.copy_from_numpy(np.full(N, -1.0, np.float32), stream)
    graph.replay(stream)
    np.testing.assert_array_equal(z2.to_numpy(stream), np.arange(N) - 2)


def test_tile_chain_of_many_launches() -> None:
    stream = gpu().new_stream()
    launches = 20

    def chain() -> sk.DeviceOp[Any]:
        z = tile.zeros((N,), f32).partition((256,))
        op = add(z, tile.ones((N,), f32), tile.arange(N, f32))
        for _ in range(launches - 1):
            op = op.then(lambda v: add(v[0], v[1], v[2]))
        return op

    eager = chain().sync_on(stream)[0].to_numpy(stream)
    graph = chain().graph_on(stream)
    assert graph.node_count == launches
    graph.replay()
    stream.synchronize()
    np.testing.assert_array_equal(graph.value[0].to_numpy(stream), eager)


def test_refused_capture_leaves_the_gpu_usable() -> None:
    dev = gpu()
    stream = dev.new_stream()
    a, b = sk.to_device(np.ones(N, np.float32), stream), sk.zeros(N, f32, stream)
    with pytest.raises(GraphCaptureError, match="reading device memory"):
        ping_pong(a, b, 2).then(lambda v: v[0].to_numpy()).graph_on(stream)
    with pytest.raises(GraphCaptureError, match="host synchronization"):
        ping_pong(a, b, 1).then(lambda v: wait_then(stream, v)).graph_on(stream)
    ping_pong(a, b, 1).sync_on(stream)
    np.testing.assert_array_equal(b.to_numpy(stream), 3)


def test_graph_on_the_default_stream() -> None:
    dev = gpu()
    a, b = sk.to_device(np.ones(N, np.float32), device=dev), sk.zeros(N, f32, device=dev)
    graph = ping_pong(a, b, 3).graph_on(dev.default_stream)
    graph.replay()
    dev.default_stream.synchronize()
    np.testing.assert_array_equal(b.to_numpy(), 15)  # b = 2a + 1 = 3, a = 2b + 1 = 7, b = 2a + 1 = 15
    np.testing.assert_array_equal(a.to_numpy(), 7)
