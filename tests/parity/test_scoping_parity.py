"""Names in kernels are scoped as in Python, on both executors and both tracks.

A name assigned anywhere in a kernel (or a `@tile.function` / `@simt.device` helper) is local to all of it, so
reading it before the assignment is Python's `UnboundLocalError` even when a global of that name exists.  The CPU
executor, which runs the body as Python, raised that bare error while the GPU front ends read the global and
compiled the program (found by mutating generated kernels: `Partition = (Partition, Partition)[0]`).  Both now
refuse it as SK002 at the read; a local assigned before it is read still works and equals numpy.
"""

from __future__ import annotations

import numpy as np
import pytest
from generated_source import load_generated

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import simt, tile
from safekernels.codegen.pipeline import compile_simt_kernel
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f32

CPU = sk.Device.cpu()
_TILE = """from typing import Any
from safekernels import tile
from safekernels.dtypes import *  # noqa: F403
from safekernels.tile import Partition, Tensor

SCALE = 2.0


@tile.function
def helper(t: Any) -> Any:
{helper}


@tile.kernel
def generated(z: Partition[Any], x: Tensor[Any]) -> None:
    a = tile.load_like(x, z)
{body}
"""
_SIMT = """from safekernels import simt
from safekernels.dtypes import *  # noqa: F403
from safekernels.simt import DisjointSlice, Slice, thread

SCALE = 2.0


@simt.device
def helper(v: f32) -> f32:
{helper}


@simt.kernel
@simt.launch_contract(block=32)
def generated(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = a[i]
{body}
    if (o := c.get_mut(idx)) is not None:
        o.set(v)
"""
_PLAIN_HELPER = "    return t * 1.0"
_PLAIN_SIMT_HELPER = "    return v * 1.0"
#: (name, tile body, tile helper, SIMT body, SIMT helper, SK002 expected, the value per element when it runs)
FORMS = [
    ("global read, then a local of that name", "    s = SCALE\n    SCALE = 3.0\n    z.store(a * s)", _PLAIN_HELPER,
     "    s = SCALE\n    SCALE = 3.0\n    v = v * s", _PLAIN_SIMT_HELPER, True, 0.0),
    ("read in a loop or branch before the assignment",
     "    for k in range(1):\n        a = a * SCALE\n    SCALE = 1.0\n    z.store(a)",
     _PLAIN_HELPER, "    if i >= 0:\n        v = v * SCALE\n    SCALE = 1.0", _PLAIN_SIMT_HELPER, True, 0.0),
    ("in the helper", "    z.store(helper(a))", "    u = t * SCALE\n    SCALE = 1.0\n    return u",
     "    v = helper(v)", "    u = v * SCALE\n    SCALE = 1.0\n    return u", True, 0.0),
    ("the global only", "    z.store(a * SCALE)", _PLAIN_HELPER, "    v = v * SCALE", _PLAIN_SIMT_HELPER, False, 2.0),
    ("a local assigned first", "    SCALE = 3.0\n    z.store(a * SCALE)", _PLAIN_HELPER,
     "    SCALE = 3.0\n    v = v * SCALE", _PLAIN_SIMT_HELPER, False, 3.0),
]  # fmt: skip


def _tile_outcome(kernel: object, gpu: bool) -> np.ndarray | str:
    try:
        if gpu:
            f = dtype_of("f32")
            infos = [param_info("z", "partition", f, (32,), (16,)), param_info("x", "tensor", f, (32,))]
            compile_tile(kernel.fn, infos, 1, arch="sm_90a")  # type: ignore[attr-defined]
            return "compiled"
        stream = CPU.new_stream()
        x = tile.from_numpy(np.ones(32, np.float32), device=CPU)
        z = tile.zeros((32,), f32, device=CPU).partition((16,))
        out, _ = kernel(z, x).sync_on(stream)  # type: ignore[operator]
        return np.asarray(out.unpartition().to_numpy(stream))
    except DiagnosticError as exc:
        return str(exc).splitlines()[0]


def _simt_outcome(kernel: simt.SimtKernel, gpu: bool) -> np.ndarray | str:
    try:
        if gpu:
            compile_simt_kernel(kernel, arch="sm_90")
            return "compiled"
        stream = CPU.new_stream()
        a, c = sk.to_device(np.ones(32, np.float32), stream), sk.zeros(32, f32, stream)
        kernel.launch(kernel.prepare(simt.LaunchConfig1D.for_len(32, block=32), CPU), stream, a, c)
        return np.asarray(c.to_numpy(stream))
    except DiagnosticError as exc:
        return str(exc).splitlines()[0]


@pytest.mark.parametrize("form", FORMS, ids=[f[0] for f in FORMS])
@pytest.mark.parametrize("track", ["tile", "simt"])
def test_kernel_names_are_scoped_as_in_python_on_both_executors(track: str, form: tuple) -> None:  # type: ignore[type-arg]
    _, tile_body, tile_helper, simt_body, simt_helper, refused, value = form
    if track == "tile":
        kernel = load_generated(_TILE.format(body=tile_body, helper=tile_helper), "scoping_tile")
        cpu, gpu = _tile_outcome(kernel, gpu=False), _tile_outcome(kernel, gpu=True)
    else:
        kernel = load_generated(_SIMT.format(body=simt_body, helper=simt_helper), "scoping_simt")
        cpu, gpu = _simt_outcome(kernel, gpu=False), _simt_outcome(kernel, gpu=True)
    if refused:
        assert isinstance(cpu, str) and "SK002" in cpu and "read before it is assigned" in cpu, cpu
        assert cpu == gpu, (cpu, gpu)
    else:
        assert gpu == "compiled", gpu
        np.testing.assert_array_equal(cpu, np.full(32, value, np.float32))
