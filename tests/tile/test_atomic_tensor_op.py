"""A tile kernel with an `AtomicTensor` output registers as a framework operator (torch / JAX `custom_op`): the
output is an output of the op (mutated in the in-place form), passed whole as a Tensor (no tile shape) and
marked `atomic`, which the torch and JAX bridges zero-fill in the functional form since the kernel only adds into
it (tests/torch/test_training_ops.py on the GPU).  Checked through the shared launcher on the CPU executor."""

from __future__ import annotations

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import dtype_of, f32, i32
from safekernels.frameworks.launcher import OpLauncher
from safekernels.frameworks.signature import op_signature
from safekernels.tile import AtomicTensor, Partition, Tensor

F32 = dtype_of(f32)


@tile.kernel
def row_sums(out: Annotated[Partition[f32], tile.Dims(4, 8)], total: AtomicTensor[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(t * 2.0)
    tile.atomic_add(total, (tile.reshape(tile.iota(8, i32), (1, 8)),), t)


def test_atomic_tensor_is_a_zero_filled_output_passed_whole() -> None:
    sig = op_signature(row_sums, "t::row_sums", {"out": "x", "total": (8,)})
    params = {p.name: p for p in sig.params}
    assert params["total"].role == "output" and params["total"].atomic and not params["out"].atomic
    assert [p.name for p in sig.outputs] == ["out", "total"]
    assert sig.schema() == "(Tensor x) -> (Tensor, Tensor)"
    assert op_signature(row_sums, "t::row_sums", None).mutates_args == ("out", "total")  # the in-place form
    launcher = OpLauncher("t::row_sums", row_sums, sig, tile_shapes=None, launch=None)
    launcher.check_static({"out": ((16, 8), F32), "total": ((8,), F32), "x": ((16, 8), F32)})
    device = sk.Device.cpu()
    x = np.arange(128, dtype=np.float32).reshape(16, 8)
    out, total = np.empty((16, 8), np.float32), np.zeros(8, np.float32)
    placed = {"out": (sk.as_buffer(out.reshape(-1)), (16, 8)), "total": (sk.as_buffer(total), (8,))}
    placed["x"] = (sk.as_buffer(x.reshape(-1)), (16, 8))
    launcher.launch(placed, device, device.default_stream)
    device.default_stream.synchronize()
    np.testing.assert_array_equal(out, x * 2)
    np.testing.assert_array_equal(total, x.sum(axis=0))
