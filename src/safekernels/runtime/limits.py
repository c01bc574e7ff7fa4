"""`DeviceLimits`: the live limits a launch is validated against, as a plain record.

Launch validation (`simt.validation`) is pure functions over this record, so every failure kind is testable
without a GPU; the CUDA backend fills it from device attributes, the CPU executor from an sm_90-like profile.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceLimits:
    name: str
    compute_capability: tuple[int, int]
    max_grid_dim: tuple[int, int, int]
    max_block_dim: tuple[int, int, int]
    max_threads_per_block: int
    max_shared_memory_per_block: int  # without opt-in (static + dynamic by default)
    max_shared_memory_per_block_optin: int  # with cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)
    warp_size: int = 32
    multiprocessor_count: int = 1
    total_memory: int = 0

    @property
    def arch(self) -> str:
        """The PTX target for this device, e.g. `sm_90`."""
        major, minor = self.compute_capability
        return f"sm_{major}{minor}"


#: What the CPU executor claims to be: the limits of an sm_90 part, so contracts written for the GPU validate
#: the same way on the CPU (a kernel that would not launch on an H100/H200 does not run on the CPU either).
CPU_EXECUTOR_LIMITS = DeviceLimits(
    name="CPU executor",
    compute_capability=(9, 0),
    max_grid_dim=(2**31 - 1, 65535, 65535),
    max_block_dim=(1024, 1024, 64),
    max_threads_per_block=1024,
    max_shared_memory_per_block=48 * 1024,
    max_shared_memory_per_block_optin=227 * 1024,
    warp_size=32,
    multiprocessor_count=1,
)
