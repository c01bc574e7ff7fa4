"""`Config`: one candidate of a tile kernel's tuning space (module constants to override, and `num_warps`).

A tile kernel's tile shapes are compile-time constants of its module (`BM`, `BN`, ... used in `Dims(...)`
and in the body).  A `Config` names new values for some of them; the autotuner builds one kernel per config
from the same source with those constants replaced, which also gives each its own compiled-kernel cache entry
(the codegen cache key includes the values of the constants a kernel reaches).
"""

from __future__ import annotations

import json
from typing import Any

_CONSTANT_TYPES = (int, float, bool)


class Config:
    """`tile.Config(BM=128, BN=256, num_warps=8)`: constants to override, and the CTA size (None: heuristic)."""

    __slots__ = ("constants", "num_warps")

    def __init__(self, num_warps: int | None = None, **constants: int | float | bool) -> None:
        for name, value in constants.items():
            if not isinstance(value, _CONSTANT_TYPES):
                raise TypeError(f"tile.Config: constant {name}={value!r} must be an int, float or bool")
        if num_warps is not None and (not isinstance(num_warps, int) or not 1 <= num_warps <= 32):
            raise ValueError(f"tile.Config: num_warps must be an int in 1..32, got {num_warps!r}")
        self.constants: dict[str, int | float | bool] = dict(sorted(constants.items()))
        self.num_warps = num_warps

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and other.text() == self.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def text(self) -> str:
        """A canonical, human-readable description (also what the disk table stores)."""
        parts = [f"{k}={v!r}" for k, v in self.constants.items()]
        if self.num_warps is not None:
            parts.append(f"num_warps={self.num_warps}")
        return ", ".join(parts) or "(defaults)"

    def to_json(self) -> Any:
        return {"constants": self.constants, "num_warps": self.num_warps}

    def __repr__(self) -> str:
        return f"Config({self.text()})"


def configs_text(configs: list[Any]) -> str:
    """A stable text of a list of configurations (tile `Config`s or SIMT block sizes), for cache keys."""
    return json.dumps([c.to_json() if isinstance(c, Config) else c for c in configs], sort_keys=True)
