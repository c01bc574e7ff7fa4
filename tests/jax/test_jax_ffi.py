"""The FFI route of `jax_kernel`: XLA calls safekernels' registered handler with its own buffers (and, on
CUDA, its own stream), instead of a `pure_callback` that hands numpy copies to the host.

The CPU tests drive the same ctypes handler through XLA:CPU (host buffers, the CPU executor), so the call
frame reading, plans, scalars, errors and multi-output indexing are tested without a GPU; the `gpu` tests run
the kernels on XLA's CUDA stream, under `jax.jit` and eagerly, and check that no host copy happens.

Needs JAX (skipped cleanly without it, as in CI).
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import safekernels as sk  # noqa: E402
import safekernels.jax as skj  # noqa: E402
from safekernels import simt, tile  # noqa: E402
from safekernels.dtypes import f32, i32  # noqa: E402
from safekernels.jax import ffi_target  # noqa: E402
from safekernels.simt import DisjointSlice, Slice, thread  # noqa: E402
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
def scale_shift(z: Partition[f32], x: Tensor[f32], a: f32, b: f32) -> None:
    z.store(tile.load_like(x, z) * a + b)


@tile.kernel
def split(plus: Partition[f32], times: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    plus.store(tile.load_like(x, plus) + tile.load_like(y, plus))
    times.store(tile.load_like(x, times) * tile.load_like(y, times))


@simt.kernel
@simt.launch_contract(block=128)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


def _kernels(**options: Any) -> dict[str, Any]:
    return {
        "softmax": skj.jax_kernel(softmax, outputs={"out": "x"}, **options),
        "scale_shift": skj.jax_kernel(scale_shift, outputs={"z": "x"}, tile_shapes={"z": (128,)}, **options),
        "split": skj.jax_kernel(
            split, outputs={"plus": "x", "times": "x"}, tile_shapes={"plus": (128,), "times": (128,)}, **options
        ),
        "saxpy": skj.jax_kernel(saxpy, outputs={"out": "x"}, **options),
    }


def _check_all(k: dict[str, Any], device: Any, *, jit: bool) -> None:
    """Every kernel, static and traced scalars, against numpy."""
    key = jax.random.key(3)
    x = jax.device_put(jax.random.normal(key, (37, 50), dtype=jnp.float32), device)
    a = jax.device_put(jnp.arange(1000, dtype=jnp.float32) / 8, device)
    b = jax.device_put(jnp.full(1000, 0.5, jnp.float32), device)
    wrap = jax.jit if jit else (lambda f: f)
    sm = wrap(lambda v: k["softmax"](v) * 2.0)(x)
    ref = np.exp(np.asarray(x) - np.asarray(x).max(axis=1, keepdims=True))
    np.testing.assert_allclose(np.asarray(sm), 2.0 * ref / ref.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
    static = wrap(lambda v: k["scale_shift"](v, 3.0, -1.0))(a)
    traced = wrap(k["scale_shift"])(a, 3.0, -1.0)
    np.testing.assert_array_equal(np.asarray(static), 3.0 * np.asarray(a) - 1.0)
    np.testing.assert_array_equal(np.asarray(traced), 3.0 * np.asarray(a) - 1.0)
    plus, times = wrap(k["split"])(a, b)
    np.testing.assert_array_equal(np.asarray(plus), np.asarray(a) + 0.5)
    np.testing.assert_array_equal(np.asarray(times), np.asarray(a) * 0.5)
    out = wrap(k["saxpy"])(a, b, 2.0)
    np.testing.assert_array_equal(np.asarray(out), 2.0 * np.asarray(a) + 0.5)
    np.testing.assert_array_equal(np.asarray(a), np.arange(1000, dtype=np.float32) / 8)  # inputs untouched


def _lowered(fn: Any, *args: Any) -> str:
    return str(jax.jit(fn).lower(*args).as_text())


# -- CPU: the same handler, through XLA:CPU ---------------------------------------------------------------------
def test_jit_lowers_to_the_ffi_target_by_default() -> None:
    k = _kernels()
    x = jnp.zeros((4, 50), jnp.float32)
    assert ffi_target.TARGET in _lowered(k["softmax"], x)
    callback = _lowered(skj.jax_kernel(softmax, outputs={"out": "x"}, via="callback"), x)
    assert ffi_target.TARGET not in callback and "callback" in callback


def test_ffi_route_on_xla_cpu_matches_numpy_under_jit_and_eagerly() -> None:
    cpu = jax.devices("cpu")[0]
    _check_all(_kernels(), cpu, jit=True)
    _check_all(_kernels(), cpu, jit=False)


def test_ffi_and_callback_routes_agree() -> None:
    x = jax.random.normal(jax.random.key(7), (300,), dtype=jnp.float32)
    results = [
        np.asarray(jax.jit(skj.jax_kernel(saxpy, outputs={"out": "x"}, via=via))(x, x, 1.5))
        for via in ("ffi", "callback")
    ]
    np.testing.assert_array_equal(results[0], results[1])


def test_a_retrace_reuses_the_plan() -> None:
    k = skj.jax_kernel(scale_shift, outputs={"z": "x"}, tile_shapes={"z": (128,)})
    a = jnp.ones(256, jnp.float32)
    jax.jit(lambda v: k(v, 2.0, 0.0))(a)
    before = len(ffi_target.PLANS.plans)
    jax.jit(lambda v: k(v, 2.0, 0.0) + 1)(a)  # a new trace of the same call: the same plan
    k(a, 2.0, 0.0)  # eager: the same plan again
    assert len(ffi_target.PLANS.plans) == before
    jax.jit(lambda v: k(v, 3.0, 0.0))(a)  # another static scalar: another plan
    assert len(ffi_target.PLANS.plans) == before + 1


def test_eager_calls_reuse_one_compiled_call() -> None:
    k = skj.jax_kernel(scale_shift, outputs={"z": "x"}, tile_shapes={"z": (128,)})
    a = jnp.arange(256, dtype=jnp.float32)
    for scalar in (2.0, 2.0, np.float32(2.0), jnp.float32(2.0)):  # concrete scalars: static, by value
        np.testing.assert_array_equal(np.asarray(k(a, scalar, 1.0)), 2.0 * np.asarray(a) + 1.0)
    assert k._jitted._cache_size() == 1
    np.testing.assert_array_equal(np.asarray(k(a, 3.0, 1.0)), 3.0 * np.asarray(a) + 1.0)
    assert k._jitted._cache_size() == 2


def test_vmap_runs_the_call_per_row() -> None:
    k = skj.jax_kernel(saxpy, outputs={"out": "x"})
    xs = jnp.arange(3 * 200, dtype=jnp.float32).reshape(3, 200)
    out = jax.jit(jax.vmap(lambda r: k(r, r, 2.0)))(xs)
    np.testing.assert_array_equal(np.asarray(out), 3.0 * np.asarray(xs))


def test_explicit_cpu_device_takes_the_ffi_route_on_xla_cpu() -> None:
    k = skj.jax_kernel(saxpy, outputs={"out": "x"}, device=sk.Device.cpu())
    x = jax.device_put(jnp.arange(300, dtype=jnp.float32), jax.devices("cpu")[0])
    assert ffi_target.TARGET in _lowered(lambda v: k(v, v, 1.0), x)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: k(v, v, 1.0))(x)), 2.0 * np.asarray(x))


def test_a_failing_launch_is_a_jax_error_naming_the_kernel() -> None:
    def no_config(**_: Any) -> Any:
        raise ValueError("no launch configuration for this length")

    k = skj.jax_kernel(saxpy, outputs={"out": "x"}, launch=no_config)
    x = jnp.ones(64, jnp.float32)
    with pytest.raises(Exception, match=r"safekernels_launch \(jax_kernel\(saxpy\)\): ValueError: no launch config"):
        jax.block_until_ready(jax.jit(lambda v: k(v, v, 1.0))(x))


def test_a_call_traced_by_another_process_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A persistent compilation cache or jax.export can hand XLA a call made by another process: its `call`
    attribute carries that process's token, so the handler refuses it instead of launching a plan of ours."""
    k = skj.jax_kernel(scale_shift, outputs={"z": "x"}, tile_shapes={"z": (128,)})
    a = jnp.ones(256, jnp.float32)
    compiled = jax.jit(lambda v: k(v, 5.0, 0.0)).lower(a).compile()
    np.testing.assert_array_equal(np.asarray(compiled(a)), np.full(256, 5.0, np.float32))
    monkeypatch.setattr(ffi_target.PLANS, "token", ffi_target.PLANS.token ^ 1)  # "this process" is another now
    with pytest.raises(Exception, match="names no plan of this process: it was traced by another process"):
        jax.block_until_ready(compiled(a))


def test_via_is_checked() -> None:
    with pytest.raises(ValueError, match="via= is 'ffi', 'callback' or None"):
        skj.jax_kernel(saxpy, outputs={"out": "x"}, via="host")  # type: ignore[arg-type]


# -- GPU: XLA's own buffers and CUstream ---------------------------------------------------------------------------
@pytest.fixture
def jax_gpu() -> Any:
    try:
        return jax.devices("gpu")[0]
    except RuntimeError:
        pytest.skip("JAX has no GPU here")


@pytest.mark.gpu
def test_ffi_route_on_cuda_matches_numpy_under_jit_and_eagerly(jax_gpu: Any) -> None:
    x = jax.device_put(jnp.zeros((4, 50), jnp.float32), jax_gpu)
    assert ffi_target.TARGET in _lowered(_kernels()["softmax"], x)
    _check_all(_kernels(), jax_gpu, jit=True)
    _check_all(_kernels(), jax_gpu, jit=False)
    _check_all(_kernels(device=sk.Device(0)), jax_gpu, jit=True)  # an explicit GPU device: the same route


@pytest.mark.gpu
def test_ffi_route_on_cuda_makes_no_host_copy(jax_gpu: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    k = _kernels()
    a = jax.device_put(jnp.arange(1 << 20, dtype=jnp.float32), jax_gpu)
    f = jax.jit(lambda v: k["saxpy"](v, v, 2.0) + k["scale_shift"](v, 0.5, 1.0))
    expected = 2.5 * np.asarray(a) + np.asarray(a) + 1.0
    backend = sk.Device(0).backend

    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("the FFI route copied between host and device")

    monkeypatch.setattr(backend, "copy_to_host", refuse)
    monkeypatch.setattr(backend, "copy_from_host", refuse)
    for _ in range(3):
        out = f(a)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6)


@pytest.mark.gpu
def test_ffi_output_is_ordered_with_the_xla_ops_around_it(jax_gpu: Any) -> None:
    """Producer and consumer XLA ops on the same stream: a long chain must see every kernel's result."""
    k = skj.jax_kernel(scale_shift, outputs={"z": "x"}, tile_shapes={"z": (128,)})

    def chain(v: Any) -> Any:
        for _ in range(20):
            v = k(jnp.sin(v) * 0 + v, 1.0, 1.0)  # an XLA op feeds the kernel, the kernel feeds the next op
        return v

    a = jax.device_put(jnp.zeros(1 << 22, jnp.float32), jax_gpu)
    np.testing.assert_array_equal(np.asarray(jax.jit(chain)(a)), np.full(1 << 22, 20.0, np.float32))
