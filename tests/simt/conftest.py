"""The tests in this folder exercise the SIMT language on the CPU executor, also on a GPU machine.

Buffers made without an explicit device follow `Device.default()`; pinning `SAFEKERNELS_DEVICE=cpu` keeps them on
the same device as the launches (`Device.cpu()`), whatever hardware runs the suite.  GPU behaviour is covered
by tests/gpu.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _cpu_executor_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "cpu")
