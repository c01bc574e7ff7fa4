"""The `safekernels.codegen` logger (cache hits/misses, stage timings), `SAFEKERNELS_DUMP_DIR`, line info, and
the tile cache key's closure coverage."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from safekernels import codegen, simt, tile
from safekernels.codegen.tile.pipeline import cache_key as tile_cache_key
from safekernels.codegen.tile.specialize import specialize
from safekernels.dtypes import dtype_of, f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=32)
def double(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * 2.0)


def test_logger_reports_miss_hit_and_stage_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path))
    with caplog.at_level(logging.DEBUG, logger="safekernels.codegen"):
        codegen.compile_simt_kernel(double)
        codegen.compile_simt_kernel(double)
    messages = [r.getMessage() for r in caplog.records if r.name == "safekernels.codegen"]
    assert "cache miss: double for sm_90" in messages
    assert "cache hit: double for sm_90" in messages
    (timing,) = [m for m in messages if m.startswith("compiled double for sm_90 in ")]
    for stage in ("frontend", "lower", "ptx", "cubin"):
        assert f"{stage} " in timing


def test_dump_dir_writes_every_stage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_DUMP_DIR", str(tmp_path))
    compiled = codegen.compile_simt_kernel(double)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"double.sm_90.{s}" for s in sorted(("cubin", "kir.txt", "ll", "opt.ll", "ptx"))]
    assert (tmp_path / "double.sm_90.ptx").read_text() == compiled.ptx
    assert (tmp_path / "double.sm_90.cubin").read_bytes() == compiled.cubin
    assert "Function(name='double'" in (tmp_path / "double.sm_90.kir.txt").read_text()


def test_line_info_is_opt_in_and_names_the_source() -> None:
    plain = codegen.compile_simt_kernel(double, use_cache=False)
    lines = codegen.compile_simt_kernel(double, use_cache=False, line_info=True)
    assert ".loc" not in plain.ptx
    assert f'.file\t1 "{__file__}"' in lines.ptx and ".target sm_90\n" in lines.ptx
    body_line = open(__file__).read().splitlines().index("        out.set(a[i] * 2.0)") + 1
    assert f".loc\t1 {body_line} " in lines.ptx
    assert Path(__file__).name.encode() in lines.cubin  # nvJitLink kept the line table


def make_scale(factor: float) -> Any:
    @tile.kernel
    def scale(z: Partition[f32], x: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) * factor)

    return scale


class _Spec:
    def __init__(self, shape: tuple[int, ...], tile_shape: tuple[int, ...] | None = None) -> None:
        self.shape, self.dtype, self.tile_shape, self.buffer = shape, dtype_of("f32"), tile_shape, None


def test_tile_cache_key_covers_closure_values() -> None:
    keys = []
    for factor in (3.0, 5.0):
        kernel = make_scale(factor)
        infos, grid = specialize(kernel, [_Spec((256,), (128,)), _Spec((256,))])
        keys.append(tile_cache_key(kernel.fn, infos, grid, "sm_90", None))
    assert keys[0] != keys[1]


def test_tile_line_info_is_opt_in() -> None:
    from safekernels.codegen.tile.pipeline import compile_tile

    kernel = make_scale(2.0)
    infos, grid = specialize(kernel, [_Spec((256,), (128,)), _Spec((256,))])
    plain = compile_tile(kernel.fn, infos, grid, use_cache=False)
    lines = compile_tile(kernel.fn, infos, grid, use_cache=False, line_info=True)
    assert ".loc" not in plain.ptx
    store_line = open(__file__).read().splitlines().index("        z.store(tile.load_like(x, z) * factor)") + 1
    assert f".loc\t1 {store_line} " in lines.ptx and ".target sm_90\n" in lines.ptx
    assert Path(__file__).name.encode() in lines.cubin
