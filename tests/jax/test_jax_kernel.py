"""safekernels kernels called from JAX (`jax.jit` included): results, trace-time errors, immutability.

Needs JAX (skipped cleanly without it, as in CI).  The default runs the kernels on the CPU executor; the `gpu`
test runs them on `Device(0)` from jitted code.
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
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@simt.kernel
@simt.launch_contract(block=128)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


def _kernels(device: Any = None) -> tuple[Any, Any, Any]:
    return (
        skj.jax_kernel(softmax, outputs={"out": "x"}, device=device),
        skj.jax_kernel(add, outputs={"z": "x"}, tile_shapes={"z": (128,)}, device=device),
        skj.jax_kernel(saxpy, outputs={"out": "x"}, device=device),
    )


def test_jit_calls_tile_and_simt_kernels() -> None:
    sm, ad, sx = _kernels()
    x = jax.random.normal(jax.random.key(0), (33, 50), dtype=jnp.float32)
    a = jnp.arange(300, dtype=jnp.float32)
    b = jnp.ones(300, jnp.float32)

    def f(x: Any, a: Any, b: Any, alpha: Any) -> Any:
        return sm(x) * 2.0, ad(a, b), sx(a, b, alpha)

    y, s, t = jax.jit(f)(x, a, b, 3.0)
    np.testing.assert_allclose(np.asarray(y), 2.0 * np.asarray(jax.nn.softmax(x, axis=1)), rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(np.asarray(s), np.arange(300, dtype=np.float32) + 1)
    np.testing.assert_array_equal(np.asarray(t), 3.0 * np.arange(300, dtype=np.float32) + 1)
    np.testing.assert_array_equal(np.asarray(a), np.arange(300, dtype=np.float32))  # inputs untouched


def test_outputs_get_shapes_from_rules_and_dtypes_from_the_kernel() -> None:
    sm, _, _ = _kernels()
    out = jax.eval_shape(sm, jax.ShapeDtypeStruct((7, 50), jnp.float32))
    assert out.shape == (7, 50) and out.dtype == jnp.float32


def test_shape_and_dtype_errors_surface_at_trace_time() -> None:
    sm, _, _ = _kernels()
    with pytest.raises(TypeError, match=r"parameter `x` expects Tensor\[f32\], got a f16 tensor"):
        jax.jit(sm).lower(jnp.zeros((4, 50), jnp.float16))
    with pytest.raises(ValueError, match="JAX arrays are immutable, so the outputs must be allocated"):
        skj.jax_kernel(softmax, outputs=None)  # type: ignore[arg-type]


@pytest.mark.gpu
def test_jit_runs_the_kernel_on_the_gpu() -> None:
    sm, ad, _ = _kernels(device=sk.Device(0))
    x = jax.random.normal(jax.random.key(1), (64, 50), dtype=jnp.float32)
    y = jax.jit(lambda v: sm(v))(x)
    np.testing.assert_allclose(np.asarray(y), np.asarray(jax.nn.softmax(x, axis=1)), rtol=1e-5, atol=1e-7)
    a = jnp.arange(4096, dtype=jnp.float32)
    np.testing.assert_array_equal(np.asarray(jax.jit(ad)(a, a)), 2 * np.arange(4096, dtype=np.float32))
