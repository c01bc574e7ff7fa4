"""The kernel's parameter plan: how host arguments become the `kernelParams` array of `cuLaunchKernel`.

Computed once at compile time from the kernel ABI (see `codegen.lowering.module`): a buffer argument
contributes its device pointer and its length (two 8-byte slots), a scalar one slot of its storage type.  The
runtime turns the plan into preallocated ctypes cells whose addresses never change, so a launch only writes
values into those cells.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class PlanEntry:
    name: str
    kind: str  # slice | disjoint | atomic | scalar
    dtype: str


@dataclass(frozen=True)
class ParamPlan:
    entries: tuple[PlanEntry, ...]

    @property
    def slot_count(self) -> int:
        return sum(1 if e.kind == "scalar" else 2 for e in self.entries)

    def to_json(self) -> str:
        return json.dumps([[e.name, e.kind, e.dtype] for e in self.entries])

    @classmethod
    def from_json(cls, text: str) -> ParamPlan:
        return cls(tuple(PlanEntry(str(a), str(b), str(c)) for a, b, c in json.loads(text)))

    @classmethod
    def from_abi(cls, abi: list[tuple[str, str, str]]) -> ParamPlan:
        return cls(tuple(PlanEntry(*entry) for entry in abi))
