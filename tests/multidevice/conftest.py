"""Fixtures of the multi-device tests: two fake GPUs behind the real `CudaBackend`, and state put back after.

`fake_gpus(ccs, peer_pairs)` installs a `FakeCudaDriver` as the driver of `runtime.cuda_backend` and empties
every per-process registry a GPU device fills (Device objects per ordinal, opened backends, the context
switching flag, loaded kernels), so each test starts as a fresh process would and leaves nothing behind.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from fake_driver import FakeCudaDriver, MakeGpus  # noqa: E402 - after the path insert above


@pytest.fixture
def fake_gpus(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[MakeGpus]:
    from safekernels.runtime import cuda_backend, device
    from safekernels.simt import gpu_launch
    from safekernels.tile import gpu_launch as tile_gpu_launch

    switching = list(cuda_backend.SWITCHING)
    cuda_backend.SWITCHING.clear()
    monkeypatch.setattr(cuda_backend, "_BACKENDS", {})
    monkeypatch.setattr(device.Device, "_instances", {})
    monkeypatch.setattr(device, "gpu_available", lambda: True)
    monkeypatch.setattr(gpu_launch, "_LAUNCHERS", weakref.WeakKeyDictionary())
    monkeypatch.setattr(gpu_launch, "_UNCHECKED_LAUNCHERS", weakref.WeakKeyDictionary())
    monkeypatch.setattr(gpu_launch, "_BUILDS", weakref.WeakKeyDictionary())
    monkeypatch.setattr(tile_gpu_launch, "_LOADED", weakref.WeakKeyDictionary())
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path / "cache"))

    def make(
        ccs: Iterable[tuple[int, int]] = ((9, 0), (9, 0)), peer_pairs: Iterable[tuple[int, int]] = ()
    ) -> FakeCudaDriver:
        driver = FakeCudaDriver(ccs, peer_pairs)
        monkeypatch.setattr(cuda_backend, "_DRIVER", [driver])
        return driver

    try:
        yield make
    finally:
        cuda_backend.SWITCHING[:] = switching
