"""The runtime side of the TMA path without a GPU: `gpu_launch.tensor_map` hands cuTensorMapEncodeTiled the
tensor's extents innermost first, its row pitch in bytes, the box the compiler chose, the 128-byte swizzle and
zero fill, into 64-byte-aligned storage, once per tensor; a failed encode is a clear error.  (The planned
launch of a kernel with tensor maps: tests/tile/test_tile_launch_plan.py.)"""

from __future__ import annotations

import ctypes
from types import SimpleNamespace
from typing import Any

import pytest

from safekernels.dtypes import dtype_of
from safekernels.tile import gpu_launch


class FakeLibcuda:
    def __init__(self, result: int = 0) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.result = result

    def cuTensorMapEncodeTiled(self, *args: Any) -> int:
        self.calls.append(args)
        ctypes.memset(args[0].value, 0xAB, 128)  # "encodes" into the caller's storage
        return self.result


@pytest.fixture(autouse=True)
def _fresh_map_cache() -> None:
    gpu_launch._MAP_CACHE.clear()  # each test sees its own fake driver encode


def test_a_map_is_encoded_once_per_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeLibcuda()
    monkeypatch.setattr(gpu_launch, "_LIBCUDA", [fake])
    first = gpu_launch.tensor_map(_value((256, 256), "f16"), "tmap:128:64")
    assert gpu_launch.tensor_map(_value((256, 256), "f16"), "tmap:128:64") is first and len(fake.calls) == 1
    gpu_launch.tensor_map(_value((256, 256), "f16"), "tmap:64:64")  # another box: another map
    gpu_launch.tensor_map(_value((256, 256), "f16", ptr=0x7F0000002000), "tmap:128:64")  # another tensor
    gpu_launch.tensor_map(_value((256, 128), "f16"), "tmap:128:64")  # another shape at the same address
    assert len(fake.calls) == 4


def _value(shape: tuple[int, int], dtype: str, ptr: int = 0x7F0000001000) -> Any:
    return SimpleNamespace(shape=shape, dtype=dtype_of(dtype), buffer=SimpleNamespace(ptr=ptr))


@pytest.mark.parametrize(
    ("dtype", "code", "itemsize"), [("f16", 6, 2), ("bf16", 9, 2), ("f8e4m3", 0, 1), ("f8e5m2", 0, 1)]
)
def test_tensor_map_arguments(monkeypatch: pytest.MonkeyPatch, dtype: str, code: int, itemsize: int) -> None:
    fake = FakeLibcuda()
    monkeypatch.setattr(gpu_launch, "_LIBCUDA", [fake])
    view = gpu_launch.tensor_map(_value((4000, 3000), dtype), "tmap:128:64")
    (call,) = fake.calls
    storage, dt, rank, ptr, dims, strides, box, estrides, interleave, swizzle, l2, oob = call
    assert storage.value % 64 == 0 and ctypes.addressof(view) == storage.value and bytes(view) == b"\xab" * 128
    assert (dt.value, rank.value, ptr.value) == (code, 2, 0x7F0000001000)
    assert list(dims) == [3000, 4000] and list(strides) == [3000 * itemsize]  # innermost first, bytes
    assert list(box) == [64, 128] and list(estrides) == [1, 1]
    assert (interleave.value, swizzle.value, l2.value, oob.value) == (0, 3, 3, 0)  # 128B swizzle, zero fill


def test_an_empty_extent_still_encodes(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeLibcuda()
    monkeypatch.setattr(gpu_launch, "_LIBCUDA", [fake])
    gpu_launch.tensor_map(_value((256, 0), "f16"), "tmap:128:64")  # K = 0: the loop never copies
    assert list(fake.calls[0][4]) == [1, 256]


def test_a_failed_encode_names_the_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gpu_launch, "_LIBCUDA", [FakeLibcuda(result=1)])
    with pytest.raises(RuntimeError, match=r"cuTensorMapEncodeTiled failed \(CUresult 1\) for a \(64, 64\) f16"):
        gpu_launch.tensor_map(_value((64, 64), "f16"), "tmap:64:64")


def test_fp8_scalar_arguments_are_packed_as_their_bit_patterns() -> None:
    assert gpu_launch._scalar_cell(3.3, dtype_of("f8e4m3")).value == 0x45  # 3.25
    assert gpu_launch._scalar_cell(1e9, dtype_of("f8e4m3")).value == 0x7E  # saturates to 448
    assert gpu_launch._scalar_cell(1.0, dtype_of("f8e5m2")).value == 0x3C
