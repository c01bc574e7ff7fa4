"""Every dtype crosses the torch bridge both ways, and an untraced `custom_op` call skips torch's dispatcher.

Dtypes: f16, bf16, f32, f64, the 8-bit floats, every integer type and bool, on CPU tensors (the CPU executor)
and CUDA tensors (`gpu`), through the three doors a torch user has: a `custom_op` (a generic copy kernel, so
every dtype is one operator), `sk.as_buffer(tensor)` (zero copy, the tensor's own address) and
`torch.from_dlpack(DLPackView(buffer))` (a safekernels buffer seen by torch, zero copy).

The direct path: a repeat call with the same signature must not enter torch's operator at all, while any
tracing (fake mode, `torch.compile`, autograd) must; its answers must match the dispatcher's.

Needs torch (skipped cleanly without it, as in CI).
"""

from __future__ import annotations

from typing import Any, TypeVar

import pytest

torch = pytest.importorskip("torch")

import safekernels as sk  # noqa: E402
import safekernels.torch as skt  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.dtypes import f32  # noqa: E402
from safekernels.errors import AliasingError  # noqa: E402
from safekernels.runtime.interop import DLPackView, is_torch_tensor  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

T = TypeVar("T")

#: torch dtype name -> safekernels dtype name: the whole language
DTYPES = {
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "float8_e4m3fn": "f8e4m3",
    "float8_e5m2": "f8e5m2",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "bool": "bool",
}


@tile.kernel
def copy(z: Partition[T], x: Tensor[T]) -> None:
    z.store(tile.load_like(x, z))


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


_OPS: dict[str, Any] = {}


def _op(name: str, kernel: Any, **kw: Any) -> Any:
    if name not in _OPS:
        _OPS[name] = skt.custom_op(name, kernel, **kw)
    return _OPS[name]


def _devices() -> list[Any]:
    return ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)]


@pytest.fixture(params=_devices())
def device(request: pytest.FixtureRequest) -> str:
    if request.param == "cuda" and not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device here")
    return str(request.param)


def _sample(name: str, device: str, n: int = 300) -> Any:
    """Distinct, exactly representable values of torch dtype `name` (for the 8-bit floats too)."""
    dtype = getattr(torch, name)
    if name == "bool":
        return (torch.arange(n, device=device) % 3 == 0).to(dtype)
    base = torch.arange(n, device=device) % 100
    if dtype.is_floating_point:
        return (base.to(torch.float32) / 4).to(dtype)  # quarters up to 24.75: exact in e4m3 and e5m2
    return base.to(dtype)


def _same(a: Any, b: Any) -> bool:
    """Bitwise equality, for dtypes torch cannot compare directly (the 8-bit floats, the wide unsigned ints)."""
    assert a.dtype == b.dtype and a.shape == b.shape
    return bool(torch.equal(a.view(torch.uint8), b.view(torch.uint8)))


@pytest.mark.parametrize("name", sorted(DTYPES))
def test_custom_op_copies_every_dtype(device: str, name: str) -> None:
    op = _op(f"skdtype_{device}::copy", copy, outputs={"z": "x"}, tile_shapes={"z": (128,)})
    x = _sample(name, device)
    for _ in range(3):  # first call (through the real kernel), then the direct path
        y = op(x)
        assert y.dtype == x.dtype and _same(y, x)
    if device == "cuda":
        torch.cuda.synchronize()


@pytest.mark.parametrize("name", sorted(DTYPES))
def test_as_buffer_and_from_dlpack_round_trip(device: str, name: str) -> None:
    x = _sample(name, device)
    buffer = sk.as_buffer(x)
    assert buffer.dtype.name == DTYPES[name] and buffer.length == x.numel() and buffer.ptr == x.data_ptr()
    assert buffer.device.is_cpu == (device == "cpu")
    back = torch.from_dlpack(DLPackView(buffer))  # torch sees the same memory, with the same dtype
    assert back.dtype == x.dtype and back.device == x.device and back.data_ptr() == x.data_ptr()
    assert _same(back, x)
    stream = buffer.device.default_stream
    fresh = sk.to_device(buffer.to_numpy(), stream, dtype=buffer.dtype, device=buffer.device)
    seen = torch.from_dlpack(DLPackView(fresh))  # memory safekernels allocated, seen by torch
    assert seen.dtype == x.dtype and seen.device == x.device and _same(seen, x)


def test_as_buffer_refuses_what_it_cannot_describe(device: str) -> None:
    with pytest.raises(TypeError, match="complex64"):
        sk.as_buffer(torch.zeros(4, dtype=torch.complex64, device=device))
    with pytest.raises(ValueError, match="contiguous"):
        sk.as_buffer(torch.zeros(4, 4, device=device).t())
    assert is_torch_tensor(torch.nn.Parameter(torch.zeros(2, device=device)))


# -- the direct path ------------------------------------------------------------------------------------------
class CountingOp:
    """Stands in for `SafeKernelOp.op` (torch's operator) and counts the calls that reach it."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls = 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.real(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_an_untraced_repeat_call_skips_torch(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    op = _op(f"skdtype_{device}::add_", add, tile_shapes={"z": (128,)})
    counting = CountingOp(op.op)
    monkeypatch.setattr(op, "op", counting)
    a, b = torch.randn(1000, device=device), torch.randn(1000, device=device)
    for _ in range(3):
        z = torch.empty(1000, device=device)
        version = z._version
        op(z, a, b)
        torch.testing.assert_close(z, a + b)
        assert z._version > version  # the write is visible to autograd's version checks
    assert counting.calls == 0
    # no_grad and inference mode are untraced too (inference tensors keep no version counter to bump)
    with torch.no_grad():
        op(torch.empty(1000, device=device), a, b)
    with torch.inference_mode():
        zi = torch.empty(1000, device=device)
        op(zi, a, b)
        torch.testing.assert_close(zi, a + b)
    assert counting.calls == 0
    # fake mode and autograd needing the op: through torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode() as mode:
        fa = mode.from_tensor(a)
        op(torch.empty_like(fa), fa, fa.clone())
    assert counting.calls == 1
    leaf = torch.randn(1000, device=device, requires_grad=True)
    try:
        op(leaf, a, b)  # autograd is involved: torch decides (it may refuse the in-place write to a leaf)
    except RuntimeError:
        pass
    assert counting.calls == 2


def test_the_profiler_and_device_types_keep_torchs_path(monkeypatch: pytest.MonkeyPatch) -> None:
    op = _op("skdtype_cpu::add_", add, tile_shapes={"z": (128,)})
    counting = CountingOp(op.op)
    monkeypatch.setattr(op, "op", counting)
    a, z = torch.ones(256), torch.empty(256)
    op(z, a, a)
    with torch.profiler.profile():  # the profiler records torch's operator: the call goes through torch
        op(z, a, a)
    assert counting.calls == 1
    cuda_only = _op("skdtype_cuda_only::add_", add, tile_shapes={"z": (128,)}, device_types="cuda")
    for _ in range(2):  # registered for CUDA only: CPU tensors get torch's refusal, every time
        with pytest.raises(NotImplementedError, match="CPU"):
            cuda_only(torch.empty(256), a, a)


def test_the_direct_path_still_refuses_aliasing_and_layout(device: str) -> None:
    op = _op(f"skdtype_{device}::add_", add, tile_shapes={"z": (128,)})
    a, b = torch.randn(512, device=device), torch.randn(512, device=device)
    z = torch.empty(512, device=device)
    op(z, a, b)
    op(z, a, b)  # the signature is planned now: the refusals below come from the direct path
    with pytest.raises(AliasingError, match="overlaps"):
        op(a, a, b)
    big = torch.randn(1024, device=device)
    with pytest.raises(AliasingError):
        op(big[:512], big[256:768], b)  # overlapping views, same signature
    with pytest.raises(ValueError, match="contiguous"):
        op(z, torch.randn(1024, device=device)[::2], b)
    torch.testing.assert_close(z, a + b)


def test_a_direct_call_matches_the_dispatcher_with_scalars_and_new_shapes(device: str) -> None:
    op = _op(f"skdtype_{device}::copy", copy, outputs={"z": "x"}, tile_shapes={"z": (128,)})
    for n in (1, 127, 128, 129, 4097, 129):
        x = torch.randn(n, device=device)
        torch.testing.assert_close(op(x), x)
        torch.testing.assert_close(op.opoverload(x), x)


@pytest.mark.gpu
def test_direct_calls_are_captured_by_cuda_graphs() -> None:
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device here")
    op = _op("skdtype_cuda::add_", add, tile_shapes={"z": (128,)})
    a, b, z = (torch.randn(4096, device="cuda") for _ in range(3))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            op(z, a, b)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        op(z, a, b)
    a.copy_(torch.randn(4096, device="cuda"))
    z.zero_()
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(z, a + b)
