"""The launch fast path (`simt.fast_launch`) against the checked path, without a GPU.

A fake GPU device and a fake launcher (a `GpuLauncher` whose `cuLaunchKernel` records the packed parameter
bytes) run both paths: every accepted launch must pack the same bytes whichever path took it, and every
refused launch must raise the same exception with the same message whether or not a fast path exists.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from safekernels import errors as sk_errors
from safekernels import simt
from safekernels.codegen.param_plan import PlanEntry
from safekernels.dtypes import (
    DType,
    bf16,
    bool_,
    dtype_of,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
)
from safekernels.errors import DeviceError
from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation
from safekernels.runtime.cuda_backend import CudaStream
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.limits import CPU_EXECUTOR_LIMITS
from safekernels.simt import DisjointSlice, Slice, gpu_launch
from safekernels.simt.kernel import SimtKernel
from safekernels.simt.requires import parse_requires

_SUCCESS = object()
_FAILURE = object()
_ordinals = itertools.count(9000)


class FakeBackend:
    name = "fake-gpu"

    def __init__(self) -> None:
        self.default_last_kernel: str | None = None

    def synchronize(self, stream: Any) -> None:
        pass


def fake_device() -> Device:
    device = object.__new__(Device)
    device.ordinal = next(_ordinals)
    device.backend = FakeBackend()  # type: ignore[assignment]
    device._limits = CPU_EXECUTOR_LIMITS
    device._default_stream = None
    return device


class FakeLauncher(gpu_launch.GpuLauncher):
    """The real parameter storage, setters and checked-path `launch`; `cuLaunchKernel` only records."""

    def __init__(self, kernel: SimtKernel, device: Device) -> None:
        self.backend = device.backend  # type: ignore[assignment]
        self.name = kernel.name
        self.max_threads = 1024
        self.static_shared = 0
        self._dynamic_optin = 48 * 1024
        self.function = object()
        self._init_params([PlanEntry(p.name, p.kind, p.dtype.name) for p in kernel.params])
        self._cu_launch = self._record
        self._success = _SUCCESS
        self.via = "fast"
        self.fail_next = False
        self.launches: list[tuple[str, tuple[Any, ...], Any, bytes]] = []

    def launch(self, *args: Any) -> None:  # the checked path's launcher call
        self.via = "checked"
        try:
            super().launch(*args)
        finally:
            self.via = "fast"

    def fail(self, result: Any) -> None:
        raise DeviceError(f"kernel `{self.name}`: cuLaunchKernel failed: {result[1]}")

    def _record(self, f: Any, *rest: Any) -> tuple[Any, ...]:
        geometry, stream, params, extra = rest[:7], rest[7], rest[8], rest[9]
        assert f is self.function and params == self.param_address and extra == 0
        self.launches.append((self.via, geometry, stream, bytes(self.storage)))
        if self.fail_next:
            return (_FAILURE, "CUDA_ERROR_FAKE")
        return (_SUCCESS,)


class Rig:
    """One kernel on one fake device with its recording launcher."""

    def __init__(self, kernel: SimtKernel) -> None:
        self.kernel = kernel
        self.device = fake_device()
        self.launcher = FakeLauncher(kernel, self.device)
        gpu_launch._LAUNCHERS.setdefault(kernel, {})[self.device.ordinal or 0] = self.launcher
        self.stream = Stream(self.device, CudaStream(0x5EED, owned=False))
        self._next_ptr = 0x7F0000000000

    def prepare(self, grid: int = 2) -> simt.PreparedLaunch[Any]:
        return self.kernel.prepare(simt.LaunchConfig1D(grid, 32), self.device)

    def buffer(self, n: int, dtype: Any = f32) -> DeviceBuffer[Any]:
        dt = dtype_of(dtype)
        ptr = self._next_ptr
        self._next_ptr += (n * dt.itemsize + 511) // 256 * 256
        return DeviceBuffer(self.device, ForeignAllocation(ptr, n * dt.itemsize, None), dt, 0, n)

    def warm(self, prepared: simt.PreparedLaunch[Any], *args: Any) -> None:
        """One checked launch, which builds the fast path."""
        self.kernel.launch(prepared, self.stream, *args)
        assert prepared._fast is not None, "fast path was not built"

    def outcome(self, fast: bool, prepared: simt.PreparedLaunch[Any], stream: Any, *args: Any) -> Any:
        """('ok', path, record) or ('error', type, message) of one launch, with or without the fast path."""
        saved = prepared._fast
        if not fast:
            object.__setattr__(prepared, "_fast", None)
        before = len(self.launcher.launches)
        try:
            self.kernel.launch(prepared, stream, *args)
        except Exception as exc:  # the point is to compare every exception
            assert len(self.launcher.launches) == before, "a refused launch reached the driver"
            return ("error", type(exc), str(exc))
        finally:
            object.__setattr__(prepared, "_fast", saved)
        (via, geometry, raw_stream, data) = self.launcher.launches[-1]
        assert len(self.launcher.launches) == before + 1
        return ("ok", via, (geometry, raw_stream, data))

    def agree(self, prepared: simt.PreparedLaunch[Any], *args: Any, stream: Any = None) -> tuple[Any, Any]:
        """Run with and without the fast path; the results must be identical apart from the path taken."""
        stream = self.stream if stream is None else stream
        fast = self.outcome(True, prepared, stream, *args)
        checked = self.outcome(False, prepared, stream, *args)
        if checked[0] == "ok":
            assert checked[1] == "checked"
            assert fast[0] == "ok" and fast[2] == checked[2], (fast, checked)
        else:
            assert fast == checked
        return fast, checked


@pytest.fixture(autouse=True)
def _forget_fake_launchers() -> Iterator[None]:
    yield
    for per_device in gpu_launch._LAUNCHERS.values():
        for ordinal in [o for o in per_device if o >= 9000]:
            del per_device[ordinal]


# -- kernels -------------------------------------------------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=32)
def add(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    pass


@simt.kernel
@simt.launch_contract(block=32)
def two_out(a: Slice[f32], c: DisjointSlice[f32], d: DisjointSlice[f32]) -> None:
    pass


@simt.kernel
@simt.launch_contract(block=32)
def out_first(c: DisjointSlice[f32], a: Slice[f32]) -> None:
    pass


@simt.kernel
@simt.launch_contract(block=32, requires=("len(a) >= n", "(n + m) * 4 <= len(c) - 1"))
def rel(a: Slice[f32], c: DisjointSlice[f32], n: u32, m: u64) -> None:
    pass


def scalar_kernel(dtype: Any) -> SimtKernel:
    def k(x: Any, c: Any, s: Any, y: Any) -> None:
        pass

    k.__annotations__ = {"x": f64, "c": DisjointSlice[f32], "s": dtype, "y": i8, "return": None}
    k.__name__ = f"scalar_{dtype_of(dtype).name}"
    return simt.kernel(simt.launch_contract(block=32)(k))


# -- packing -------------------------------------------------------------------------------------------------
def _values(dt: DType) -> list[Any]:
    if dt.kind in "iu":
        low = -(1 << (dt.bits - 1)) if dt.kind == "i" else 0
        high = (1 << (dt.bits - 1)) - 1 if dt.kind == "i" else (1 << dt.bits) - 1
        return [low, low + 1, 0 if dt.kind == "i" else 1, 7, high - 1, high]
    if dt.kind == "f":
        return [0.0, -0.0, 1.5, -2.25, 1e-30, 3.4e38, 1e-45, math.inf, -math.inf, 1 / 3, 7, -(1 << 70)]
    return [True, False]


@pytest.mark.parametrize("dtype", [i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bool_])
def test_every_scalar_dtype_packs_the_same_bytes_on_the_fast_path(dtype: Any) -> None:
    kernel = scalar_kernel(dtype)
    rig = Rig(kernel)
    prepared = rig.prepare()
    c = rig.buffer(8)
    first = _values(dtype_of(dtype))[0]
    rig.warm(prepared, 0.5, c, first, -3)
    for value in _values(dtype_of(dtype)):
        fast, _ = rig.agree(prepared, 2.0, c, value, -128)
        assert fast[:2] == ("ok", "fast"), (value, fast)
    # the bytes themselves: x (f64) | c.ptr, c.length | s | y, each in its own 8-byte slot
    data = rig.launcher.launches[-1][3]
    assert np.frombuffer(data[0:8], np.float64)[0] == 2.0
    assert np.frombuffer(data[8:24], np.uint64).tolist() == [c.ptr, 8]
    storage = dtype_of(dtype).storage
    last = _values(dtype_of(dtype))[-1]
    assert np.frombuffer(data[24 : 24 + storage.itemsize], storage)[0] == storage.type(last)
    assert np.frombuffer(data[32:33], np.int8)[0] == -128


@pytest.mark.parametrize(
    ("dtype", "value"),
    [
        (f32, np.float32(2.5)),  # numpy scalars: checked path
        (f32, math.nan),  # NaN: checked path
        (f32, 1e300),  # rounds to inf in ctypes, struct refuses: checked path
        (f32, True),
        (i32, np.int32(-5)),
        (i32, True),
        (u64, np.uint64(1 << 63)),
        (bool_, 1),
        (bool_, np.bool_(True)),  # refused by the checked path (not a numbers.Number), so refused here too
        (f64, np.float64(0.25)),
    ],
)
def test_uncommon_but_valid_scalars_take_the_checked_path(dtype: Any, value: Any) -> None:
    rig = Rig(scalar_kernel(dtype))
    prepared = rig.prepare()
    c = rig.buffer(4)
    rig.warm(prepared, 0.5, c, _values(dtype_of(dtype))[0], 0)
    fast, _ = rig.agree(prepared, 0.5, c, value, 0)
    assert fast[0] == "error" or fast[1] == "checked"


@pytest.mark.parametrize("dtype", [f16, bf16])
def test_half_scalars_have_no_fast_path(dtype: Any) -> None:
    rig = Rig(scalar_kernel(dtype))
    prepared = rig.prepare()
    c = rig.buffer(4)
    rig.kernel.launch(prepared, rig.stream, 0.5, c, 1.5, 0)
    assert prepared._fast is None and prepared._fast_path is False
    assert rig.launcher.launches[-1][0] == "checked"


def test_geometry_stream_and_last_kernel() -> None:
    rig = Rig(add)
    prepared = rig.prepare(grid=7)
    a, b, c = rig.buffer(4), rig.buffer(4), rig.buffer(4)
    rig.warm(prepared, a, b, c)
    add.launch(prepared, rig.stream, a, b, c)
    via, geometry, raw_stream, _ = rig.launcher.launches[-1]
    assert via == "fast" and geometry == (7, 1, 1, 32, 1, 1, 0) and raw_stream == 0x5EED
    rig.stream.handle.last_kernel = None
    add.launch(prepared, rig.stream, a, b, c)
    assert rig.stream.handle.last_kernel == "add"
    default = rig.device.default_stream
    fast, _ = rig.agree(prepared, a, b, c, stream=default)
    assert fast[:2] == ("ok", "fast") and fast[2][1] == 0
    assert rig.device.backend.default_last_kernel == "add"  # type: ignore[attr-defined]


def test_both_paths_launch_the_coarsened_entry_alike() -> None:
    """An elementwise kernel's coarsened entry (codegen.lowering.coarsen): the fast and the checked path launch
    the same function with `grid / factor` blocks when the grid is a multiple of the factor, else the kernel
    as written with the full grid."""
    rig = Rig(add)
    launcher = rig.launcher
    coarse = object()
    launcher.coarse_factor, launcher.coarse_function, launcher.coarse_max_threads = 4, coarse, 1024
    functions: list[Any] = []
    record = launcher._cu_launch

    def remember(f: Any, *rest: Any) -> tuple[Any, ...]:
        functions.append(f)
        return record(launcher.function, *rest)  # the recorder checks params against the kernel's storage

    launcher._cu_launch = remember
    a, b, c = rig.buffer(4), rig.buffer(4), rig.buffer(4)
    for grid, want_fn, want_grid in ((8, coarse, 2), (7, launcher.function, 7)):
        prepared = rig.prepare(grid=grid)
        rig.warm(prepared, a, b, c)
        fast, _ = rig.agree(prepared, a, b, c)
        assert fast[:2] == ("ok", "fast") and fast[2][0][0] == want_grid
        assert functions[-2:] == [want_fn, want_fn]  # fast, then checked


def test_cpu_device_has_no_fast_path() -> None:
    cpu = Device.cpu()
    prepared = add.prepare(simt.LaunchConfig1D(1, 32), cpu)
    bufs: list[DeviceBuffer[Any]] = [
        DeviceBuffer(cpu, cpu.backend.allocate(16), dtype_of(f32), 0, 4) for _ in range(3)
    ]
    add.launch(prepared, cpu.new_stream(), *bufs)
    assert prepared._fast is None and prepared._fast_path is None


# -- refusals: same exception, same message ------------------------------------------------------------------
def _refusals(rig: Rig, other: Rig) -> list[tuple[str, Callable[[], tuple[Any, ...]]]]:
    a, b, c = rig.buffer(16), rig.buffer(16), rig.buffer(16)
    whole = rig.buffer(32)
    return [
        ("arity", lambda: (a, b)),
        ("dtype", lambda: (a, rig.buffer(16, f64), c)),
        ("scalar for buffer", lambda: (1.0, b, c)),
        ("non-array", lambda: (a, "text", c)),
        ("other device", lambda: (a, other.buffer(16), c)),
        ("E0502 exact", lambda: (c, b, c)),
        ("E0502 partial", lambda: (whole.view(0, 16), b, whole.view(8, 24))),
        ("E0502 second input", lambda: (a, whole.view(0, 16), whole.view(15, 17))),
    ]


def test_every_refusal_is_the_checked_paths_error() -> None:
    rig, other = Rig(add), Rig(add)
    prepared = rig.prepare()
    rig.warm(prepared, rig.buffer(4), rig.buffer(4), rig.buffer(4))
    for label, make in _refusals(rig, other):
        fast, _ = rig.agree(prepared, *make())
        assert fast[0] == "error", label
    a, b, c = rig.buffer(4), rig.buffer(4), rig.buffer(4)
    fast, _ = rig.agree(prepared, a, b, c, stream=other.stream)  # stream on another device
    assert fast[0] == "error" and "stream is on" in fast[2]
    fast, _ = rig.agree(prepared, a, b, c, stream=object())
    assert fast == ("error", TypeError, "add: expected a safekernels Stream, got object")
    with pytest.raises(simt.PreparedLaunchBrandError):
        two_out.launch(prepared, rig.stream, a, b, c)
    # empty buffers overlap nothing, on both paths
    fast, _ = rig.agree(prepared, a, b, a.view(0, 0))
    assert fast[:2] == ("ok", "fast")


def test_aliasing_wording_for_every_pair_kind() -> None:
    cases: list[tuple[SimtKernel, Callable[[Rig, DeviceBuffer[Any]], tuple[Any, ...]]]] = [
        (two_out, lambda r, w: (r.buffer(4), w.view(0, 8), w.view(7, 9))),  # E0499
        (out_first, lambda r, w: (w, w.view(2, 4))),  # shared after mutable
        (two_out, lambda r, w: (w.view(0, 4), w.view(4, 8), w.view(8, 12))),  # disjoint halves pass
    ]
    for kernel, args in cases:
        rig = Rig(kernel)
        prepared = rig.prepare()
        warm_args = (rig.buffer(4), rig.buffer(4), rig.buffer(4))[: len(kernel.params)]
        rig.warm(prepared, *warm_args)
        rig.agree(prepared, *args(rig, rig.buffer(16)))


def test_pending_async_borrows_go_through_the_checked_path() -> None:
    rig = Rig(add)
    prepared = rig.prepare()
    a, b, c = rig.buffer(8), rig.buffer(8), rig.buffer(8)
    rig.warm(prepared, a, b, c)
    op = add.launch_async(prepared, a, b, c)
    fast, _ = rig.agree(prepared, c, rig.buffer(8), rig.buffer(8))
    assert fast[0] == "error" and "pending `add.launch_async`" in fast[2]
    fast, _ = rig.agree(prepared, a, b, rig.buffer(8))  # no conflict, but pending borrows exist: checked
    assert fast[:2] == ("ok", "checked")
    op.sync_on(rig.stream)
    fast, _ = rig.agree(prepared, a, b, c)
    assert fast[:2] == ("ok", "fast")


def test_scalar_errors_match() -> None:
    rig = Rig(rel)
    prepared = rig.prepare()
    a, c = rig.buffer(16), rig.buffer(64)
    rig.warm(prepared, a, c, 4, 1)
    for n, m in [(-1, 0), (1 << 32, 0), (0, 1 << 64), (1.0, 0), (0, "x"), (0, None), (0, 2.5)]:
        fast, _ = rig.agree(prepared, a, c, n, m)
        assert fast[0] == "error", (n, m)


def test_requires_agree_on_random_operands() -> None:
    rig = Rig(rel)
    prepared = rig.prepare()
    rig.warm(prepared, rig.buffer(16), rig.buffer(64), 4, 1)
    rng = random.Random(5)
    seen = {"fast": 0, "error": 0}
    for _ in range(300):
        la, lc = rng.choice([0, 1, 3, 16, 40]), rng.choice([0, 1, 5, 17, 64, 200])
        n = rng.choice([0, 1, 3, 16, 41, (1 << 32) - 1])
        m = rng.choice([0, 1, 9, (1 << 62), (1 << 64) - 1])
        fast, _ = rig.agree(prepared, rig.buffer(la), rig.buffer(lc), n, m)
        seen["fast" if fast[0] == "ok" else "error"] += 1
        if fast[0] == "ok":
            assert fast[1] == "fast"
    assert seen["fast"] > 20 and seen["error"] > 20


@pytest.mark.parametrize(
    "text",
    [
        "len(a) >= n",
        "(n + m) * 4 <= len(c) - 1",
        "len(a) - n >= 1",
        "n * m != 3 + len(c)",
        "n < 18446744073709551615",
    ],
)
def test_compiled_relation_matches_evaluate(text: str) -> None:
    (relation,) = parse_requires("k", (text,), rel.params)
    lines = relation.fast_check_lines({"a": "la", "c": "lc"}, {"n": "n", "m": "m"}, "t")
    namespace: dict[str, Any] = {}
    exec(
        "def check(la, lc, n, m):\n" + "".join(f"    {line}\n" for line in lines) + "    return True\n",
        namespace,
    )
    operands = [0, 1, 2, 5, 1 << 32, (1 << 64) - 1]
    for la, lc, n, m in itertools.product(operands, repeat=4):
        try:
            expected = relation.evaluate({"a": la, "c": lc}, {"n": n, "m": m})[0]
        except OverflowError:
            expected = False
        assert namespace["check"](la, lc, n, m) is expected, (text, la, lc, n, m)


# -- foreign arrays ------------------------------------------------------------------------------------------
class FakeTensor:
    """Enough of `torch.Tensor` for `__cuda_array_interface__` (v2) and the fingerprint."""

    def __init__(self, ptr: int, n: int, typestr: str = "<f4") -> None:
        self.ptr, self.n, self.typestr = ptr, n, typestr
        self.requires_grad = False
        self.is_cuda = True
        self.contiguous = True
        self.interface_reads = 0

    @property
    def dtype(self) -> str:
        return self.typestr

    def data_ptr(self) -> int:
        return self.ptr

    def numel(self) -> int:
        return self.n

    def is_contiguous(self) -> bool:
        return self.contiguous

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        self.interface_reads += 1
        if self.requires_grad:
            raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad.")
        strides = None if self.contiguous else (8,)
        return {
            "shape": (self.n,),
            "typestr": self.typestr,
            "data": (self.ptr, False),
            "version": 2,
            "strides": strides,
        }


@pytest.fixture
def fake_torch(monkeypatch: pytest.MonkeyPatch) -> type[FakeTensor]:
    module = types.ModuleType("torch")
    module.Tensor = FakeTensor  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", module)
    return FakeTensor


def test_foreign_tensors_are_cached_and_revalidated(fake_torch: type[FakeTensor]) -> None:
    rig = Rig(add)
    prepared = rig.prepare()
    ta, tb, tc = fake_torch(0x10000, 16), fake_torch(0x20000, 16), fake_torch(0x30000, 16)
    rig.warm(prepared, ta, tb, tc)
    fast, _ = rig.agree(prepared, ta, tb, tc)
    assert fast[:2] == ("ok", "fast")
    reads = tc.interface_reads
    add.launch(prepared, rig.stream, ta, tb, tc)
    assert rig.launcher.launches[-1][0] == "fast" and tc.interface_reads == reads  # no interface read
    data = rig.launcher.launches[-1][3]
    assert np.frombuffer(data, np.uint64).tolist() == [0x10000, 16, 0x20000, 16, 0x30000, 16]
    # the same tensor as input and output: refused identically
    fast, _ = rig.agree(prepared, ta, tb, ta)
    assert fast[0] == "error" and "E0502" in fast[2]
    # a tensor and a DeviceBuffer over the same memory
    alias: DeviceBuffer[Any] = DeviceBuffer(
        rig.device, ForeignAllocation(0x10000 + 8, 8, None), dtype_of(f32), 0, 2
    )
    fast, _ = rig.agree(prepared, ta, tb, alias)
    assert fast[0] == "error" and "E0502" in fast[2]
    # metadata changes invalidate the cached wrapping
    for change in ("ptr", "n", "typestr", "contiguous", "requires_grad"):
        t = fake_torch(0x40000, 16)
        rig.kernel.launch(prepared, rig.stream, ta, tb, t)
        assert rig.agree(prepared, ta, tb, t)[0][:2] == ("ok", "fast")
        if change == "ptr":
            t.ptr = 0x50000
        elif change == "n":
            t.n = 8
        elif change == "typestr":
            t.typestr = "<f8"
        elif change == "contiguous":
            t.contiguous = False
        else:
            t.requires_grad = True
        fast, _ = rig.agree(prepared, ta, tb, t)
        assert fast[1] in ("checked", TypeError, RuntimeError), (change, fast)


def test_foreign_tensors_with_a_stream_are_not_cached(fake_torch: type[FakeTensor], monkeypatch: Any) -> None:
    class StreamTensor(FakeTensor):
        @property
        def __cuda_array_interface__(self) -> dict[str, Any]:
            return {**super().__cuda_array_interface__, "version": 3, "stream": 7}

    monkeypatch.setattr(sys.modules["torch"], "Tensor", StreamTensor)
    rig = Rig(add)
    prepared = rig.prepare()
    ta, tb = rig.buffer(4), rig.buffer(4)
    tc = StreamTensor(0x30000, 4)
    synced: list[int] = []
    monkeypatch.setattr("safekernels.runtime.cuda_backend.check", lambda *a, **k: synced.append(1))
    fake_driver = types.SimpleNamespace(cuStreamSynchronize=lambda s: None, CUstream=lambda s: s)
    monkeypatch.setattr("safekernels.runtime.cuda_backend._driver", lambda: fake_driver)
    rig.kernel.launch(prepared, rig.stream, ta, tb, tc)
    rig.kernel.launch(prepared, rig.stream, ta, tb, tc)
    assert rig.launcher.launches[-1][0] == "checked" and len(synced) == 2


def test_the_foreign_cache_holds_objects_weakly(fake_torch: type[FakeTensor]) -> None:
    rig = Rig(add)
    prepared = rig.prepare()
    a, b = rig.buffer(4), rig.buffer(4)
    t = fake_torch(0x60000, 4)
    rig.kernel.launch(prepared, rig.stream, a, b, t)
    path = prepared._fast_path
    assert path and len(path.foreign) == 1
    (entry,) = path.foreign.values()
    del t
    assert entry[0]() is None


def test_a_cache_entry_is_used_only_for_its_own_object(fake_torch: type[FakeTensor]) -> None:
    rig = Rig(add)
    prepared = rig.prepare()
    a, b, t = rig.buffer(4), rig.buffer(4), fake_torch(0x60000, 4)
    rig.kernel.launch(prepared, rig.stream, a, b, t)
    path = prepared._fast_path
    assert path
    (entry,) = path.foreign.values()

    class Impostor(FakeTensor):
        @property
        def __cuda_array_interface__(self) -> dict[str, Any]:
            raise RuntimeError("not exportable")

    impostor = Impostor(0x60000, 4)  # same fingerprint, another object: as if it had reused t's id
    path.foreign[id(impostor)] = entry
    fast, _ = rig.agree(prepared, a, b, impostor)
    assert fast[:2] == ("error", RuntimeError)


# -- the fast path's own invariants --------------------------------------------------------------------------
def test_reassigning_a_prepared_field_disables_the_fast_path() -> None:
    rig = Rig(add)
    prepared = rig.prepare()
    bufs = (rig.buffer(4), rig.buffer(4), rig.buffer(4))
    rig.warm(prepared, *bufs)
    prepared.config = simt.LaunchConfig1D(5, 32)
    assert prepared._fast is None
    add.launch(prepared, rig.stream, *bufs)
    via, geometry, _, _ = rig.launcher.launches[-1]
    assert via == "checked" and geometry[0] == 5


def test_launch_failure_raises_the_same_error() -> None:
    rig = Rig(add)
    prepared = rig.prepare()
    bufs = (rig.buffer(4), rig.buffer(4), rig.buffer(4))
    rig.warm(prepared, *bufs)
    rig.launcher.fail_next = True
    errors = []
    for fast in (True, False):
        saved = prepared._fast
        if not fast:
            object.__setattr__(prepared, "_fast", None)
        with pytest.raises(DeviceError) as info:
            add.launch(prepared, rig.stream, *bufs)
        object.__setattr__(prepared, "_fast", saved)
        errors.append(str(info.value))
    assert errors[0] == errors[1] == "kernel `add`: cuLaunchKernel failed: CUDA_ERROR_FAKE"
    assert [via for via, *_ in rig.launcher.launches[-2:]] == ["fast", "checked"]


def test_generated_source_is_straight_line() -> None:
    rig = Rig(rel)
    prepared = rig.prepare()
    rig.warm(prepared, rig.buffer(16), rig.buffer(64), 4, 1)
    source = prepared._fast_path.source
    assert "for " not in source and "while " not in source
    assert source.count("PACK(") == 1 and source.count("LAUNCH(") == 2  # default stream / stream branches


def test_a_moved_buffer_is_refused_on_the_fast_path_too() -> None:
    """`buf.partition(...)` moves the buffer: the generated fast launch must not launch it (it hands the launch to
    the checked path, which raises `UseAfterMoveError`), and a view invalidated with it is refused the same way."""
    rig = Rig(add)
    prepared = rig.prepare()
    a, b, c = rig.buffer(64), rig.buffer(64), rig.buffer(64)
    head = a.view(0, 64)
    rig.warm(prepared, a, b, c)
    rig.warm(prepared, head, b, c)
    assert prepared._fast is not None and prepared._fast(rig.stream, (a, b, c)) is True
    launched = len(rig.launcher.launches)
    part = a.partition((32,))
    assert prepared._fast(rig.stream, (a, b, c)) is False  # refused before touching anything
    assert prepared._fast(rig.stream, (head, b, c)) is False
    assert len(rig.launcher.launches) == launched
    for moved in (a, head):
        fast, _ = rig.agree(prepared, moved, b, c)
        assert fast[:2] == ("error", sk_errors.UseAfterMoveError), fast
        assert "use of moved value" in fast[2] and "partition" in fast[2]
    assert len(rig.launcher.launches) == launched
    # the handle a move hands back is a fresh, live buffer on the same memory: the fast path takes it
    fresh = part.unpartition().as_buffer()
    assert fresh.ptr == a.ptr and fresh.nbytes == a.nbytes
    assert rig.agree(prepared, fresh, b, c)[0][:2] == ("ok", "fast")


def test_the_fast_path_itself_refuses_every_aliasing_pattern() -> None:
    """The generated fast launch must decline (return False, launch nothing) for every overlap of a mutable
    argument with any other argument, on its own, not only agree with the checked path: with a broken overlap test
    in the generated code, the checked path would still raise and `agree` alone could not tell which path ran."""
    cases: list[tuple[SimtKernel, Callable[[Rig, DeviceBuffer[Any]], tuple[Any, ...]], bool]] = [
        (add, lambda r, w: (r.buffer(4), r.buffer(4), r.buffer(4)), True),
        (add, lambda r, w: (w.view(0, 8), w.view(0, 8), r.buffer(8)), True),  # two shared reads may overlap
        (add, lambda r, w: (w, r.buffer(16), w), False),  # E0502 exact
        (add, lambda r, w: (w.view(0, 8), r.buffer(8), w.view(7, 15)), False),  # one element in common
        (add, lambda r, w: (r.buffer(8), w.view(7, 15), w.view(0, 8)), False),  # second input overlaps output
        (add, lambda r, w: (w.view(0, 8), r.buffer(8), w.view(8, 16)), True),  # adjacent, not overlapping
        (add, lambda r, w: (w.view(8, 16), r.buffer(8), w.view(0, 8)), True),
        (add, lambda r, w: (w, r.buffer(16), w.view(3, 3)), True),  # an empty output overlaps nothing
        (two_out, lambda r, w: (r.buffer(4), w.view(0, 8), w.view(7, 9)), False),  # E0499
        (two_out, lambda r, w: (r.buffer(4), w.view(4, 8), w.view(0, 5)), False),  # E0499, reversed order
        (two_out, lambda r, w: (w.view(0, 4), w.view(4, 8), w.view(8, 12)), True),  # disjoint
        (out_first, lambda r, w: (w, w.view(15, 16)), False),  # shared after mutable
    ]
    for number, (kernel, make, accepted) in enumerate(cases):
        rig = Rig(kernel)
        prepared = rig.prepare()
        rig.warm(prepared, *(rig.buffer(4), rig.buffer(4), rig.buffer(4))[: len(kernel.params)])
        fast = prepared._fast
        assert fast is not None
        before = len(rig.launcher.launches)
        args = make(rig, rig.buffer(16))
        assert fast(rig.stream, args) is accepted, (number, kernel.name)
        assert len(rig.launcher.launches) == before + (1 if accepted else 0), number
        if not accepted:
            with pytest.raises(sk_errors.AliasingError):
                kernel.launch(prepared, rig.stream, *args)
            assert len(rig.launcher.launches) == before


def test_a_read_only_buffer_is_declined_as_an_output_by_the_fast_path() -> None:
    rig = Rig(add)
    prepared = rig.prepare()
    a, b, c = rig.buffer(8), rig.buffer(8), rig.buffer(8)
    rig.warm(prepared, a, b, c)
    frozen = DeviceBuffer(
        rig.device, ForeignAllocation(c.ptr + 4096, 32, None, read_only=True), c.dtype, 0, 8
    )
    assert prepared._fast is not None and prepared._fast(rig.stream, (frozen, b, c)) is True  # input: fine
    assert prepared._fast(rig.stream, (a, b, frozen)) is False
    fast, _ = rig.agree(prepared, a, b, frozen)
    assert fast[:2] == ("error", TypeError) and "read-only memory" in fast[2]
