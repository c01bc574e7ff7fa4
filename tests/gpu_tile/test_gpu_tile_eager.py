"""On the GPU: tile kernels through the public API, the way users launch them (`op = k(...)`; `op.sync_on(s)`),
repeatedly, so the launch-plan cache and its generated launcher are what runs (tile.launch_plan).

Each result is checked against torch; a misaligned tensor and a changed shape must take their own
specializations, the overlap refusal must fire on a cached plan, a then-chain and its graph replay must agree.
Run on the device machine: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.  Imports neither libcst
nor mypy.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module")
def env() -> Any:
    torch = pytest.importorskip("torch")
    import safekernels as sk

    if not sk.gpu_available():
        pytest.skip("no NVIDIA GPU / CUDA driver on this machine")
    device = sk.Device(0)
    return torch, device, device.new_stream()


def _view(torch: Any, value: Any) -> Any:
    """A torch view of a tile tensor or partition's memory (shape included), for checking results."""
    return torch.as_tensor(value.buffer, device="cuda").view(value.shape)


def test_repeated_eager_launches_use_the_plan_and_stay_right(env: Any) -> None:
    torch, device, stream = env
    from bench.kernels import tile_kernels as K
    from safekernels import tile
    from safekernels.dtypes import f32

    n = 100_000  # ragged: not a multiple of the tile
    z = tile.zeros((n,), f32, device=device).partition((K.VEC_TILE,)).sync_on(stream)
    x = tile.zeros((n,), f32, device=device).sync_on(stream)
    y = tile.zeros((n,), f32, device=device).sync_on(stream)
    tx, ty = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    _view(torch, x).copy_(tx)
    _view(torch, y).copy_(ty)
    for i in range(5):
        _view(torch, z).fill_(float("nan"))
        z, a, x, y = K.saxpy(z, 0.25 * i, x, y).sync_on(stream)
        assert torch.allclose(_view(torch, z), 0.25 * i * tx + ty, rtol=1e-6, atol=1e-6), i
    plans = [p for p in K.saxpy._plans.values() if p.device is device]
    assert len(plans) == 1 and plans[0].gpu_launch, "the repeats did not take the planned launch"
    assert float(a) == 1.0


def test_misaligned_and_reshaped_tensors_take_their_own_specialization(env: Any) -> None:
    torch, device, stream = env
    import safekernels as sk
    from bench.kernels import tile_kernels as K
    from safekernels.tile import Tensor

    for n, offset in ((4096 * 3, 0), (4096 * 3, 1), (4096 * 3, 0), (5000, 0)):
        raw = torch.randn(n + 1, device="cuda")
        tx = raw[offset : offset + n]  # offset 1: a 4-byte aligned base address
        ty = torch.randn(n, device="cuda")
        tz = torch.full((n,), float("nan"), device="cuda")
        x = Tensor(sk.as_buffer(tx, device), (n,))
        y = Tensor(sk.as_buffer(ty, device), (n,))
        z = Tensor(sk.as_buffer(tz, device), (n,)).partition((K.VEC_TILE,))
        K.vecadd(z, x, y).sync_on(stream)
        assert torch.equal(tz, tx + ty), (n, offset)


def test_the_overlap_refusal_fires_on_a_cached_gpu_plan(env: Any) -> None:
    torch, device, stream = env
    import safekernels as sk
    from bench.kernels import tile_kernels as K
    from safekernels.errors import AliasingError
    from safekernels.tile import Tensor

    n = 8192
    for _ in range(2):
        a, b, c = (torch.randn(n, device="cuda") for _ in range(3))
        parts = Tensor(sk.as_buffer(c, device), (n,)).partition((K.VEC_TILE,))
        K.vecadd(parts, Tensor(sk.as_buffer(a, device), (n,)), Tensor(sk.as_buffer(b, device), (n,))).sync_on(stream)
    shared = torch.randn(n, device="cuda")
    before = shared.clone()
    op = K.vecadd(
        Tensor(sk.as_buffer(shared, device), (n,)).partition((K.VEC_TILE,)),
        Tensor(sk.as_buffer(shared, device), (n,)),
        Tensor(sk.as_buffer(torch.randn(n, device="cuda"), device), (n,)),
    )
    with pytest.raises(AliasingError, match=r"cannot borrow `z` as mutable because it overlaps `x`"):
        op.sync_on(stream)
    torch.cuda.synchronize()
    assert torch.equal(shared, before)  # refused before the kernel ran


def test_a_then_chain_and_its_graph_replay_agree(env: Any) -> None:
    torch, device, stream = env
    from bench.kernels import tile_kernels as K
    from safekernels import tile
    from safekernels.dtypes import f32

    def chain() -> Any:
        z = tile.zeros((1000,), f32, device=device).partition((K.VEC_TILE,))
        op = K.vecadd(z, tile.arange(1000, f32, device=device), tile.full((1000,), 0.5, f32, device=device))
        for _ in range(49):
            op = op.then(lambda v: K.vecadd(v[0], v[1], v[2]))
        return op

    eager = chain().sync_on(stream)[0].to_numpy(stream)
    np.testing.assert_array_equal(eager, np.arange(1000, dtype=np.float32) + 0.5)
    graph = chain().graph_on(stream)
    graph.replay()
    stream.synchronize()
    np.testing.assert_array_equal(graph.value[0].to_numpy(stream), eager)
    del torch


def test_a_load_like_shape_disagreement_is_refused_on_the_gpu(env: Any) -> None:
    _torch, device, stream = env
    from bench.kernels import tile_kernels as K
    from safekernels import tile
    from safekernels.dtypes import f32
    from safekernels.errors import ShapeError

    z = tile.zeros((1000,), f32, device=device).partition((K.VEC_TILE,)).sync_on(stream)
    y = tile.zeros((1000,), f32, device=device).sync_on(stream)
    with pytest.raises(ShapeError, match=r"vecadd: parameter `x` has shape \(999,\)"):
        K.vecadd(z, tile.zeros((999,), f32, device=device), y)  # refused when the launch is built
    hidden = tile.zeros((999,), f32, device=device).then(lambda t: t)  # the shape is known when the chain runs
    op = K.vecadd(z, hidden, y)
    with pytest.raises(ShapeError, match=r"vecadd: parameter `x` has shape \(999,\)"):
        op.sync_on(stream)  # the GPU launch's full check, before anything runs
