"""A tile kernel that cannot be defined is refused at decoration with SK011 at its file, line and column (the
parameter at fault, else the `def`), as a SIMT kernel is; the error is still a `TypeError`."""

from __future__ import annotations

from pathlib import Path

import pytest

from safekernels import tile
from safekernels.dtypes import f32
from safekernels.errors import KernelDefinitionError
from safekernels.tile import Partition, Tensor

LINES = Path(__file__).read_text(encoding="utf-8").splitlines()


def _where(marker: str, text: str | None) -> tuple[int, int]:
    """(line, column) of `text` on the line that carries `marker` (the `def` itself when `text` is None)."""
    line = next(i for i, source in enumerate(LINES, 1) if source.endswith(marker))
    source = LINES[line - 1]
    return line, (source.index(text) if text is not None else source.index("def")) + 1


def _refusal(define: object) -> KernelDefinitionError:
    with pytest.raises(KernelDefinitionError) as caught:
        define()  # type: ignore[operator]
    assert isinstance(caught.value, TypeError)
    assert caught.value.code == "SK011" and caught.value.path == __file__
    return caught.value


def test_an_unsupported_parameter_type_is_located_at_the_parameter() -> None:
    def define() -> None:
        @tile.kernel
        def k(z: Partition[f32], x: list) -> None:  # type: ignore[type-arg]  # LIST
            pass

    err = _refusal(define)
    assert "is not a tile parameter" in err.message
    assert (err.line, err.column) == _where("# LIST", "x: list")


def test_a_missing_annotation_is_located_at_the_parameter() -> None:
    def define() -> None:
        @tile.kernel
        def k(z, x: Tensor[f32]) -> None:  # type: ignore[no-untyped-def]  # BARE
            pass

    err = _refusal(define)
    assert "needs an annotation" in err.message
    assert (err.line, err.column) == _where("# BARE", "z, x")


def test_a_kernel_without_a_partition_is_located_at_its_def() -> None:
    def define() -> None:
        @tile.kernel
        def k(x: Tensor[f32]) -> None:  # NO-PARTITION
            pass

    err = _refusal(define)
    assert "has no Partition parameter" in err.message
    assert (err.line, err.column) == _where("# NO-PARTITION", None)
