"""safekernels kernels as torch operators: eager, `torch.compile(fullgraph=True)`, `opcheck`, autograd, CUDA graphs.

Needs torch (skipped cleanly without it, as in CI).  The CPU tests run the kernels on the CPU executor (CPU
tensors); the `gpu` tests run the same operators on CUDA tensors, inside torch's CUDA-graph capture too.
Operator names carry a per-device suffix so each registers once per process.
"""

from __future__ import annotations

from typing import Annotated, Any

import pytest

torch = pytest.importorskip("torch")

import safekernels.torch as skt  # noqa: E402
from safekernels import simt, tile  # noqa: E402
from safekernels.dtypes import f32, i32  # noqa: E402
from safekernels.errors import AliasingError  # noqa: E402
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

ROW = 64


@tile.kernel
def softmax(out: Annotated[Partition[f32], tile.Dims(1, ROW)], x: Tensor[f32]) -> None:
    rows = tile.load_like(x, out)
    cols = tile.iota(ROW, i32)
    rows = tile.where(cols < x.shape[1], rows, float("-inf"))
    e = tile.exp(rows - tile.max(rows, axis=1, keepdims=True))
    out.store(e * (1.0 / tile.sum(e, axis=1, keepdims=True)))


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@simt.kernel
@simt.launch_contract(block=128)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


@simt.kernel
@simt.launch_contract(block=64)
def histogram(values: Slice[i32], bins: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(values):
        bins.fetch_add(values[i] % len(bins), i32(1))


class Ops:
    """The three operators of one device, registered once."""

    def __init__(self, tag: str) -> None:
        self.softmax = skt.custom_op(f"sktest_{tag}::softmax", softmax, outputs={"out": "x"})
        self.add_ = skt.custom_op(f"sktest_{tag}::add_", add, tile_shapes={"z": (128,)})
        self.saxpy = skt.custom_op(f"sktest_{tag}::saxpy", saxpy, outputs={"out": "x"})

        def backward(ctx: Any, grad: Any) -> Any:
            (y,) = ctx.saved_tensors
            return y * (grad - (grad * y).sum(dim=1, keepdim=True))

        def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
            ctx.save_for_backward(output)

        self.softmax.register_autograd(backward, setup_context=setup_context)


_OPS: dict[str, Ops] = {}


def ops_for(device: str) -> Ops:
    if device not in _OPS:
        _OPS[device] = Ops(device)
    return _OPS[device]


def _devices() -> list[Any]:
    return ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)]


@pytest.fixture(params=_devices())
def device(request: pytest.FixtureRequest) -> str:
    if request.param == "cuda" and not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device here")
    return str(request.param)


def test_eager_results_match_torch(device: str) -> None:
    ops = ops_for(device)
    x = torch.randn(37, 50, device=device)
    torch.testing.assert_close(ops.softmax(x), torch.softmax(x, dim=1))
    a, b = torch.randn(300, device=device), torch.randn(300, device=device)
    z = torch.empty(300, device=device)
    assert ops.add_(z, a, b) is None
    torch.testing.assert_close(z, a + b)
    torch.testing.assert_close(ops.saxpy(a, b, 3.0), 3.0 * a + b)


def test_mutates_args_are_derived_from_parameter_kinds() -> None:
    ops = ops_for("cpu")
    assert ops.add_.mutates_args == ("z",)
    assert ops.softmax.mutates_args == ()
    schema = ops.add_.opoverload._schema
    assert [a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write] == ["z"]


def test_compile_fullgraph_has_no_graph_break(device: str) -> None:
    ops = ops_for(device)
    torch._dynamo.reset()

    def f(x: Any, a: Any, b: Any) -> Any:
        z = torch.empty_like(a)
        ops.add_(z, a, b)  # in place: functionalized by torch, since the op declares the mutation
        return ops.softmax(x) * 2.0, z + ops.saxpy(a, b, 2.0)

    compiled = torch.compile(f, fullgraph=True)  # fullgraph: any graph break raises
    x = torch.randn(16, 50, device=device)
    a, b = torch.randn(300, device=device), torch.randn(300, device=device)
    y, w = compiled(x, a, b)
    torch.testing.assert_close(y, torch.softmax(x, dim=1) * 2.0)
    torch.testing.assert_close(w, (a + b) + (2.0 * a + b))
    explanation = torch._dynamo.explain(f)(x, a, b)
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1


def test_opcheck_passes(device: str) -> None:
    ops = ops_for(device)
    x = torch.randn(9, 50, device=device, requires_grad=True)
    a, b = torch.randn(300, device=device), torch.randn(300, device=device)
    torch.library.opcheck(ops.softmax.op, (x,))
    torch.library.opcheck(ops.add_.op, (torch.empty(300, device=device), a, b))
    torch.library.opcheck(ops.saxpy.op, (a, b, 3.0))


def test_registered_backward_matches_torch(device: str) -> None:
    ops = ops_for(device)
    x = torch.randn(5, 40, device=device, dtype=torch.float32, requires_grad=True)
    grad = torch.randn(5, 40, device=device)
    (ours,) = torch.autograd.grad(ops.softmax(x), x, grad)
    (ref,) = torch.autograd.grad(torch.softmax(x, dim=1), x, grad)
    torch.testing.assert_close(ours, ref)


def test_runtime_aliasing_refusal_still_applies(device: str) -> None:
    ops = ops_for(device)
    a = torch.ones(256, device=device)
    with pytest.raises(AliasingError, match="cannot borrow `z` as mutable because it overlaps `x`"):
        ops.add_(a, a, torch.ones(256, device=device))
    with pytest.raises(AliasingError):
        ops.add_(a[:128], a[64:192], torch.ones(128, device=device))  # overlapping views of one tensor


def test_fake_kernel_reports_launch_errors_at_trace_time(device: str) -> None:
    ops = ops_for(device)
    compiled = torch.compile(lambda x: ops.softmax(x), fullgraph=True)
    with pytest.raises(Exception, match=r"expects Tensor\[f32\], got a f64 tensor"):
        compiled(torch.randn(4, 50, device=device, dtype=torch.float64))
    with pytest.raises(ValueError, match="contiguous"):
        ops.softmax(torch.randn(50, 4, device=device).t())


def test_registration_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="output `z` of `add` has no fixed tile shape"):
        skt.custom_op("sktest_err::add", add)
    with pytest.raises(ValueError, match="must look like 'namespace::op_name'"):
        skt.custom_op("softmax", softmax)
    op = skt.custom_op("sktest_err::add_inplace", add, tile_shapes={"z": (64,)})
    with pytest.raises(TypeError, match="register_autograd needs the functional form"):
        op.register_autograd(lambda ctx, g: g)


def test_functional_atomic_output_starts_from_zeros_and_launch_rule_sets_the_grid() -> None:
    op = skt.custom_op(
        "sktest_cpu_only::histogram",
        histogram,
        outputs={"bins": (10,)},
        launch=lambda values, bins: simt.LaunchConfig1D.for_len(len(values), block=64),
    )
    assert op.mutates_args == () and str(op.opoverload._schema).endswith("(Tensor values) -> Tensor")
    values = torch.arange(1000, dtype=torch.int32)
    counts = op(values)
    assert counts.dtype == torch.int32
    torch.testing.assert_close(counts.long(), torch.bincount(values.long() % 10, minlength=10))
    compiled = torch.compile(lambda v: op(v), fullgraph=True)
    torch.testing.assert_close(compiled(values).long(), torch.bincount(values.long() % 10, minlength=10))


@pytest.mark.gpu
def test_cuda_graph_capture_replays_the_launch() -> None:
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device here")
    ops = ops_for("cuda")
    x = torch.randn(64, 50, device="cuda")
    a, b = torch.randn(4096, device="cuda"), torch.randn(4096, device="cuda")
    z = torch.empty(4096, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up (compiles and loads the kernels) off the capture, as torch asks
        y = ops.softmax(x)
        ops.add_(z, a, b)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = ops.softmax(x)
        ops.add_(z, a, b)
    x.copy_(torch.randn(64, 50, device="cuda"))
    a.copy_(torch.randn(4096, device="cuda"))
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(y, torch.softmax(x, dim=1))
    torch.testing.assert_close(z, a + b)


@pytest.mark.gpu
def test_launches_on_torchs_current_stream() -> None:
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device here")
    ops = ops_for("cuda")
    s = torch.cuda.Stream()
    x = torch.randn(512, 50, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(10_000_000)  # the stream is busy: a launch elsewhere would race the sleep
        y = ops.softmax(x)
        ref = torch.softmax(x, dim=1)
    s.synchronize()
    torch.testing.assert_close(y, ref)
