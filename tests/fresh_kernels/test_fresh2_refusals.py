"""User mistakes found by the second batch of fresh programs: both executors refuse alike, nothing half-runs.

- Tile kernels: keyword arguments no op takes, `num_tiles` / `tile_shape[i]` out of range, `if` / conditional
  expressions / `where` on a scalar: one SK code at one `file:line:col` on the CPU executor and the GPU compiler.
- Tile launches: an integer scalar argument that does not fit its dtype, or a float for it, is refused as a
  SIMT launch refuses it (`OverflowError` / `TypeError` naming kernel and argument; it used to wrap silently,
  300 -> 44 for an i8), and the refused launch moves nothing.
- `independent_shapes`: a tile position past the independent tensor's last tile traps (the docs promised zeros).
- A failed tile `assert` names the assert's own line of the file.
- A SIMT kernel is a plain `def` (SK010 for `async def` or a class, at the definition).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from fresh2_refusals import TILE_REFUSALS, kernel

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.dtypes import f32, i8, u32
from safekernels.errors import KernelTrapError
from safekernels.tile import Partition, Tensor


def _args() -> tuple[object, ...]:
    return tile.zeros((32,), f32).partition((16,)), tile.ones((32,), f32), 3


def _located(exc: DiagnosticError) -> tuple[str, str]:
    found = re.match(r"^(?P<where>.+?:\d+:\d+): (?P<code>SK\d{3})", str(exc))
    assert found, str(exc)
    return found.group("code"), found.group("where")


@pytest.mark.parametrize("name", list(TILE_REFUSALS))
def test_both_tile_executors_refuse_alike(name: str) -> None:
    _body, code, line_text = TILE_REFUSALS[name]
    k = kernel(name)
    stream = sk.Device.cpu().new_stream()
    with pytest.raises(DiagnosticError) as on_cpu:
        k(*_args()).sync_on(stream)
    with pytest.raises(DiagnosticError) as on_gpu:
        k.inspect(*_args(), arch="sm_90a")
    cpu, gpu = _located(on_cpu.value), _located(on_gpu.value)
    assert cpu == gpu, (str(on_cpu.value), str(on_gpu.value))
    assert cpu[0] == code, str(on_cpu.value)
    path, line, _col = cpu[1].rsplit(":", 2)
    with open(path) as f:
        assert line_text in f.read().splitlines()[int(line) - 1], (name, cpu[1])


@tile.kernel
def shifted(z: Partition[f32], x: Tensor[f32], n: i8, m: u32) -> None:
    z.store(tile.load_like(x, z) + f32(n) + f32(m))


@pytest.mark.parametrize(
    ("n", "m", "error", "message"),
    [
        (300, 1, OverflowError, "argument `n` = 300 does not fit in i8"),
        (-129, 1, OverflowError, "argument `n` = -129 does not fit in i8"),
        (1.5, 1, TypeError, "argument `n` expects an integer \\(i8\\), got float 1.5"),
        (np.float32(2.0), 1, TypeError, "argument `n` expects an integer \\(i8\\)"),
        (1, -1, OverflowError, "argument `m` = -1 does not fit in u32"),
        (1, 2**32, OverflowError, "argument `m` = 4294967296 does not fit in u32"),
    ],
)
def test_a_tile_integer_scalar_that_does_not_fit_is_refused_and_moves_nothing(
    n: object, m: object, error: type[Exception], message: str
) -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((16,), f32).partition((16,)).sync_on(stream)
    x = tile.ones((16,), f32).sync_on(stream)
    z, x, _, _ = shifted(z, x, 1, 2).sync_on(stream)  # the first call makes the plan; the next take the fast path
    for _ in range(2):
        with pytest.raises(error, match=f"^shifted: {message}"):
            shifted(z, x, n, m)
    z, x, _, _ = shifted(z, x, True, np.uint32(2**32 - 1)).sync_on(stream)  # still owned: nothing moved
    assert (z.to_numpy(stream) == 1 + 1 + 2.0**32).all()


@tile.kernel(independent_shapes=("x",))
def padded(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + 1.0)


def test_an_independent_tensor_reads_zeros_in_its_last_tile_and_traps_past_it() -> None:
    stream = sk.Device.cpu().new_stream()
    z, _ = padded(tile.zeros((32,), f32).partition((16,)), tile.ones((20,), f32)).sync_on(stream)
    assert (z.unpartition().to_numpy(stream) == np.r_[np.full(20, 2.0), np.ones(12)]).all()
    with pytest.raises(KernelTrapError, match=r"tile index \(2,\) out of bounds for `x`"):
        padded(tile.zeros((48,), f32).partition((16,)), tile.ones((20,), f32)).sync_on(stream)
    ptx = padded.inspect(tile.zeros((48,), f32).partition((16,)), tile.ones((20,), f32), arch="sm_90a")["ptx"]
    assert "trap;" in ptx


@tile.kernel
def checked(z: Partition[f32], x: Tensor[f32], n: i8) -> None:
    assert n > 100, "n too small"
    z.store(tile.load_like(x, z))


def test_a_failed_tile_assert_names_its_own_line() -> None:
    stream = sk.Device.cpu().new_stream()
    with pytest.raises(sk.KernelAssertionError) as failed:
        checked(tile.zeros((16,), f32).partition((16,)), tile.ones((16,), f32), 3).sync_on(stream)
    with open(__file__) as f:
        line = next(i for i, text in enumerate(f, 1) if '"n too small"' in text and "assert" in text)
    assert failed.value.line == line and failed.value.message == "n too small"
    assert failed.value.path == __file__ and f"{__file__}:{line}" in str(failed.value)


def test_a_simt_kernel_is_a_plain_def() -> None:
    """An `async def` kernel ran nothing on the CPU executor (an un-awaited coroutine) where the GPU refused it,
    and a class reached the compiler as a bare TypeError: both are SK010 at the definition now."""
    from safekernels import simt
    from safekernels.errors import KernelDefinitionError
    from safekernels.simt import DisjointSlice

    with pytest.raises(KernelDefinitionError, match=r"test_fresh2_refusals\.py:\d+:\d+: SK010 .*not `async def`"):

        @simt.kernel  # type: ignore[arg-type]
        @simt.launch_contract(block=32)
        async def fetch(out: DisjointSlice[f32]) -> None:
            pass

    with pytest.raises(KernelDefinitionError, match=r"test_fresh2_refusals\.py:\d+:\d+: SK010 .*not a class"):

        @simt.kernel  # type: ignore[arg-type]
        class Launcher:
            pass


def test_a_failed_simt_assert_in_a_helper_names_its_line_on_both() -> None:
    """The CPU executor's `KernelAssertionError` and the GPU's assert table name the helper's assert line."""
    from fresh2_simt_programs import checked_half, print_assert_2d

    from safekernels import simt
    from safekernels.codegen.pipeline import compile_simt_kernel

    stream = sk.Device.cpu().new_stream()
    a = sk.to_device(np.array([1.0] * 40 + [9.0] + [1.0] * 7, np.float32), stream)
    out = sk.zeros(48, f32, stream)
    prepared = print_assert_2d.prepare(simt.LaunchConfig2D(grid=(1, 1), block=(16, 3)), sk.Device.cpu())
    with pytest.raises(sk.KernelAssertionError) as failed:
        print_assert_2d.launch(prepared, stream, a, out, 4.0)
    path = checked_half.py_function.__code__.co_filename
    with open(path) as f:
        line = next(i for i, text in enumerate(f, 1) if '"value above the limit"' in text)
    assert (failed.value.path, failed.value.line, failed.value.message) == (path, line, "value above the limit")
    assert "thread (8, 2, 0)" in str(failed.value)
    table = compile_simt_kernel(print_assert_2d, arch="sm_90", use_cache=False).meta["asserts"]
    assert isinstance(table, list) and [path, line] in [entry[:2] for entry in table], table


def test_a_non_bool_where_condition_is_named_as_it_is() -> None:
    stream = sk.Device.cpu().new_stream()
    with pytest.raises(DiagnosticError, match=r"a bool tile or a bool scalar .*, got an i32 scalar"):
        kernel("where on an int scalar")(*_args()).sync_on(stream)
