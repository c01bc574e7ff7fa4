"""Operators called the wrong way get an error naming the operator and the argument, or torch's answer.

Found by calling registered operators with what torch users pass by mistake: `None` for a tensor reached the
launch plan's signature key as a bare `AttributeError` (torch's dispatcher lets `None` through); a 2-D or 0-d
tensor for an output partitioned by a `(128,)` tile failed inside the CPU executor with `zip() argument 2 is
shorter than argument 1`; keyword arguments, which torch's own operators take by their schema names, were a
`TypeError` of `__call__`; and a SIMT operator on an empty tensor refused a zero-block grid where torch's ops
return an empty result.  Needs torch (skipped without it); runs on the CPU executor with CPU tensors.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import safekernels.torch as skt  # noqa: E402
from safekernels import simt, tile  # noqa: E402
from safekernels.dtypes import f32, i32  # noqa: E402
from safekernels.errors import AliasingError, ShapeError  # noqa: E402
from safekernels.simt import DisjointSlice, Slice, thread  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@simt.kernel
@simt.launch_contract(block=64)
def vadd(a: Slice[f32], b: Slice[f32], k: i32, c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i] + k)


ADD = skt.custom_op("hostile::add", add, outputs={"z": "x"}, tile_shapes={"z": (128,)})
VADD = skt.custom_op("hostile::vadd", vadd, outputs={"c": "a"})
VADD_ = skt.custom_op("hostile::vadd_", vadd)


@pytest.mark.parametrize("op", [ADD, VADD], ids=["tile", "simt"])
def test_none_for_a_tensor_names_the_operator_and_the_argument(op: skt.SafeKernelOp) -> None:
    args = (None, torch.ones(8)) if op is ADD else (None, torch.ones(8), 1)
    with pytest.raises(TypeError, match=r"hostile::\w+: argument `[ax]` must be a torch.Tensor, got NoneType"):
        op(*args)


def test_keyword_arguments_follow_the_schema_names() -> None:
    a, b = torch.randn(300), torch.randn(300)
    torch.testing.assert_close(ADD(x=a, y=b), a + b)
    torch.testing.assert_close(ADD(a, y=b), a + b)
    torch.testing.assert_close(VADD(a=a, b=b, k=2), a + b + 2)
    with pytest.raises(TypeError, match="unexpected keyword argument `w`"):
        ADD(a, w=b)
    with pytest.raises(TypeError, match="two values for argument `x`"):
        ADD(a, x=b)
    with pytest.raises(TypeError, match=r"missing \['y'\]"):
        ADD(x=a)


@pytest.mark.parametrize("shape", [(40, 50), ()], ids=["2-D", "0-d"])
def test_a_tensor_of_another_rank_than_the_output_tile_is_a_shape_error(shape: tuple[int, ...]) -> None:
    x = torch.randn(shape)
    with pytest.raises(ShapeError, match=r"hostile::add'?: output `z` of shape .*tile shape \(128,\) has rank 1"):
        ADD(x, x)


def test_a_simt_operator_on_empty_tensors_returns_an_empty_result() -> None:
    empty = torch.empty(0)
    out = VADD(empty, empty, 3)
    assert out.shape == (0,) and out.dtype == torch.float32
    VADD_(empty, empty, 3, torch.empty(0))  # in place: nothing to write
    with pytest.raises(TypeError, match="expects f32 elements, got a f64 tensor"):  # still type-checked
        VADD(empty.double(), empty, 3)


def test_the_runtime_aliasing_refusal_still_applies_in_place() -> None:
    c = torch.zeros(100)
    with pytest.raises(AliasingError):
        VADD_(c, torch.ones(100), 1, c)
