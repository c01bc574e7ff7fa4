"""Every dtype crosses the JAX bridge both ways: `jax_kernel` under `jax.jit` (by its FFI route and by its
callback route), `sk.as_buffer(array)`, and `jnp.from_dlpack(DLPackView(buffer))`.

A generic copy kernel makes every dtype one kernel: f16, bf16, f32, f64, the 8-bit floats (ml_dtypes'
`float8_e4m3fn` / `float8_e5m2`), every integer type and bool.  The default rows run on the CPU executor (JAX
arrays in host memory); the `gpu` rows run the kernel on `Device(0)` and wrap JAX's GPU arrays.

Needs JAX (skipped cleanly without it, as in CI).
"""

from __future__ import annotations

import contextlib
from typing import Any, TypeVar

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import safekernels as sk  # noqa: E402
import safekernels.jax as skj  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.runtime.interop import DLPackView  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

T = TypeVar("T")

#: JAX dtype name -> safekernels dtype name (jax enables 64-bit types only with x64; those rows skip then)
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


def _sample(name: str, n: int = 300) -> Any:
    dtype = getattr(jnp, "bool_" if name == "bool" else name)
    base = np.arange(n) % 100
    if name == "bool":
        values = jnp.asarray(base % 3 == 0)
    elif jnp.issubdtype(dtype, jnp.floating):
        values = jnp.asarray(base.astype(np.float32) / 4).astype(dtype)  # quarters: exact in every float
    else:
        values = jnp.asarray(base).astype(dtype)
    if values.dtype != dtype:
        pytest.skip(f"JAX gives {values.dtype} for {name} here (64-bit types need jax_enable_x64)")
    return values


def _scope(name: str) -> Any:
    """64-bit dtypes exist in JAX only with x64 enabled: enable it for their rows (`jax.enable_x64`)."""
    if name not in ("float64", "int64", "uint64"):
        return contextlib.nullcontext()
    enable = getattr(jax, "enable_x64", None)
    if enable is None:
        pytest.skip("this JAX has no jax.enable_x64 scope for the 64-bit types")
    return enable(True)


def _bits(array: Any) -> np.ndarray[Any, Any]:
    host = np.asarray(array)
    return host.view(np.uint8) if host.dtype.itemsize == 1 else host.view(f"u{host.dtype.itemsize}")


def _devices() -> list[Any]:
    return ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]


@pytest.fixture(params=_devices())
def where(request: pytest.FixtureRequest) -> str:
    if request.param == "gpu":
        try:
            jax.devices("gpu")
        except RuntimeError:
            pytest.skip("JAX has no GPU here")
        if not sk.gpu_available():
            pytest.skip("no CUDA GPU for safekernels here")
    return str(request.param)


@pytest.mark.parametrize("via", ["ffi", "callback"])
@pytest.mark.parametrize("name", sorted(DTYPES))
def test_jax_kernel_copies_every_dtype_under_jit(where: str, name: str, via: str) -> None:
    """Both routes: the FFI custom call (XLA's own buffers: host memory on XLA:CPU, device memory and XLA's
    stream on CUDA) and the `pure_callback` (numpy arrays on the host; copied to the GPU for `Device(0)`)."""
    device = sk.Device(0) if where == "gpu" else None
    kernel = skj.jax_kernel(copy, outputs={"z": "x"}, tile_shapes={"z": (128,)}, device=device, via=via)  # type: ignore[arg-type]
    with _scope(name):
        x = jax.device_put(_sample(name), jax.devices(where)[0])
        y = jax.jit(kernel)(x)
        assert y.dtype == x.dtype and y.shape == x.shape
        np.testing.assert_array_equal(_bits(y), _bits(x))


@pytest.mark.parametrize("name", sorted(DTYPES))
def test_as_buffer_and_from_dlpack_round_trip(where: str, name: str) -> None:
    with _scope(name):
        _round_trip(where, name)


def _round_trip(where: str, name: str) -> None:
    x = _sample(name)
    if where == "gpu":
        x = jax.device_put(x, jax.devices("gpu")[0])
    else:
        x = jax.device_put(x, jax.devices("cpu")[0])
    x.block_until_ready()
    buffer = sk.as_buffer(x)
    assert buffer.dtype.name == DTYPES[name] and buffer.length == x.size
    assert buffer.device.is_cpu == (where == "cpu")
    host = np.empty(buffer.length, buffer.dtype.storage)
    buffer.device.backend.copy_to_host(host, buffer.ptr, buffer.device.default_stream.handle)
    buffer.device.default_stream.synchronize()
    np.testing.assert_array_equal(host.view(_bits(x).dtype), _bits(x))
    back = jnp.from_dlpack(DLPackView(buffer))  # a safekernels buffer seen by JAX, with its dtype
    assert back.dtype == x.dtype
    np.testing.assert_array_equal(_bits(back), _bits(x))
