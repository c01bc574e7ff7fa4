"""A torch-like library: its `Tensor.to` returns a copy on another device and leaves the original usable."""

from __future__ import annotations


class Tensor:
    def __init__(self, data: list[float], device: str = "cpu") -> None:
        self.data = data
        self.device = device

    def to(self, device: str, non_blocking: bool = False) -> Tensor:
        return Tensor(list(self.data), device)


def zeros(n: int) -> Tensor:
    return Tensor([0.0] * n)
