"""`requires` relations as `llvm.assume`: the variant for checked launches drops the bounds checks they imply,
the variant for `launch_unchecked` keeps them, and relations that do not cover a read leave its check in place.

No GPU: the PTX is compiled here, and the launch-path test records which variant a fake device's launcher
would load."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from safekernels import codegen, simt
from safekernels.dtypes import dtype_of, f32, u32
from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation
from safekernels.runtime.cuda_backend import CudaStream
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.limits import CPU_EXECUTOR_LIMITS
from safekernels.simt import DisjointSlice, Slice, gpu_launch, thread


@simt.kernel
@simt.launch_contract(block=256, requires=("len(a) >= len(c)", "len(b) >= len(c)"))
def vecadd_req(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=256, requires=("len(a) >= len(c)",))
def vecadd_half_req(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=256, requires=("len(x) >= n", "len(y0) >= n", "len(y) >= n"))
def saxpy_req(alpha: f32, x: Slice[f32], y0: Slice[f32], y: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (out := y.get_mut(idx)) is not None:
        out.set(alpha * x[i] + y0[i])


@simt.kernel
@simt.launch_contract(block=256, requires=("len(a) - 1 >= len(c)", "len(a) * 2 - len(c) != 0"))
def shifted(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i + 1])


def compiled(kernel: Any, assume: bool) -> codegen.CompiledKernel:
    return codegen.compile_simt_kernel(kernel, arch="sm_90", use_cache=False, assume_requires=assume)


def test_covering_requires_remove_the_trap_and_keep_the_read_only_path() -> None:
    for kernel in (vecadd_req, saxpy_req):
        assumed = compiled(kernel, True)
        assert "trap;" not in assumed.ptx, kernel.name
        as_written = assumed.ptx.split("// .globl")[1]  # the coarsened entry (lowering.coarsen) follows it
        assert len(re.findall(r"ld\.global\.nc\.b32", as_written)) == 2
        assert "llvm.assume" in assumed.llvm_ir


def test_without_assumptions_the_same_kernel_keeps_its_bounds_checks() -> None:
    for kernel in (vecadd_req, saxpy_req):
        plain = compiled(kernel, False)
        assert "trap;" in plain.ptx, kernel.name
        assert "llvm.assume" not in plain.llvm_ir


def test_requires_that_do_not_cover_a_read_keep_its_trap() -> None:
    assumed = compiled(vecadd_half_req, True)
    assert "trap;" in assumed.ptx  # b[i] is not covered by len(a) >= len(c)


def test_relations_are_emitted_exactly_with_no_unsigned_wrap() -> None:
    ir_text = compiled(shifted, True).llvm_ir
    assert re.search(r"sub nuw i64 %\"?a\.len\"?, 1", ir_text)
    assert re.search(r"mul nuw i64 %\"?a\.len\"?, 2", ir_text)
    assert "icmp uge" in ir_text and "icmp ne" in ir_text
    entries = 2 if "_x4" in ir_text else 1  # the coarsened entry point assumes them too
    assert ir_text.count('call void @"llvm.assume"') == 2 * entries


def test_u32_scalars_are_zero_extended() -> None:
    ir_text = compiled(saxpy_req, True).llvm_ir
    assert re.search(r"zext i32 %\"?n\"? to i64", ir_text)


def test_assumed_variant_has_its_own_cache_key() -> None:
    from safekernels.codegen.cache import cache_key
    from safekernels.codegen.frontend.spec import spec_from_kernel

    versions = {"v": "1"}
    plain = cache_key(spec_from_kernel(vecadd_req), "sm_90", False, versions)
    assumed = cache_key(spec_from_kernel(vecadd_req, assume_requires=True), "sm_90", False, versions)
    assert plain != assumed
    # a kernel without relations has one variant
    no_rel = spec_from_kernel(vecadd_req.py_function, assume_requires=True)
    assert not no_rel.assume_requires


# -- which variant each launch path loads ---------------------------------------------------------------------
_ordinals = itertools.count(9500)


class _FakeBackend:
    name = "fake-gpu"

    def __init__(self) -> None:
        self.default_last_kernel: str | None = None

    def synchronize(self, stream: Any) -> None:
        pass


def _fake_device() -> Device:
    device = object.__new__(Device)
    device.ordinal = next(_ordinals)
    device.backend = _FakeBackend()  # type: ignore[assignment]
    device._limits = CPU_EXECUTOR_LIMITS
    device._default_stream = None
    return device


class _Recorder:
    """Stands in for `GpuLauncher`: records the variant it was built for and each launch."""

    built: ClassVar[list[bool]] = []

    def __init__(self, kernel: Any, device: Device, *, assume_requires: bool = True) -> None:
        self.assume_requires = assume_requires
        self.max_threads = 1024
        self.static_shared = 0
        self.launches = 0
        _Recorder.built.append(assume_requires)

    def launch(self, *args: Any) -> None:
        self.launches += 1


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_Recorder]]:
    _Recorder.built = []
    monkeypatch.setattr(gpu_launch, "GpuLauncher", _Recorder)
    yield _Recorder


def _buffer(device: Device, n: int, base: int) -> DeviceBuffer[Any]:
    return DeviceBuffer(device, ForeignAllocation(base, n * 4, None), dtype_of(f32), 0, n)


def test_launch_runs_the_assumed_variant_and_launch_unchecked_does_not(recorder: type[_Recorder]) -> None:
    device = _fake_device()
    stream = Stream(device, CudaStream(0x5EED, owned=False))
    a, b, c = (_buffer(device, 256, 0x7F0000000000 + k * 0x10000) for k in range(3))
    prepared = vecadd_req.prepare(simt.LaunchConfig1D(1, 256), device)
    object.__setattr__(prepared, "_fast_path", False)  # the fake launcher has no parameter storage
    vecadd_req.launch(prepared, stream, a, b, c)
    checked = gpu_launch._LAUNCHERS[vecadd_req][device.ordinal or 0]
    assert isinstance(checked, _Recorder) and checked.assume_requires and checked.launches == 1

    short = _buffer(device, 10, 0x7F0000100000)  # violates `len(a) >= len(c)`: only launch_unchecked takes it
    with simt.unsafe():
        vecadd_req.launch_unchecked(simt.LaunchConfig1D(1, 256), stream, short, b, c)
    unchecked = gpu_launch._UNCHECKED_LAUNCHERS[vecadd_req][device.ordinal or 0]
    assert isinstance(unchecked, _Recorder) and not unchecked.assume_requires and unchecked.launches == 1
    assert recorder.built == [True, False]
    assert checked.launches == 1
    del gpu_launch._LAUNCHERS[vecadd_req][device.ordinal or 0]
    del gpu_launch._UNCHECKED_LAUNCHERS[vecadd_req][device.ordinal or 0]


def test_launch_unchecked_of_a_kernel_without_requires_shares_the_one_variant(recorder: type[_Recorder]) -> None:
    device = _fake_device()
    launcher = gpu_launch.launcher_for(vecadd_req.py_function, device, requires_checked=False)
    assert isinstance(launcher, _Recorder) and launcher.assume_requires  # no relations: nothing is assumed
    assert gpu_launch.launcher_for(vecadd_req.py_function, device) is launcher
