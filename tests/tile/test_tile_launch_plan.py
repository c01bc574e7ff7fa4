"""The tile launch-plan cache (`tile.launch_plan`) and the planned GPU launch, without a GPU.

A repeat launch with the same argument specs reuses its plan (no shape check at the call, none at the
execution); any spec change (shape, dtype, tile shape, device, scalar kind) makes a new plan; and everything
that is a property of the values rather than the specs is still checked on a cached plan: moves (with the
right name and file:line), overlapping memory, the stream's device.  The GPU half runs on `fake_gpu`: the
generated launcher must pass the driver exactly the parameters the checked launcher passes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from fake_gpu import FakeGpu
from tile_harness import cpu_stream

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, f64
from safekernels.errors import AliasingError, BorrowError, DeviceError, UseAfterMoveError
from safekernels.runtime.device_op import ready
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor
from safekernels.tile import gpu_launch as tile_gpu

HERE = __file__
kernel_module = sys.modules["safekernels.tile.kernel"]


@tile.kernel
def add(z: Partition[Any], x: Tensor[Any], y: Tensor[Any]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def saxpy(z: Partition[f32], a: f32, x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(a * tile.load_like(x, z) + tile.load_like(y, z))


ADD_ABI = [("ptr", 0, 0), ("dim", 0, 0), ("ptr", 1, 0), ("dim", 1, 0), ("ptr", 2, 0), ("dim", 2, 0), ("grid", -1, 0)]
SAXPY_ABI = [
    ("ptr", 0, 0),
    ("dim", 0, 0),
    ("scalar", 1, 0),
    ("ptr", 2, 0),
    ("dim", 2, 0),
    ("ptr", 3, 0),
    ("dim", 3, 0),
    ("grid", -1, 0),
]


def next_line() -> int:
    return sys._getframe(1).f_lineno + 1


def operands(n: int = 8, tile_shape: int = 4, dtype: Any = f32) -> tuple[Any, Any, Any]:
    stream = cpu_stream()
    z = tile.zeros((n,), dtype).sync_on(stream).partition((tile_shape,))
    return z, tile.ones((n,), dtype).sync_on(stream), tile.full((n,), 2.0, dtype).sync_on(stream)


@pytest.fixture
def shape_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Counts the full launch-shape checks (the work a cached plan skips)."""
    calls: list[str] = []
    real = kernel_module.check_launch_shapes

    def counting(kernel: str, *args: Any) -> Any:
        calls.append(kernel)
        return real(kernel, *args)

    monkeypatch.setattr(kernel_module, "check_launch_shapes", counting)
    yield calls


# -- the cache -------------------------------------------------------------------------------------------------
def test_a_repeat_launch_does_one_lookup_and_no_shape_check(shape_checks: list[str]) -> None:
    @tile.kernel
    def inc(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))

    stream = cpu_stream()
    z, x, y = operands()
    z, x, y = inc(z, x, y).sync_on(stream)
    assert shape_checks == ["inc"] and len(inc._plans) == 1  # the first call checked; its execution did not
    for _ in range(3):
        z, x, y = inc(z, x, y).sync_on(stream)
    assert shape_checks == ["inc"] and len(inc._plans) == 1
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(8, 3.0, np.float32))


@pytest.mark.parametrize("change", ["shape", "dtype", "tile_shape", "scalar_kind", "shared"])
def test_a_spec_change_misses(change: str, shape_checks: list[str]) -> None:
    @tile.kernel
    def scaled(z: Partition[Any], a: float, x: Tensor[Any]) -> None:
        z.store(a * tile.load_like(x, z))

    stream = cpu_stream()
    z, x, _ = operands()
    z, a, x = scaled(z, 2.0, x).sync_on(stream)
    assert len(scaled._plans) == 1
    if change == "shape":
        z, x, _ = operands(n=16)
    elif change == "dtype":
        z, x, _ = operands(dtype=f64)
    elif change == "tile_shape":
        z = z.unpartition().partition((2,))
    elif change == "scalar_kind":
        a = 3  # an int where a float was: another scalar kind
    else:
        x = tile.ones((8,), f32).shared().sync_on(stream)
    scaled(z, a, x).sync_on(stream)
    assert len(scaled._plans) == 2 and shape_checks == ["scaled", "scaled"]


def test_a_device_change_misses_and_the_stream_device_is_checked_on_a_cached_plan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gpu = FakeGpu(monkeypatch)
    loaded = gpu.fake_loaded(add, ADD_ABI)
    monkeypatch.setattr(tile_gpu, "tile_kernel_for", lambda kernel, values, device: loaded)
    plans = len(add._plans)
    add(*operands()).sync_on(cpu_stream())
    args = (gpu.partition((8,), (4,), f32), gpu.tensor((8,), f32), gpu.tensor((8,), f32))
    z, x, y = add(*args).sync_on(gpu.stream)
    assert len(add._plans) == plans + 2  # the same shapes and dtypes on another device: another plan
    with pytest.raises(ValueError, match=r"add: argument `z` lives on .* the launch runs on Device.cpu\(\)"):
        add(z, x, y).sync_on(cpu_stream())  # the cached plan of the GPU values, on a CPU stream


def test_a_moved_argument_raises_with_its_name_and_line_on_a_cached_plan() -> None:
    stream = cpu_stream()
    z, x, y = add(*operands()).sync_on(stream)  # the plan exists
    z, x, y = add(z, x, y).sync_on(stream)
    line = next_line()
    op = add(z, x, y)
    with pytest.raises(UseAfterMoveError, match=rf"use of moved value: `z` .*moved into `add` at {HERE}:{line}\)"):
        add(z, x, y)
    with pytest.raises(UseAfterMoveError, match=rf"use of moved value: `y` .*moved into `add` at {HERE}:{line}\)"):
        y.to_numpy()
    z, x, y = op.sync_on(stream)
    assert not x.is_moved


def test_the_same_value_twice_is_refused_on_a_cached_plan() -> None:
    stream = cpu_stream()
    z, x, _y = add(*operands()).sync_on(stream)
    line = next_line() + 1
    with pytest.raises(UseAfterMoveError, match=rf"use of moved value: `x` .*moved into `add` at {HERE}:{line}\)"):
        add(z, x, x)


def test_a_refused_call_moves_nothing_on_a_cached_plan() -> None:
    stream = cpu_stream()
    z, x, y = add(*operands()).sync_on(stream)
    z2, x2, y2 = add(*operands()).sync_on(stream)
    add(z2, x2, y2)  # moves z2, x2, y2
    with pytest.raises(UseAfterMoveError, match="`y2`"):
        add(z, x, y2)  # y2 is dead: z and x must stay usable
    assert not z.is_moved and not x.is_moved
    add(z, x, y).sync_on(stream)


def test_the_overlap_refusal_fires_on_a_cached_plan() -> None:
    stream = cpu_stream()
    add(*operands(n=1000, tile_shape=256)).sync_on(stream)  # the plan for these specs
    host = np.zeros(1000, dtype=np.float32)
    z = sk.as_buffer(host).partition((256,))
    alias = Tensor(sk.as_buffer(host), (1000,))  # a second owner of the same numpy memory
    op = add(z, alias, tile.ones((1000,), f32).sync_on(stream))
    with pytest.raises(AliasingError, match=r"add: cannot borrow `z` as mutable because it overlaps `x`"):
        op.sync_on(stream)


def test_a_then_chain_reuses_one_plan(shape_checks: list[str]) -> None:
    @tile.kernel
    def step(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))

    stream = cpu_stream()
    op = step(*operands())
    for _ in range(49):
        op = op.then(lambda v: step(v[0], v[1], v[2]))
    z, _x, _y = op.sync_on(stream)
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(8, 3.0, np.float32))
    assert len(step._plans) == 1 and shape_checks == ["step"]


def test_device_op_arguments_are_checked_once_per_spec(shape_checks: list[str]) -> None:
    @tile.kernel
    def fill(z: Partition[f32], x: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z))

    stream = cpu_stream()
    for _ in range(3):
        (z, _x) = fill(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32)).sync_on(stream)
    np.testing.assert_array_equal(z.to_numpy(stream), np.ones(8, np.float32))
    # one check of the call's specs (DeviceOps with known shapes), one of the values they produced
    assert shape_checks == ["fill", "fill"] and len(fill._plans) == 2


# -- the planned GPU launch (fake device, recording driver) ------------------------------------------------------
def run_checked_and_planned(gpu: FakeGpu, kernel: Any, make_args: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Launch twice with equal specs (checked, then planned); return both recorded launches and the plan."""
    calls: list[int] = []
    loaded = gpu.fake_loaded(kernel, ADD_ABI if kernel is add else SAXPY_ABI)

    def lookup(k: Any, values: Any, device: Any) -> Any:
        calls.append(1)
        return loaded

    monkeypatch.setattr(tile_gpu, "tile_kernel_for", lookup)
    kernel(*make_args()).sync_on(gpu.stream)
    kernel(*make_args()).sync_on(gpu.stream)
    assert calls == [1], "the second launch did not take the planned path"
    return gpu.driver.launches[-2:]


def test_the_planned_gpu_launch_passes_what_the_checked_launch_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu = FakeGpu(monkeypatch)

    def make() -> tuple[Any, ...]:
        return (gpu.partition((1000,), (256,), f32), 1.5, gpu.tensor((1000,), f32), gpu.tensor((1000,), f32))

    checked, planned = run_checked_and_planned(gpu, saxpy, make, monkeypatch)
    assert checked[0] == planned[0] == (4, 1, 1, 128, 1, 1, 0)
    assert checked[1] == planned[1] == 0x5EED
    first, second = checked[2], planned[2]  # the decoded parameters: new buffers, same everything else
    assert len(first) == len(second) == 8
    same = (1, 2, 4, 6, 7)
    assert [first[i] for i in same] == [second[i] for i in same] == [1000, 1.5, 1000, 1000, 4]
    assert second[0] != first[0] and second[0] % 256 == 0  # each launch packs its own pointers
    assert gpu.stream.handle.last_kernel == "saxpy"


def test_planned_gpu_pointers_are_the_values_pointers(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu = FakeGpu(monkeypatch)
    made: list[tuple[Any, ...]] = []

    def make() -> tuple[Any, ...]:
        args = (gpu.partition((64,), (32,), f32), gpu.tensor((64,), f32), gpu.tensor((64,), f32))
        made.append(tuple(a.buffer.ptr for a in args))
        return args

    checked, planned = run_checked_and_planned(gpu, add, make, monkeypatch)
    assert (checked[2][0], checked[2][2], checked[2][4]) == made[0]
    assert (planned[2][0], planned[2][2], planned[2][4]) == made[1]
    assert planned[2][6] == 2 and planned[0][0] == 2  # the grid: a constant of the plan


def test_a_misaligned_pointer_takes_the_checked_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu = FakeGpu(monkeypatch)
    calls: list[int] = []
    loaded = gpu.fake_loaded(add, ADD_ABI)

    def lookup(k: Any, values: Any, device: Any) -> Any:
        calls.append(values[1].buffer.ptr % 16)
        return loaded

    monkeypatch.setattr(tile_gpu, "tile_kernel_for", lookup)
    for misalign in (0, 0, 4, 0):
        x = gpu.tensor((64,), f32, misalign=misalign)
        add(gpu.partition((64,), (32,), f32), x, gpu.tensor((64,), f32)).sync_on(gpu.stream)
    assert calls == [0, 4]  # specialized once per alignment; aligned repeats used the planned launch


def test_the_overlap_refusal_fires_on_the_planned_gpu_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu = FakeGpu(monkeypatch)
    loaded = gpu.fake_loaded(add, ADD_ABI)
    monkeypatch.setattr(tile_gpu, "tile_kernel_for", lambda k, v, d: loaded)
    for _ in range(2):
        add(gpu.partition((64,), (32,), f32), gpu.tensor((64,), f32), gpu.tensor((64,), f32)).sync_on(gpu.stream)
    launched = len(gpu.driver.launches)
    buf = gpu.buffer(64, f32)
    alias = Tensor(sk.DeviceBuffer(gpu.device, buf.allocation, buf.dtype, 0, 64), (64,))
    op = add(Tensor(buf, (64,)).partition((32,)), alias, gpu.tensor((64,), f32))
    with pytest.raises(AliasingError, match=r"cannot borrow `z` as mutable because it overlaps `x`"):
        op.sync_on(gpu.stream)
    assert len(gpu.driver.launches) == launched  # refused before the driver saw it


def test_a_subclass_execute_still_runs_on_the_cpu_with_a_cached_plan() -> None:
    """`sk.load_prebuilt` refuses the CPU executor in its `_execute`: a cached plan must not skip it."""
    calls: list[int] = []

    class Counting(kernel_module.TileKernel):  # type: ignore[misc,name-defined]
        def _execute(self, stream: Any, values: list[Any]) -> Any:
            calls.append(1)
            return super()._execute(stream, values)

    def body(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))

    counted = Counting(body, None)
    stream = cpu_stream()
    z, x, y = counted(*operands()).sync_on(stream)
    counted(z, x, y).sync_on(stream)
    assert calls == [1, 1] and len(counted._plans) == 1


def test_another_thread_takes_the_checked_gpu_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planned launch's parameter storage belongs to the thread that built it."""
    import threading

    gpu = FakeGpu(monkeypatch)
    calls: list[int] = []
    loaded = gpu.fake_loaded(add, ADD_ABI)

    def lookup(k: Any, values: Any, device: Any) -> Any:
        calls.append(1)
        return loaded

    monkeypatch.setattr(tile_gpu, "tile_kernel_for", lookup)

    def launch() -> None:
        add(gpu.partition((64,), (32,), f32), gpu.tensor((64,), f32), gpu.tensor((64,), f32)).sync_on(gpu.stream)

    launch()
    launch()
    assert calls == [1]  # the second launch was the planned one
    worker = threading.Thread(target=launch)
    worker.start()
    worker.join()
    assert calls == [1, 1] and len(gpu.driver.launches) == 3  # checked path, and it launched


# -- what the fast call path must still refuse or keep ------------------------------------------------------------
class Keyed:
    """Not a tile handle, whatever its `_key` says."""

    def __init__(self, key: Any) -> None:
        self._key = key


@pytest.mark.parametrize("key", [0, "x", None])
def test_an_object_with_a_key_attribute_is_not_taken_for_a_tile_handle(key: Any) -> None:
    stream = cpu_stream()
    z, _x, y = add(*operands()).sync_on(stream)  # the plan exists, and every argument so far was a handle
    with pytest.raises(TypeError, match=r"add: parameter `x` takes a Tensor .*got Keyed"):
        add(z, Keyed(key), y)
    assert not z.is_moved and not y.is_moved


def test_a_tensor_subclass_argument_gets_a_successor_of_its_class() -> None:
    class Named(Tensor):  # type: ignore[type-arg]
        note = ""

    stream = cpu_stream()
    z, x, y = operands()
    named = Named(y.buffer, (8,))
    named.note = "kept"
    for _ in range(2):  # checked, then planned
        z, x, named = add(z, x, named).sync_on(stream)
        assert type(named) is Named and named.note == "kept"
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(8, 3.0, np.float32))


def test_a_lent_handle_ends_when_its_tensor_moves_into_a_planned_launch() -> None:
    stream = cpu_stream()
    z, x, y = add(*operands()).sync_on(stream)  # the plan exists
    handle = x.as_buffer()
    line = next_line()
    z, x2, y = add(z, x, y).sync_on(stream)
    with pytest.raises(UseAfterMoveError, match=rf"`handle` .*`x`, which it views, was moved .*{HERE}:{line}\)"):
        len(handle)
    assert len(x2.as_buffer()) == 8  # the launch's handle lends again


# -- `then` chains run flat ------------------------------------------------------------------------------------
def test_a_long_then_chain_runs_without_deep_recursion() -> None:
    op: Any = ready(0, label="start")
    for _ in range(3 * sys.getrecursionlimit()):
        op = op.then(lambda v: v + 1)
    assert op.label == "start" + ".then" * (3 * sys.getrecursionlimit())
    assert op.sync_on(cpu_stream()) == 3 * sys.getrecursionlimit()
    with pytest.raises(UseAfterMoveError, match="use of moved value"):
        op.sync_on(cpu_stream())


def test_a_moved_link_of_a_chain_is_refused_with_its_line() -> None:
    op: Any = ready(1)
    line = next_line()
    chained = op.then(lambda v: v + 1)
    moved = rf"use of moved value: `op` \(then after it was moved into `then` at {HERE}:{line}\)"
    with pytest.raises(UseAfterMoveError, match=moved):
        op.then(lambda v: v)
    assert chained.then(lambda v: v * 10).sync_on(cpu_stream()) == 20


def test_an_op_a_chain_moves_is_reported_at_the_sync_on_line() -> None:
    stream = cpu_stream()
    made: list[Any] = []

    def launch(v: Any) -> Any:
        made.append(add(v[0], v[1], v[2]))
        return made[-1]

    op = add(*operands()).then(launch).then(launch)
    line = next_line()
    z, _x, _y = op.sync_on(stream)
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(8, 3.0, np.float32))
    assert len(made) == 2
    inner = made[0]
    moved = rf"`inner` \(sync_on after it was moved into `then` at {HERE}:{line}\)"
    with pytest.raises(UseAfterMoveError, match=moved):
        inner.sync_on(stream)


def test_a_chain_link_that_returns_a_moved_op_is_refused() -> None:
    stream = cpu_stream()
    z, x, y = add(*operands()).sync_on(stream)
    early = add(z, x, y)
    line = next_line()
    early_user = early.then(lambda v: v)
    op: Any = ready(0).then(lambda _v: early)  # returns an op that `then` already moved
    with pytest.raises(UseAfterMoveError, match=rf"then after it was moved into `then` at {HERE}:{line}\)"):
        op.sync_on(stream)
    early_user.sync_on(stream)


# -- the eager planned `sync_on` (fake GPU) ----------------------------------------------------------------------
def planned_gpu(monkeypatch: pytest.MonkeyPatch) -> tuple[FakeGpu, Any]:
    gpu = FakeGpu(monkeypatch)
    loaded = gpu.fake_loaded(add, ADD_ABI)
    monkeypatch.setattr(tile_gpu, "tile_kernel_for", lambda k, v, d: loaded)

    def args() -> tuple[Any, ...]:
        return gpu.partition((64,), (32,), f32), gpu.tensor((64,), f32), gpu.tensor((64,), f32)

    add(*args()).sync_on(gpu.stream)  # checked; builds the planned launch
    gpu.driver.events.clear()
    return gpu, args


def test_the_eager_planned_sync_launches_then_waits_for_its_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu, args = planned_gpu(monkeypatch)
    z, x, y = args()
    op = add(z, x, y)
    assert gpu.driver.events == []  # building launches nothing
    out = op.sync_on(gpu.stream)
    assert gpu.driver.events == [("launch", 0x5EED), ("sync", 0x5EED)]
    assert [v.buffer.ptr for v in out] == [v._buffer.ptr for v in (z, x, y)]
    assert gpu.stream.handle.last_kernel == "add"
    line = next_line()
    op2 = add(*out)
    op2.sync_on(gpu.stream)
    moved = rf"`op2` \(sync_on after it was moved into `sync_on` at {HERE}:{line + 1}\)"
    with pytest.raises(UseAfterMoveError, match=moved):
        op2.sync_on(gpu.stream)
    assert len(gpu.driver.launches) == 3  # the refused sync launched nothing


def test_the_eager_planned_sync_on_the_default_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu, args = planned_gpu(monkeypatch)
    default = sk.Stream(gpu.device, None)
    add(*args()).sync_on(default)
    assert gpu.driver.events == [("launch", 0), ("sync", None)]  # the whole device, as CudaBackend does


def test_sync_on_of_a_planned_launch_inside_a_chain_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu, args = planned_gpu(monkeypatch)
    inner = add(*args())
    op = ready(0).then(lambda _v: inner.sync_on(gpu.stream))
    with pytest.raises(DeviceError, match="non-reentrant"):
        op.sync_on(gpu.stream)
    assert not inner.is_moved and gpu.driver.events == []


def test_a_declined_planned_sync_takes_the_checked_launch_and_still_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu, args = planned_gpu(monkeypatch)
    z, _x, y = args()
    add(z, gpu.tensor((64,), f32, misalign=4), y).sync_on(gpu.stream)  # another alignment: the checked launch
    assert gpu.driver.events == [("launch", 0x5EED), ("sync", 0x5EED)]


def test_the_keys_are_read_in_c_again_after_a_launch_from_constructor_ops() -> None:
    @tile.kernel
    def fresh(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))

    stream = cpu_stream()
    op = fresh(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), tile.full((8,), 2.0, f32))
    assert not fresh._handles_only  # DeviceOp arguments: keys per type
    z, x, y = op.sync_on(stream)
    z, x, y = fresh(z, x, y).sync_on(stream)
    assert fresh._handles_only  # the next calls read the handles' keys with one `map`
    z, x, y = fresh(z, x, y).sync_on(stream)
    z2, _a, _x, y = saxpy(z, 2.0, x, y).sync_on(stream)  # a scalar: keys per type, for saxpy only
    assert not saxpy._handles_only and fresh._handles_only
    np.testing.assert_array_equal(z2.unpartition().to_numpy(stream), np.full(8, 4.0, np.float32))


def test_a_cached_plan_moves_through_its_generated_bind_and_shares_shared_tensors() -> None:
    stream = cpu_stream()
    z, x, _y = add(*operands()).sync_on(stream)
    shared = tile.full((8,), 2.0, f32).shared().sync_on(stream)
    for _ in range(2):  # checked, then planned
        z_in, x_in = z, x
        z, x, again = add(z, x, shared).sync_on(stream)
        assert again is shared and not shared.is_moved  # used, not consumed
        assert z_in.is_moved and x_in.is_moved and z is not z_in and x is not x_in
    plan = next(p for p in add._plans.values() if p.kinds == (0, 0, 1) and p.device is stream.device)
    assert plan.bind is not None and "NEW(PARTITION)" in plan.bind.__globals__["SOURCE"]
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(8, 3.0, np.float32))


@simt.kernel
@simt.launch_contract(block=256)
def simt_add(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def test_e0505_fires_on_a_cached_plan_and_nothing_moves() -> None:
    stream = cpu_stream()
    z, x, y = add(*operands()).sync_on(stream)  # the plan exists
    z, x, y = add(z, x, y).sync_on(stream)
    out = sk.zeros(8, f32, stream)
    prepared = simt_add.prepare(simt.LaunchConfig1D.for_len(8, block=256), stream.device)
    pending = simt_add.launch_async(prepared, x.as_buffer(), x.as_buffer(), out)
    with pytest.raises(BorrowError, match=r"cannot move out of `x` because it is borrowed"):
        add(z, x, y)
    assert not z.is_moved and not x.is_moved and not y.is_moved
    pending.sync_on(stream)
    z, x, y = add(z, x, y).sync_on(stream)
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(8, 3.0, np.float32))


def test_a_launch_inside_a_running_block_is_refused_and_other_threads_are_not() -> None:
    import threading

    from safekernels.tile.context import BlockContext, block_threads, running_block

    stream = cpu_stream()
    z, x, y = add(*operands()).sync_on(stream)  # the plan exists
    inside, release = threading.Event(), threading.Event()

    def body() -> None:
        with running_block(BlockContext("other", (1,), (0,))):
            inside.set()
            release.wait(10)

    worker = threading.Thread(target=body)
    worker.start()
    inside.wait(10)
    try:
        assert block_threads  # another thread is in a kernel body: this one still launches
        z, x, y = add(z, x, y).sync_on(stream)
    finally:
        release.set()
        worker.join()
    assert not block_threads
    with running_block(BlockContext("outer", (1,), (0,))):
        with running_block(BlockContext("inner", (1,), (0,))):
            pass
        with pytest.raises(TypeError, match="add: tile kernels cannot be launched from inside a kernel body"):
            add(z, x, y)
    assert not z.is_moved and not block_threads


def test_a_launch_made_by_package_code_is_reported_at_the_user_line() -> None:
    """Code the package generates counts as the package's: the move site is the user's call of it, also
    right after a launch straight from user code (the one-entry cache of the last user code object)."""
    namespace: dict[str, Any] = {"add": add}
    exec(compile("def launch(z, x, y):\n    return add(z, x, y)\n", "<safekernels test helper>", "exec"), namespace)
    stream = cpu_stream()
    z, x, y = add(*operands()).sync_on(stream)
    z, x, y = add(z, x, y).sync_on(stream)  # from this function: its code is the cached user code
    line = next_line()
    op = namespace["launch"](z, x, y)
    with pytest.raises(UseAfterMoveError, match=rf"`x` .*moved into `add` at {HERE}:{line}\)"):
        x.to_numpy()
    op.sync_on(stream)


class _FakeEncoder:
    """`cuTensorMapEncodeTiled` that writes the tensor's address into the map (and counts its calls)."""

    def __init__(self) -> None:
        self.calls = 0

    def cuTensorMapEncodeTiled(self, storage: Any, *args: Any) -> int:
        import ctypes

        self.calls += 1
        ctypes.memset(storage.value, 0, 128)
        ctypes.c_uint64.from_address(storage.value).value = args[2].value  # the global address
        return 0


def test_the_planned_launch_passes_tensor_maps_encoding_them_once_per_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A kernel with copy-engine operands (an ABI `tmap:` entry, a 128-byte by-value parameter) takes the
    planned launch too: its map lives in 64-byte-aligned storage of the plan, re-encoded when the tensor's
    address changes and only then."""
    gpu = FakeGpu(monkeypatch)
    encoder = _FakeEncoder()
    monkeypatch.setattr(tile_gpu, "_LIBCUDA", [encoder])
    tile_gpu._MAP_CACHE.clear()
    abi = [*ADD_ABI, ("tmap:32:64", 1, 0)]
    loaded = gpu.fake_loaded(add, abi)
    calls: list[int] = []

    def lookup(k: Any, values: Any, device: Any) -> Any:
        calls.append(1)
        return loaded

    monkeypatch.setattr(tile_gpu, "tile_kernel_for", lookup)
    z = gpu.partition((64, 64), (32, 64), "f16")
    x, y = gpu.tensor((64, 64), "f16"), gpu.tensor((64, 64), "f16")
    z, x, y = add(z, x, y).sync_on(gpu.stream)  # checked
    first_x = x.buffer.ptr
    z, x, y = add(z, x, y).sync_on(gpu.stream)  # planned, same tensors: the map is not encoded again
    x2 = gpu.tensor((64, 64), "f16")
    second_x = x2.buffer.ptr
    add(z, x2, y).sync_on(gpu.stream)  # planned, another x: encoded for its address
    assert calls == [1], "the launches after the first did not take the planned path"
    maps = [launch[2][-1] for launch in gpu.driver.launches[-3:]]
    assert [align for align, _ in maps] == [0, 0, 0]  # 64-byte aligned, as CUtensorMap must be
    addresses = [int.from_bytes(raw[:8], "little") for _, raw in maps]
    assert addresses == [first_x, first_x, second_x]
    assert encoder.calls == 2  # once per tensor: the checked launch's encode is reused by the plan
