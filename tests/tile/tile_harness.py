"""Helpers for the tile tests: run a one-tile kernel on numpy data, load an example by path, a fake GPU."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.runtime.backend import CpuBackend
from safekernels.tile import Partition, Tensor

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def cpu_stream() -> sk.Stream:
    return sk.Device.cpu().new_stream()


def whole_tile(
    body: Callable[[Any], Any], x: np.ndarray, out_shape: tuple[int, ...], out_dtype: Any
) -> np.ndarray:
    """Run `out.store(body(x as one tile))` in a one-block kernel; returns the output as numpy."""

    builtin_op = getattr(body, "__module__", "").startswith("safekernels.tile")  # tile.exp, ... as they are
    helper = body if builtin_op or isinstance(body, tile.TileFunction) else tile.function(body)
    origin, shape = (0,) * x.ndim, tuple(x.shape)  # compile-time constants of the kernel

    @tile.kernel
    def one_tile(out: Partition[Any], src: Tensor[Any]) -> None:
        t = src.load(origin, shape)
        out.store(helper(t))

    stream = cpu_stream()
    out = tile.zeros(out_shape, out_dtype).partition(out_shape)
    out, _src = one_tile(out, tile.from_numpy(x)).sync_on(stream)
    result: np.ndarray = out.unpartition().to_numpy(stream)
    return result


def load_example(name: str) -> ModuleType:
    """Import `examples/<name>.py` as a module (examples are scripts, not a package)."""
    path = EXAMPLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"tile_example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class FakeGpuBackend(CpuBackend):
    """Host memory, but the device reports itself as a GPU (to exercise the not-yet-implemented GPU path)."""

    name = "fake-gpu"


def fake_gpu_device() -> sk.Device:
    device = sk.Device.__new__(sk.Device)
    device.ordinal = 0
    device.backend = FakeGpuBackend()
    device._limits = None
    device._default_stream = None
    return device
