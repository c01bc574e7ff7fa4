"""Typing of kernel arithmetic: weak literals adopt the other operand's type, no silent f64 promotion."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from safekernels.codegen.frontend import build_module, spec_from_kernel
from safekernels.codegen.frontend.typing_rules import join, unify
from safekernels.codegen.ir import nodes as ir
from safekernels.codegen.ir.types import F32, F64, I32, I64, U32, WEAK_FLOAT, WEAK_INT, ScalarTy
from safekernels.dtypes import dtype_of

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from conftest_helpers import load  # noqa: E402

CATALOG = load(HERE / "kernels_catalog.py", "kernels_catalog")


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (F32, WEAK_FLOAT, F32),
        (WEAK_FLOAT, F32, F32),
        (I32, WEAK_INT, I32),
        (WEAK_INT, WEAK_FLOAT, WEAK_FLOAT),
        (I32, I64, I64),
        (U32, I32, I64),
        (F32, F64, F64),
        (I64, F32, F32),
    ],
)
def test_unify(a: object, b: object, expected: object) -> None:
    assert unify(a, b) == expected  # type: ignore[arg-type]


def test_unify_refusals_explain() -> None:
    assert "float literal" in str(unify(I32, WEAK_FLOAT))
    assert "u64" in str(unify(ScalarTy(dtype_of("u64")), I32))


def test_join_upgrades_weak_variables_and_refuses_kind_changes() -> None:
    assert join(WEAK_FLOAT, F32) == F32
    assert join(None, WEAK_INT) == WEAK_INT
    assert isinstance(join(I64, F32), str)


def _binops(body: list[ir.Stmt]) -> list[ir.BinOp]:
    found: list[ir.BinOp] = []

    def visit(node: object) -> None:
        if isinstance(node, ir.BinOp):
            found.append(node)
        if isinstance(node, list):
            for item in node:
                visit(item)
        elif hasattr(node, "__dataclass_fields__"):
            for name in node.__dataclass_fields__:  # type: ignore[attr-defined]
                visit(getattr(node, name))

    visit(body)
    return found


def test_f32_math_with_literals_stays_f32() -> None:
    module = build_module(spec_from_kernel(CATALOG.half_storage))
    ops = _binops(module.kernel.body)
    assert ops and all(op.ty == F32 for op in ops)


def test_typed_accumulator_and_loop_carried_types() -> None:
    module = build_module(spec_from_kernel(CATALOG.loops))
    assert module.kernel.locals["acc"] == I32
    assert module.kernel.locals["j"] == I32
    assert module.kernel.locals["k"] == I64
