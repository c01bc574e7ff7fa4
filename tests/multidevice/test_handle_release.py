"""Handles are released through the driver that made them, whichever driver is installed when they are collected.

A fake driver's stream handle given to the real `cuStreamDestroy` at garbage collection crashed a pytest worker on
the H200 (segmentation fault) after the fake-GPU tests had restored the real driver; the finalizers now capture
their driver at creation.
"""

from __future__ import annotations

import gc
from typing import Any

import pytest

from safekernels.runtime import cuda_backend


class _RecordingDriver:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def cuStreamDestroy(self, handle: Any) -> None:
        self.calls.append(("cuStreamDestroy", handle))

    def cuMemFree(self, ptr: int) -> None:
        self.calls.append(("cuMemFree", ptr))

    def cuMemAlloc(self, nbytes: int) -> tuple[int, int]:
        return (0, 0xBEEF)


def test_a_stream_and_an_allocation_are_released_by_their_own_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    maker, later = _RecordingDriver(), _RecordingDriver()
    monkeypatch.setattr(cuda_backend, "check", lambda result, what, kernel=None: result[1])
    monkeypatch.setattr(cuda_backend, "_DRIVER", [maker])
    stream = cuda_backend.CudaStream(0x1234, owned=True)
    allocation = cuda_backend.CudaAllocation(64)
    monkeypatch.setattr(cuda_backend, "_DRIVER", [later])  # another driver is installed before collection
    del stream, allocation
    gc.collect()
    assert ("cuStreamDestroy", 0x1234) in maker.calls
    assert ("cuMemFree", 0xBEEF) in maker.calls
    assert later.calls == []
