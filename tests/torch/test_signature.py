"""The torch operator signature read off a kernel's parameter kinds (runs without torch: the part CI can check).

`mutates_args` must be exactly the parameters a launch writes; these pin that for both tracks, and the
errors a wrong `outputs=` gets.
"""

from __future__ import annotations

from typing import Annotated

import pytest

from safekernels import simt, tile
from safekernels.dtypes import f32, i32, u32
from safekernels.frameworks.signature import op_signature
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale_add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32], a: f32) -> None:
    z.store(a * tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def split(lo: Annotated[Partition[f32], tile.Dims(64)], hi: Partition[f32], x: Tensor[f32], n: i32) -> None:
    t = tile.load_like(x, lo)
    lo.store(t)
    hi.store(t * 2.0)


@simt.kernel
@simt.launch_contract(block=64)
def hist(values: Slice[u32], bins: AtomicSlice[u32], copy: DisjointSlice[u32], flag: bool) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(values):
        bins.fetch_add(values[i] % len(bins), u32(1))
    if (o := copy.get_mut(idx)) is not None:
        o.set(values[i])


def test_in_place_tile_op_mutates_exactly_its_partitions() -> None:
    sig = op_signature(scale_add, "t::scale_add", None)
    assert sig.mutates_args == ("z",)
    assert sig.schema() == "(Tensor(a0!) z, Tensor x, Tensor y, float a) -> ()"
    two = op_signature(split, "t::split", None)
    assert two.mutates_args == ("lo", "hi")
    assert two.schema() == "(Tensor(a0!) lo, Tensor(a1!) hi, Tensor x, int n) -> ()"


def test_in_place_simt_op_mutates_disjoint_and_atomic_slices() -> None:
    sig = op_signature(hist, "t::hist", None)
    assert sig.mutates_args == ("bins", "copy")
    assert sig.schema() == "(Tensor values, Tensor(a1!) bins, Tensor(a2!) copy, bool flag) -> ()"
    assert [p.atomic for p in sig.outputs] == [True, False]


def test_functional_op_returns_its_outputs_and_mutates_nothing() -> None:
    sig = op_signature(scale_add, "t::scale_add", {"z": "x"})
    assert sig.mutates_args == ()
    assert sig.schema() == "(Tensor x, Tensor y, float a) -> Tensor"
    two = op_signature(split, "t::split", {"lo": "x", "hi": (64,)})
    assert two.schema() == "(Tensor x, int n) -> (Tensor, Tensor)"


@pytest.mark.parametrize(
    ("outputs", "message"),
    [
        ({"x": "x"}, "outputs= names 'x', which is not output parameters of `scale_add` (its outputs: z)"),
        ({}, "outputs= must say how to allocate every output of `scale_add`; missing 'z'"),
        ({"z": "w"}, "output `z` is sized like 'w', which is not a tensor input of `scale_add`"),
    ],
)
def test_bad_outputs_are_named(outputs: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        op_signature(scale_add, "t::scale_add", outputs)


def test_only_kernels_register() -> None:
    with pytest.raises(TypeError, match=r"custom_op takes a @tile\.kernel or a @simt\.kernel, got function"):
        op_signature(lambda x: x, "t::f", None)
