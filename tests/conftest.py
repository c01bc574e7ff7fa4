"""Shared pytest setup.  Must import neither libcst nor mypy: the GPU machine runs `pytest -m gpu` without them."""

from __future__ import annotations

import functools
import importlib.util

import pytest

# Folders whose modules import an optional tool at import time.  On a machine without it (the GPU machine has
# neither mypy nor libcst) they are not collected at all, so `pytest -m gpu` runs there; everywhere `make test`
# runs, the tools are installed and every folder is collected.
_NEEDS: dict[str, str] = {
    "mypy_plugin": "mypy",
    "checker_core": "libcst",
    "checker_cli": "libcst",
    "checker_golden": "libcst",
}
collect_ignore_glob = [f"{folder}/*" for folder, module in _NEEDS.items() if importlib.util.find_spec(module) is None]


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
