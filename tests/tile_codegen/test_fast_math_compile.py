"""`@tile.kernel(fast_math=True)` (CI without a GPU): the GPU code contracts `a * b + c` into one fused
multiply-add and takes libdevice's flush-to-zero `exp2`; without it neither happens; the option is part of
the compile cache key, survives autotuning, is validated, and leaves the CPU executor's numpy results alone."""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import tile
from safekernels.codegen.tile.pipeline import cache_key, compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f32
from safekernels.tile import Partition, Tensor

F32 = dtype_of("f32")


def _body(out: Annotated[Partition[f32], tile.Dims(256)], x: Tensor[f32], a: f32, c: f32) -> None:
    t = tile.load_like(x, out)
    out.store(tile.exp2(t * a - c))


precise = tile.kernel(_body)
fast = tile.kernel(fast_math=True)(_body)


def _params() -> list[Any]:
    spec = [("partition", F32, (1024,), (256,)), ("tensor", F32, (1024,), None)]
    spec += [("scalar", F32, (), None), ("scalar", F32, (), None)]
    return [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_fast_math_fuses_and_flushes(arch: str) -> None:
    plain = compile_tile(precise.fn, _params(), 1, arch=arch, use_cache=False, fast_math=precise.fast_math)
    quick = compile_tile(fast.fn, _params(), 1, arch=arch, use_cache=False, fast_math=fast.fast_math)
    assert plain.cubin[:4] == quick.cubin[:4] == b"\x7fELF"
    assert "fma.rn.f32" not in plain.ptx and "mul.rn.f32" in plain.ptx and "ex2.approx.f32" in plain.ptx
    assert "ex2.approx.ftz.f32" not in plain.ptx
    assert "fma.rn.f32" in quick.ptx and "ex2.approx.ftz.f32" in quick.ptx and "ex2.approx.f32" not in quick.ptx


def test_fast_math_is_part_of_the_cache_key() -> None:
    keys = {cache_key(fast.fn, _params(), 1, "sm_90", None, False, flag) for flag in (False, True)}
    assert len(keys) == 2


def test_fast_math_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match=r"fast_math=\.\.\.\) must be True or False, got 'yes'"):
        tile.kernel(fast_math="yes")(_body)  # type: ignore[arg-type]


def test_autotuned_variants_keep_fast_math() -> None:
    from safekernels.autotune.config import Config
    from safekernels.autotune.tile_autotune import make_variant

    assert make_variant(fast, Config(num_warps=4)).fast_math and not make_variant(precise, Config()).fast_math


def test_the_cpu_executor_ignores_fast_math() -> None:
    x = np.linspace(-3.0, 3.0, 1024).astype(np.float32)
    stream = sk.Device.cpu().new_stream()
    got = []
    for kern in (precise, fast):
        out, *_ = kern(tile.zeros((1024,), f32).partition((256,)), tile.from_numpy(x), 1.5, 0.25).sync_on(stream)
        got.append(out.unpartition().to_numpy(stream))
    np.testing.assert_array_equal(got[0], got[1])
    np.testing.assert_array_equal(got[0], np.exp2(x * np.float32(1.5) - np.float32(0.25)))
