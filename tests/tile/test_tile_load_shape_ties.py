"""`tile.load_like(x, z)` ties `x`'s shape to `z`'s: a launch that disagrees is a `ShapeError`, not zero padding.

The check is in the shared launch path (`signature.check_launch_shapes`): the call's static check, the full
check a DeviceOp chain's values get when they run (the path every executor takes) and the framework bridges'
`OpLauncher.check_static`.  `@tile.kernel(independent_shapes=(...))` is the explicit opt-out.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest
from tile_harness import cpu_stream

from safekernels import tile
from safekernels.dtypes import dtype_of, f32
from safekernels.errors import ShapeError
from safekernels.frameworks.launcher import OpLauncher
from safekernels.frameworks.signature import op_signature
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


F32 = dtype_of(f32)
LOAD_X_LINE = inspect.getsourcelines(add.fn)[1] + 2


@tile.kernel(independent_shapes=("x",))
def add_padded(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.function
def load_twice(a: Tensor[f32], out: Partition[f32]) -> Any:
    return tile.load_like(a, out) * 2.0


@tile.kernel
def doubled(z: Partition[f32], src: Tensor[f32]) -> None:
    z.store(load_twice(src, z))


@tile.kernel
def sliced(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(x.load((tile.bid(0),), (128,)))  # an explicit load: no shape tie


def test_a_shorter_input_is_refused_naming_kernel_both_parameters_and_the_load() -> None:
    z = tile.zeros((1000,), f32).partition((128,))
    x, y = tile.ones((999,), f32), tile.ones((1000,), f32)
    with pytest.raises(ShapeError) as info:
        add(z, x, y)
    assert str(info.value) == (
        f"add: parameter `x` has shape (999,), but `tile.load_like(x, z)` at {__file__}:{LOAD_X_LINE} reads it "
        "at the tile positions of `z`, whose tensor has shape (1000,) (help: pass tensors of one shape, or "
        'declare them independent with `@tile.kernel(independent_shapes=("x",))` to read zeros past `x`\'s edge)'
    )
    stream = cpu_stream()
    z, x, y = add(z, tile.ones((1000,), f32), y).sync_on(stream)  # nothing was moved by the refused launch
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(1000, 2.0, np.float32))


@pytest.mark.parametrize(
    ("x_shape", "z_shape"), [((1001,), (1000,)), ((16, 31), (16, 32)), ((32, 16), (16, 32)), ((512,), (16, 32))]
)
def test_any_disagreement_is_refused(x_shape: tuple[int, ...], z_shape: tuple[int, ...]) -> None:
    tiles = (128,) if len(z_shape) == 1 else (8, 8)
    with pytest.raises(ShapeError, match=r"add: parameter `x` has shape .* `tile\.load_like\(x, z\)`"):
        add(tile.zeros(z_shape, f32).partition(tiles), tile.ones(x_shape, f32), tile.ones(z_shape, f32))


def test_the_second_input_is_checked_too() -> None:
    with pytest.raises(ShapeError, match=r"parameter `y` has shape \(10,\), but `tile\.load_like\(y, z\)`"):
        add(tile.zeros((12,), f32).partition((4,)), tile.ones((12,), f32), tile.ones((10,), f32))


def test_a_shape_hidden_until_the_chain_runs_is_refused_when_it_runs() -> None:
    hidden = tile.ones((999,), f32).then(lambda t: t)  # `then` hides the static shape: the full check runs
    op = add(tile.zeros((1000,), f32).partition((128,)), hidden, tile.ones((1000,), f32))
    with pytest.raises(ShapeError, match=r"add: parameter `x` has shape \(999,\)"):
        op.sync_on(cpu_stream())


def test_independent_shapes_reads_zeros_past_the_edge() -> None:
    stream = cpu_stream()
    z, _x, _y = add_padded(
        tile.zeros((1000,), f32).partition((128,)), tile.ones((999,), f32), tile.ones((1000,), f32)
    ).sync_on(stream)
    out = z.unpartition().to_numpy(stream)
    assert out[:999].tolist() == [2.0] * 999 and out[999] == 1.0
    with pytest.raises(ShapeError, match=r"add_padded: parameter `y`"):  # only `x` was declared independent
        add_padded(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), tile.ones((7,), f32))


def test_a_tie_through_a_tile_function_helper() -> None:
    with pytest.raises(ShapeError, match=r"doubled: parameter `src` has shape \(7,\), but `tile\.load_like\(src, z\)`"):
        doubled(tile.zeros((8,), f32).partition((4,)), tile.ones((7,), f32))
    stream = cpu_stream()
    z, _src = doubled(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32)).sync_on(stream)
    assert z.unpartition().to_numpy(stream).tolist() == [2.0] * 8


def test_explicit_loads_imply_no_tie() -> None:
    assert sliced.shape_ties == ()
    stream = cpu_stream()
    z, _x = sliced(tile.zeros((256,), f32).partition((128,)), tile.ones((300,), f32)).sync_on(stream)
    assert z.unpartition().to_numpy(stream).tolist() == [1.0] * 256


def test_independent_shapes_must_name_tensor_parameters() -> None:
    def body(z: Partition[f32], x: Tensor[f32], n: int) -> None:
        z.store(tile.load_like(x, z))

    with pytest.raises(TypeError, match=r"independent_shapes names 'w', which is not a Tensor or Partition"):
        tile.kernel(independent_shapes=("w",))(body)
    with pytest.raises(TypeError, match=r"independent_shapes names 'n'"):
        tile.kernel(independent_shapes=("n",))(body)
    with pytest.raises(TypeError, match=r"takes a tuple of parameter names, got 'x'"):
        tile.kernel(independent_shapes="x")(body)  # type: ignore[call-overload]


def test_the_framework_bridges_check_the_ties() -> None:
    launcher = OpLauncher("t::add", add, op_signature(add, "t::add", None), tile_shapes={"z": (128,)}, launch=None)
    launcher.check_static({"z": ((1000,), F32), "x": ((1000,), F32), "y": ((1000,), F32)})
    with pytest.raises(ShapeError, match=r"t::add \(add\): parameter `y` has shape \(999,\)"):
        launcher.check_static({"z": ((1000,), F32), "x": ((1000,), F32), "y": ((999,), F32)})
