"""Shape errors in tile kernels are SK diagnostics at the offending expression (file, line, column pinned)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ownership_check.diagnostics import DiagnosticError
from safekernels.codegen.tile.frontend import build_tile_ir
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tile_error_kernels as E

F32, F16 = dtype_of("f32"), dtype_of("f16")
SRC = Path(E.__file__).read_text().splitlines()


def _line_of(marker: str) -> int:
    return next(i + 1 for i, line in enumerate(SRC) if line.rstrip().endswith(f"# <- {marker}") and marker)


def _diag(kernel: object, params: list[object], grid: int = 1) -> object:
    with pytest.raises(DiagnosticError) as info:
        build_tile_ir(kernel.fn, params, grid)  # type: ignore[attr-defined, arg-type]
    (diag,) = info.value.diagnostics
    return diag


def test_broadcast_mismatch() -> None:
    d = _diag(
        E.broadcast_mismatch,
        [param_info("z", "partition", F32, (1000,), (128,)), param_info("x", "tensor", F32, (1000,))],
    )
    assert d.code == "SK020"  # type: ignore[attr-defined]
    assert "(128,), (3,) do not broadcast" in d.message  # type: ignore[attr-defined]
    line = next(i + 1 for i, s in enumerate(SRC) if "tile.zeros((3,), f32)" in s)
    assert d.span.line == line  # type: ignore[attr-defined]
    assert d.span.column == SRC[line - 1].index("t + tile.zeros") + 1  # type: ignore[attr-defined]
    assert d.path.endswith("tile_error_kernels.py")  # type: ignore[attr-defined]


def test_matmul_inner_dimension_mismatch() -> None:
    d = _diag(
        E.inner_mismatch,
        [
            param_info("c", "partition", F32, (64, 64), (64, 64)),
            param_info("a", "tensor", F16, (64, 32)),
            param_info("b", "tensor", F16, (16, 64)),
        ],
        2,
    )
    assert d.code == "SK021"  # type: ignore[attr-defined]
    assert d.message == "tile.matmul: inner dimensions do not match: (64, 32) @ (16, 64)"  # type: ignore[attr-defined]
    line = next(i + 1 for i, s in enumerate(SRC) if "tile.matmul(a.load" in s)
    assert d.span.line == line  # type: ignore[attr-defined]
    assert d.span.column == SRC[line - 1].index("tile.matmul") + 1  # type: ignore[attr-defined]


def test_store_shape_mismatch() -> None:
    d = _diag(
        E.store_mismatch,
        [param_info("z", "partition", F32, (1000,), (128,)), param_info("x", "tensor", F32, (1000,))],
    )
    assert d.code == "SK022"  # type: ignore[attr-defined]
    assert d.message == (
        "z.store: tile shape (64,) does not match the partition's tile shape "  # type: ignore[attr-defined]
        "(128,)"
    )
    line = next(i + 1 for i, s in enumerate(SRC) if "z.store(x.load((0,), (64,)))" in s)
    assert d.span.line == line  # type: ignore[attr-defined]
    assert d.span.column == SRC[line - 1].index("x.load") + 1  # type: ignore[attr-defined]


def test_store_dtype_mismatch_has_help() -> None:
    d = _diag(
        E.store_dtype_mismatch,
        [param_info("z", "partition", F32, (1000,), (128,)), param_info("x", "tensor", F16, (1000,))],
    )
    assert d.code == "SK022"  # type: ignore[attr-defined]
    assert "dtype f16 does not match" in d.message  # type: ignore[attr-defined]
    assert d.help == "convert with .astype(f32)"  # type: ignore[attr-defined]


def test_unsupported_statement() -> None:
    d = _diag(
        E.unsupported_while,
        [param_info("z", "partition", F32, (1000,), (128,)), param_info("x", "tensor", F32, (1000,))],
    )
    assert d.code == "SK001"  # type: ignore[attr-defined]
    assert "`While` statements are not supported" in d.message  # type: ignore[attr-defined]


def test_cache_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.codegen.tile.pipeline import compile_tile

    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path))
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
    import add_tile

    params = [
        param_info("z", "partition", F32, (1000,), (128,)),
        param_info("x", "tensor", F32, (1000,)),
        param_info("y", "tensor", F32, (1000,)),
    ]
    first = compile_tile(add_tile.add.fn, params, 1)
    second = compile_tile(add_tile.add.fn, params, 1)
    assert not first.from_cache and second.from_cache
    assert second.cubin == first.cubin and second.abi == first.abi
