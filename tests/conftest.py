"""Shared pytest setup.  Must import neither libcst nor mypy: the GPU machine runs `pytest -m gpu` without them."""

from __future__ import annotations

import functools

import pytest


@functools.cache
def gpu_available() -> bool:
    """True when a CUDA driver with at least one device answers (never raises)."""
    try:
        from cuda.bindings import driver
    except Exception:
        return False
    try:
        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return False
        err, count = driver.cuDeviceGetCount()
        return err == driver.CUresult.CUDA_SUCCESS and count > 0
    except Exception:
        return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="no NVIDIA GPU / CUDA driver on this machine")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
