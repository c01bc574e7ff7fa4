"""`DeviceOp.graph_on` on the CPU executor: capture records, replay recomputes, the op is moved, and what a
graph cannot replay raises `GraphCaptureError` (the same rules as on a GPU: `runtime.capture`)."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.errors import DeviceError, UseAfterMoveError
from safekernels.runtime.graph import DeviceGraph, GraphCaptureError
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CPU = sk.Device.cpu()
N = 200


@simt.kernel
@simt.launch_contract(block=64)
def twice_plus_one(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(src[i] * 2.0 + 1.0)


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def ping_pong(a: sk.DeviceBuffer[Any], b: sk.DeviceBuffer[Any], launches: int) -> sk.DeviceOp[Any]:
    """`launches` chained launches: b = 2a+1, a = 2b+1, ... (each created when the previous one has run)."""
    prepared = twice_plus_one.prepare(simt.LaunchConfig1D.for_len(N, block=64), CPU)
    op = twice_plus_one.launch_async(prepared, a, b)
    for _ in range(launches - 1):
        op = op.then(lambda v: twice_plus_one.launch_async(prepared, v[1], v[0]))
    return op


def expected_ping_pong(start: np.ndarray, launches: int) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) after the chain, for `a = start`, `b = 0` before it."""
    a, b = start.astype(np.float32), np.zeros_like(start, dtype=np.float32)
    for k in range(launches):
        if k % 2 == 0:
            b = a * np.float32(2) + np.float32(1)
        else:
            a = b * np.float32(2) + np.float32(1)
    return a, b


def wait_then(stream: sk.Stream, value: Any) -> Any:
    stream.synchronize()
    return value


def buffers(start: np.ndarray) -> tuple[sk.DeviceBuffer[Any], sk.DeviceBuffer[Any]]:
    return sk.to_device(start.astype(np.float32), device=CPU), sk.zeros(N, f32, device=CPU)


@pytest.mark.parametrize("launches", [1, 2, 5])
def test_capture_runs_nothing_and_each_replay_recomputes(launches: int) -> None:
    rng = np.random.default_rng(launches)
    start = rng.integers(-50, 50, N).astype(np.float32)
    a, b = buffers(start)
    stream = CPU.new_stream()
    graph = ping_pong(a, b, launches).graph_on(stream)
    assert isinstance(graph, DeviceGraph)
    assert graph.node_count == launches
    np.testing.assert_array_equal(a.to_numpy(), start)  # nothing ran at capture
    np.testing.assert_array_equal(b.to_numpy(), 0)
    graph.replay()
    stream.synchronize()
    want_a, want_b = expected_ping_pong(start, launches)
    np.testing.assert_array_equal(a.to_numpy(), want_a)
    np.testing.assert_array_equal(b.to_numpy(), want_b)
    # the same as running the chain eagerly on fresh buffers
    ea, eb = buffers(start)
    ping_pong(ea, eb, launches).sync_on(stream)
    np.testing.assert_array_equal(ea.to_numpy(), a.to_numpy())
    np.testing.assert_array_equal(eb.to_numpy(), b.to_numpy())
    # a second replay starts from what the first left in the buffers (replay = the launches again)
    graph.replay(stream)
    want_a2, want_b2 = expected_ping_pong(want_a, launches)  # the first launch overwrites b: only a matters
    np.testing.assert_array_equal(a.to_numpy(), want_a2)
    np.testing.assert_array_equal(b.to_numpy(), want_b2)


def test_replays_see_inputs_written_in_place() -> None:
    start = np.arange(N, dtype=np.float32)
    a, b = buffers(start)
    graph = twice_plus_one.launch_async(
        twice_plus_one.prepare(simt.LaunchConfig1D.for_len(N, block=64), CPU), a, b
    ).graph_on(CPU.default_stream)
    for seed in range(3):
        fresh = np.random.default_rng(seed).integers(-9, 9, N).astype(np.float32)
        a.copy_from_numpy(fresh)
        graph.replay()
        np.testing.assert_array_equal(b.to_numpy(), fresh * 2 + 1)
    src, dst = graph.value
    assert src is a and dst is b  # the value: the launch's arguments, rewritten in place by every replay


def test_graph_on_moves_the_op() -> None:
    a, b = buffers(np.zeros(N, np.float32))
    op = ping_pong(a, b, 2)
    op.graph_on(CPU.default_stream)
    with pytest.raises(UseAfterMoveError, match="moved into `graph_on`"):
        op.sync_on(CPU.default_stream)
    with pytest.raises(UseAfterMoveError):
        op.graph_on(CPU.default_stream)


def tile_chain() -> sk.DeviceOp[Any]:
    """z1 = x + y; z2 = z1 + y, with the constructors of z2 running after the first launch was recorded."""
    x = tile.from_numpy(np.arange(N, dtype=np.float32))
    y = tile.full((N,), 3.0, f32)
    z = tile.zeros((N,), f32).partition((64,))
    return add(z, x, y).then(lambda v: add(tile.zeros((N,), f32).partition((64,)), v[0].unpartition(), v[2]))


def test_tile_chain_constructors_run_once_and_kernels_at_each_replay() -> None:
    stream = CPU.new_stream()
    eager_z2, eager_z1, _ = tile_chain().sync_on(stream)
    graph = tile_chain().graph_on(stream)
    z2, z1, y = graph.value
    assert graph.node_count == 2
    np.testing.assert_array_equal(z2.to_numpy(), 0)  # constructors filled, kernels not run yet
    np.testing.assert_array_equal(y.to_numpy(), 3)
    graph.replay()
    np.testing.assert_array_equal(z1.to_numpy(), eager_z1.to_numpy())
    np.testing.assert_array_equal(z2.to_numpy(), eager_z2.to_numpy())
    np.testing.assert_array_equal(z2.to_numpy(), np.arange(N) + 6)
    y.buffer.copy_from_numpy(np.full(N, -1.0, np.float32))  # an input rewritten in place between replays
    graph.replay()
    np.testing.assert_array_equal(z2.to_numpy(), np.arange(N) - 2)


def test_moving_a_tensor_out_of_the_value_ends_replays() -> None:
    graph = tile_chain().graph_on(CPU.default_stream)
    z2, _z1, _y = graph.value
    _tensor = z2.unpartition()
    with pytest.raises(UseAfterMoveError, match="replay"):
        graph.replay()


def test_host_read_inside_a_captured_chain_is_refused() -> None:
    a, b = buffers(np.ones(N, np.float32))
    op = ping_pong(a, b, 1).then(lambda v: v[1].to_numpy())
    with pytest.raises(GraphCaptureError, match="reading device memory"):
        op.graph_on(CPU.default_stream)
    # the failed capture left nothing behind: ordinary execution works
    ping_pong(a, b, 1).sync_on(CPU.default_stream)
    np.testing.assert_array_equal(b.to_numpy(), 3)


def test_host_wait_after_captured_work_is_refused() -> None:
    a, b = buffers(np.ones(N, np.float32))
    stream = CPU.new_stream()
    op = ping_pong(a, b, 1).then(lambda v: wait_then(stream, v))
    with pytest.raises(GraphCaptureError, match="host synchronization"):
        op.graph_on(stream)


def test_host_copy_into_memory_the_chain_uses_is_refused() -> None:
    a, b = buffers(np.ones(N, np.float32))
    op = ping_pong(a, b, 1).then(lambda v: v[0].copy_from_numpy(np.zeros(N, np.float32)))
    with pytest.raises(GraphCaptureError, match="host-to-device copy"):
        op.graph_on(CPU.default_stream)


def test_new_buffers_inside_the_chain_are_filled_once() -> None:
    a, b = buffers(np.full(N, 2.0, np.float32))
    prepared = twice_plus_one.prepare(simt.LaunchConfig1D.for_len(N, block=64), CPU)
    op: sk.DeviceOp[Any] = ping_pong(a, b, 1).then(
        lambda v: twice_plus_one.launch_async(prepared, sk.to_device(np.full(N, 7.0, np.float32), device=CPU), v[0])
    )
    graph = op.graph_on(CPU.default_stream)
    fresh, out = graph.value
    np.testing.assert_array_equal(fresh.to_numpy(), 7)
    graph.replay()
    np.testing.assert_array_equal(out.to_numpy(), 15)


def test_nested_execution_inside_a_capture_is_refused() -> None:
    a, b = buffers(np.ones(N, np.float32))
    inner = tile.zeros((8,), f32)
    with pytest.raises(DeviceError, match="non-reentrant"):
        ping_pong(a, b, 1).then(lambda v: inner.sync_on(CPU.default_stream)).graph_on(CPU.default_stream)
    with pytest.raises(DeviceError, match="non-reentrant"):
        ping_pong(a, b, 1).then(lambda v: tile.zeros((8,), f32).graph_on(CPU.default_stream)).graph_on(
            CPU.default_stream
        )


def test_a_shared_op_must_have_run_before_capture() -> None:
    shared = tile.ones((N,), f32).shared()
    z = tile.zeros((N,), f32).partition((64,))
    with pytest.raises(GraphCaptureError, match="shared op"):
        add(z, shared, tile.ones((N,), f32)).graph_on(CPU.default_stream)
    shared.sync_on(CPU.default_stream)
    graph = add(tile.zeros((N,), f32).partition((64,)), shared, tile.ones((N,), f32)).graph_on(CPU.default_stream)
    graph.replay()
    np.testing.assert_array_equal(graph.value[0].to_numpy(), 2)


def test_graph_on_takes_a_stream() -> None:
    with pytest.raises(TypeError, match="Stream"):
        tile.zeros((8,), f32).graph_on("stream")


def test_checker_treats_graph_on_as_a_move() -> None:
    from ownership_check.api import check_source

    source = textwrap.dedent(
        """\
        from safekernels import tile
        from safekernels.dtypes import f32
        from safekernels.tile import Partition, Tensor

        @tile.kernel
        def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
            z.store(tile.load_like(x, z) + tile.load_like(y, z))

        def main(stream: object) -> None:
            op = add(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), tile.ones((8,), f32))
            graph = op.graph_on(stream)
            graph.replay()
            op.sync_on(stream)
        """
    )
    found = [(d.code, d.line) for d in check_source(source, "m.py")]
    assert found == [("E0382", 13)]
