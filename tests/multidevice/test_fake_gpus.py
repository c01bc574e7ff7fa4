"""The real CUDA backend on two fake GPUs (`fake_driver.FakeCudaDriver`): the multi-device code paths without a GPU.

What runs unchanged here is `runtime.cuda_backend`, `runtime.placement`, the SIMT launcher (with a real compile to
cubin through nvJitLink) and the tile launcher; only the driver module is fake.  The fake refuses a launch whose
function or stream is not of the current context, so a missing context switch fails these tests.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from fake_driver import MakeGpus

import safekernels as sk
from safekernels import codegen, simt, tile
from safekernels.dtypes import f32
from safekernels.errors import BorrowError, CrossDeviceError, DeviceError, UseAfterMoveError
from safekernels.runtime import cuda_backend
from safekernels.runtime.cuda_backend import SWITCHING, CudaBackend
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def tile_add(z: Partition[Any], x: Tensor[Any], y: Tensor[Any]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def config(n: int) -> simt.LaunchConfig1D:
    return simt.LaunchConfig1D.for_len(n, block=64)


def ones(n: int, stream: sk.Stream, value: float = 1.0) -> sk.DeviceBuffer[Any]:
    return sk.to_device(np.full(n, value, np.float32), stream)


def test_each_ordinal_is_its_own_device_and_the_second_one_turns_switching_on(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus(ccs=[(9, 0), (8, 0)])
    assert sk.Device.count() == 2
    g0 = sk.Device(0)
    assert not SWITCHING and driver.current_ordinal() == 0  # one GPU: its context stays current, as before
    g1 = sk.Device(1)
    assert SWITCHING and g0 is sk.Device(0) and g1 is not g0
    assert (g0.index, g1.index, g1.arch, g1.name) == (0, 1, "sm_80", "Fake GPU 1")
    with pytest.raises(DeviceError, match=r"Device\(2\) does not exist \(2 CUDA device\(s\) present\)"):
        sk.Device(2)


def test_allocations_and_copies_go_to_the_buffer_device_and_the_current_context_is_restored(
    fake_gpus: MakeGpus,
) -> None:
    driver = fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s1 = g1.new_stream()
    assert driver.current_ordinal() == 0
    buf = sk.to_device(np.arange(16, dtype=np.float32), s1)
    assert driver.owner_of(buf.ptr, buf.nbytes) == 1 and driver.current_ordinal() == 0
    np.testing.assert_array_equal(buf.to_numpy(s1), np.arange(16, dtype=np.float32))
    on_default = sk.zeros(8, f32, device=g1)  # the default stream: a call in device 1's current context
    assert driver.owner_of(on_default.ptr) == 1
    np.testing.assert_array_equal(on_default.to_numpy(), np.zeros(8, np.float32))
    g1.synchronize()
    assert ("ctx_sync", 1) in driver.events and driver.current_ordinal() == 0
    driver.cuCtxSetCurrent(None)  # a thread with no current context: put back as it was found
    g1.synchronize()
    assert driver.current_ordinal() is None
    assert g0.backend.ordinal == 0  # type: ignore[attr-defined]


def test_a_kernel_compiles_once_per_architecture_and_loads_once_per_device(
    fake_gpus: MakeGpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = fake_gpus(ccs=[(9, 0), (9, 0), (8, 0)])
    builds: list[str] = []
    real = codegen.compile_simt_kernel

    def counting(kernel: Any, *, arch: str, **kw: Any) -> Any:
        builds.append(arch)
        return real(kernel, arch=arch, **kw)

    monkeypatch.setattr(codegen, "compile_simt_kernel", counting)
    driver.slot_counts["vecadd"] = 6  # (ptr, len) per buffer
    devices = [sk.Device(i) for i in range(3)]
    for device in devices:
        stream = device.new_stream()
        a, b, c = ones(100, stream), ones(100, stream), sk.zeros(100, f32, stream)
        before = driver.current_ordinal()
        vecadd.launch(vecadd.prepare(config(100), device), stream, a, b, c)
        vecadd.launch(vecadd.prepare(config(100), device), stream, a, b, c)
        assert driver.current_ordinal() == before  # the launch switched to its device and back
        last = driver.launches[-1]
        assert last["device"] == device.index and last["slots"] == (a.ptr, 100, b.ptr, 100, c.ptr, 100)
    assert builds == ["sm_90", "sm_80"]  # device 1 loads device 0's build
    assert [ordinal for ordinal, _ in driver.module_loads] == [0, 1, 2]
    images = [image for _, image in driver.module_loads]
    assert images[0] == images[1] and images[2] != images[0]  # one sm_90 cubin for two devices
    assert [launch["device"] for launch in driver.launches] == [0, 0, 1, 1, 2, 2]


def test_without_the_context_switch_a_launch_on_the_second_gpu_fails(
    fake_gpus: MakeGpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s1 = g1.new_stream()
    a, b, c = ones(8, s1), ones(8, s1), sk.zeros(8, f32, s1)
    prepared = vecadd.prepare(config(8), g1)
    cuda_backend.check(cuda_backend._driver().cuCtxSetCurrent(g0.backend.context), "reset")  # type: ignore[attr-defined]
    monkeypatch.setattr(CudaBackend, "enter", lambda self: None)  # what the guard prevents
    with pytest.raises(DeviceError, match="kernel `vecadd`: cuLaunchKernel failed: CUDA_ERROR_INVALID_HANDLE"):
        vecadd.launch(prepared, s1, a, b, c)


def test_the_fast_path_runs_with_one_gpu_and_declines_once_a_second_one_is_open(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus()
    g0 = sk.Device(0)
    s0 = g0.new_stream()
    a, b, c = ones(8, s0), ones(8, s0), sk.zeros(8, f32, s0)
    prepared = vecadd.prepare(config(8), g0)
    vecadd.launch(prepared, s0, a, b, c)  # checked; builds the fast path
    assert prepared._fast is not None
    assert prepared._fast(s0, (a, b, c)) is True  # one GPU: the generated launch runs
    sk.Device(1)
    assert prepared._fast(s0, (a, b, c)) is False  # several: the checked path, which switches contexts
    driver.cuCtxSetCurrent(driver.contexts[1])
    vecadd.launch(prepared, s0, a, b, c)
    assert [launch["device"] for launch in driver.launches] == [0, 0, 0] and driver.current_ordinal() == 1


def test_a_launch_refuses_a_buffer_of_the_other_gpu_before_anything_runs(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    theirs = ones(8, s0)
    b, c = ones(8, s1), sk.zeros(8, f32, s1)
    with pytest.raises(CrossDeviceError) as info:
        vecadd.launch(vecadd.prepare(config(8), g1), s1, b, theirs, c)
    assert str(info.value).startswith(
        "vecadd: argument `b` (the caller's `theirs`) lives on Device(0), but the launch runs on Device(1)"
    )
    assert driver.launches == []


def test_a_foreign_array_of_the_other_gpu_is_refused_not_relabelled(fake_gpus: MakeGpus) -> None:
    fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    mine = ones(8, s0)

    class Exporter:  # a CuPy-like array of device 0
        @property
        def __cuda_array_interface__(self) -> dict[str, Any]:
            return {"shape": (8,), "typestr": "<f4", "data": (mine.ptr, False), "version": 3}

    assert sk.as_buffer(Exporter(), g0).device is g0
    with pytest.raises(CrossDeviceError, match=r"the array lives on Device\(0\), not Device\(1\)"):
        sk.as_buffer(Exporter(), g1)
    refused = r"vecadd: argument `a` \(Slice\[f32\]\): the array lives on Device\(0\)"
    with pytest.raises(CrossDeviceError, match=refused):
        vecadd.launch(vecadd.prepare(config(8), g1), s1, Exporter(), ones(8, s1), sk.zeros(8, f32, s1))


@pytest.mark.parametrize("peer", [True, False])
def test_to_copies_between_gpus_enabling_peer_access_where_possible(fake_gpus: MakeGpus, peer: bool) -> None:
    driver = fake_gpus(peer_pairs=[(1, 0), (0, 1)] if peer else [])
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    src = sk.to_device(np.arange(64, dtype=np.float32), s0)
    moved = src.to(g1, s1)
    assert moved.device is g1 and driver.owner_of(moved.ptr, moved.nbytes) == 1
    np.testing.assert_array_equal(moved.to_numpy(s1), np.arange(64, dtype=np.float32))
    copies = [e for e in driver.events if e[0] == "peer_copy"]
    assert copies == [("peer_copy", 0, 1, 1, peer)]  # from 0 to 1, queued on device 1's stream, direct if peer
    assert (("enable_peer", 1, 0) in driver.events) is peer
    with pytest.raises(UseAfterMoveError, match="moved into `to`"):
        src.to_numpy(s0)
    again = sk.to_device(np.ones(4, np.float32), s0).to(g1, s1)  # peer access is enabled once per pair
    assert again.to_numpy(s1).tolist() == [1.0] * 4
    assert sum(1 for e in driver.events if e[0] == "enable_peer") == int(peer)


def test_peer_access_enabled_by_someone_else_is_fine(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus(peer_pairs=[(1, 0)])
    driver.peer_enabled.add((1, 0))  # torch or CuPy enabled it first: the driver answers ALREADY_ENABLED
    g0, g1 = sk.Device(0), sk.Device(1)
    moved = ones(4, g0.new_stream(), 3.0).to(g1, g1.new_stream())
    assert moved.to_numpy().tolist() == [3.0] * 4


def test_a_peer_copy_waits_for_the_source_device_or_for_source_stream_without_blocking(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    first = ones(8, s0)
    mark = len(driver.events)
    first.to(g1, s1)
    kinds = [e for e in driver.events[mark:] if e[0] in ("ctx_sync", "record", "wait", "peer_copy")]
    assert kinds[:2] == [("ctx_sync", 0), ("peer_copy", 0, 1, 1, False)]  # the source device finished first
    second = ones(8, s0)
    mark = len(driver.events)
    second.to(g1, s1, source_stream=s0)
    kinds = [e for e in driver.events[mark:] if e[0] in ("ctx_sync", "record", "wait", "peer_copy")]
    assert kinds[:3] == [("record", 0), ("wait", 1, 0), ("peer_copy", 0, 1, 1, False)]  # s1 waits for s0
    assert ("ctx_sync", 0) not in driver.events[mark:]


def test_the_source_memory_lives_until_the_copy_has_run(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    src = ones(8, s0)
    allocation = src.allocation
    driver.events_not_ready = 1  # the copy has not run yet when `to` returns
    moved = src.to(g1, s1)
    del src
    held = g1.backend._in_flight  # type: ignore[attr-defined]
    assert [obj for _event, obj in held] == [allocation]
    s1.synchronize()
    assert g1.backend._in_flight == []  # type: ignore[attr-defined]
    assert moved.to_numpy(s1).tolist() == [1.0] * 8


def test_a_pending_launch_async_blocks_moving_to_the_other_gpu(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    a, b, c = ones(8, s0), ones(8, s0), sk.zeros(8, f32, s0)
    op = vecadd.launch_async(vecadd.prepare(config(8), g0), a, b, c)
    with pytest.raises(BorrowError, match=r"cannot move out of `c` because it is borrowed \(E0505\)"):
        c.to(g1, s1)
    assert not [e for e in driver.events if e[0] == "peer_copy"]
    op.sync_on(s0)
    assert c.to(g1, s1).device is g1


def test_to_between_a_gpu_and_a_cpu_executor(fake_gpus: MakeGpus) -> None:
    fake_gpus()
    g1, cpu = sk.Device(1), sk.Device.cpu(1)
    s1 = g1.new_stream()
    host = sk.to_device(np.arange(8, dtype=np.float32), cpu.new_stream())
    on_gpu = host.to(g1, s1)
    assert on_gpu.device is g1
    back = on_gpu.to(cpu)
    assert back.device is cpu
    np.testing.assert_array_equal(back.host_view(), np.arange(8, dtype=np.float32))


def test_with_a_gpu_makes_its_context_current_and_restores_the_previous_one(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    assert driver.current_ordinal() == 0
    with g1:
        assert driver.current_ordinal() == 1 and sk.Device.default() is g1
        with g0:
            assert driver.current_ordinal() == 0
        assert driver.current_ordinal() == 1
    assert driver.current_ordinal() == 0 and sk.Device.default() is g0


def test_a_torch_like_stream_object_names_its_own_device(fake_gpus: MakeGpus) -> None:
    fake_gpus()
    sk.Device(0)

    class TorchLikeStream:
        cuda_stream = 0x5EED
        device = type("torch_device", (), {"index": 1})()

    assert sk.as_stream(TorchLikeStream()).device is sk.Device(1)


def test_a_tile_launch_runs_on_its_device_and_refuses_a_tensor_of_the_other_gpu(fake_gpus: MakeGpus) -> None:
    driver = fake_gpus()
    g0, g1 = sk.Device(0), sk.Device(1)
    s0, s1 = g0.new_stream(), g1.new_stream()
    z = tile.zeros((256,), f32).sync_on(s1).partition((128,))
    x = tile.from_numpy(np.ones(256, np.float32)).sync_on(s1)
    y = tile.from_numpy(np.ones(256, np.float32)).sync_on(s1)
    driver.cuCtxSetCurrent(driver.contexts[0])
    z, x, y = tile_add(z, x, y).sync_on(s1)
    assert [(launch["device"], launch["kernel"]) for launch in driver.launches] == [(1, "tile_add")]
    assert driver.current_ordinal() == 0
    assert [ordinal for ordinal, _ in driver.module_loads] == [1]
    stranger = tile.from_numpy(np.ones(256, np.float32)).sync_on(s0)
    refused = r"tile_add: argument `y`.* lives on Device\(0\), but the launch runs on Device\(1\)"
    with pytest.raises(CrossDeviceError, match=refused):
        tile_add(z, x, stranger).sync_on(s1)


def test_a_tile_specialization_is_built_once_for_two_gpus_of_one_architecture(
    fake_gpus: MakeGpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    from safekernels.codegen.tile import pipeline

    driver = fake_gpus()
    builds: list[str] = []
    real = pipeline.compile_tile

    def counting(*args: Any, arch: str, **kw: Any) -> Any:
        builds.append(arch)
        return real(*args, arch=arch, **kw)

    monkeypatch.setattr(pipeline, "compile_tile", counting)
    for device in (sk.Device(0), sk.Device(1)):
        s = device.new_stream()
        z = tile.zeros((256,), f32).sync_on(s).partition((128,))
        x = tile.from_numpy(np.ones(256, np.float32)).sync_on(s)
        tile_add(z, x, tile.from_numpy(np.ones(256, np.float32)).sync_on(s)).sync_on(s)
    assert builds == ["sm_90a"]
    assert [ordinal for ordinal, _ in driver.module_loads] == [0, 1]
    assert [launch["device"] for launch in driver.launches] == [0, 1]


def test_the_default_gpu_is_the_one_whose_context_is_current(
    fake_gpus: MakeGpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SAFEKERNELS_DEVICE", raising=False)
    driver = fake_gpus()
    assert sk.Device.default() is sk.Device(0)  # nothing current: GPU 0, which then stays current
    driver.cuCtxSetCurrent(driver.contexts[1])  # what torch.cuda.set_device(1) does
    assert sk.Device.default() is sk.Device(1)
    assert sk.zeros(4, f32).device is sk.Device(1)
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "gpu")
    assert sk.Device.default() is sk.Device(1)


def test_a_process_for_gpu_1_never_opens_gpu_0(fake_gpus: MakeGpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SAFEKERNELS_DEVICE", raising=False)
    driver = fake_gpus()
    driver.cuCtxSetCurrent(driver.contexts[1])  # torchrun rank 1 after torch.cuda.set_device(1)
    s = sk.Device.default().new_stream()
    buf = sk.to_device(np.ones(8, np.float32), s)
    vecadd.launch(vecadd.prepare(config(8), buf.device), s, buf, buf, sk.zeros(8, f32, s))
    assert list(cuda_backend._BACKENDS) == [1] and not SWITCHING  # one context, the fast path stays on
