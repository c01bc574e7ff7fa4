"""The SIMT <-> tile bridge runs on the CPU executor: `SAFEKERNELS_DEVICE=cpu` pins `Device.default()` so buffers
made without a device and the launches agree, whatever hardware runs the suite."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _cpu_executor_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "cpu")
