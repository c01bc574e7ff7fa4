"""Device print and assert in tile kernels: CPU executor text and errors, the ops in the PTX, SK diagnostics."""

from __future__ import annotations

from typing import Any

import pytest

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import specialize
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32], s: f32) -> None:
    b = tile.bid(0)
    print("block %d of n=%d s=%.2f", b, x.shape[0], s)
    assert b < 3, "too many blocks"
    z.store(tile.load_like(x, z) * s)


class _Spec:
    def __init__(self, shape: tuple[int, ...], tile_shape: tuple[int, ...] | None = None) -> None:
        self.shape, self.dtype, self.tile_shape, self.buffer = shape, sk.dtypes.dtype_of("f32"), tile_shape, None


def _run(n: int) -> Any:
    stream = sk.Device.cpu().new_stream()
    z, _x, _s = scale(tile.zeros((n,), f32).partition((128,)), tile.ones((n,), f32), 2.0).sync_on(stream)
    return z.unpartition().to_numpy(stream)


def test_tile_print_on_the_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(256).tolist()[:2] == [2.0, 2.0]
    assert capsys.readouterr().out == "block 0 of n=256 s=2.00\nblock 1 of n=256 s=2.00\n"


def test_tile_assert_on_the_cpu() -> None:
    with pytest.raises(sk.KernelAssertionError) as info:
        _run(512)
    err = info.value
    assert (err.kernel, err.message, err.path) == ("scale", "too many blocks", __file__)
    assert "tile block (3,)" in str(err)


def test_tile_print_and_assert_in_the_ptx() -> None:
    infos, grid = specialize(scale, [_Spec((256,), (128,)), _Spec((256,)), 2.0])
    compiled = compile_tile(scale.fn, infos, grid, use_cache=False)
    assert "vprintf" in compiled.ptx and "__assertfail" in compiled.ptx
    ((path, line, _col, message),) = compiled.asserts
    assert path == __file__ and message == "too many blocks"
    assert 'assert b < 3, "too many blocks"' in open(__file__).read().splitlines()[line - 1]


def test_tile_print_of_a_tile_is_sk023() -> None:
    @tile.kernel
    def bad(z: Partition[f32], x: Tensor[f32]) -> None:
        t = tile.load_like(x, z)
        print("%f", t)
        z.store(t)

    infos, grid = specialize(bad, [_Spec((256,), (128,)), _Spec((256,))])
    with pytest.raises(DiagnosticError) as info:
        compile_tile(bad.fn, infos, grid, use_cache=False)
    assert info.value.diagnostics[0].code == "SK023"
