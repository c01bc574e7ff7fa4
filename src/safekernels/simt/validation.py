"""`prepare`'s launch validation, as pure functions over plain records (testable without a GPU).

The order is docs/reference.md §5's (and cuda-oxide's `PreparedLaunch::__prepare`); the first failure wins:

    0. configuration rank vs the contract's `domain`   (LaunchConfig2D for a domain=2 kernel)
    1. non-zero grid and block dimensions
    2. block shape vs the contract's exact `block`
    3. dynamic shared memory vs the contract's `dynamic_shared` (exact or a (min, max) range)
    4. the device's live limits: grid dims, block dims, threads per block, the function's register-limited
       max threads per block, then shared memory (static + dynamic vs the portable, then the opt-in limit)
    5. the contract's `min_compute_capability`

Every error is a `LaunchContractError` whose message starts with the kernel name.  `FunctionLimits` is what
the compiled function adds to the device's limits; on the CPU executor it is just the device's limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from safekernels.errors import SafeKernelsError
from safekernels.runtime.limits import DeviceLimits

if TYPE_CHECKING:
    from safekernels.simt.config import LaunchConfig
    from safekernels.simt.contract import LaunchContract

_AXES = ("x", "y", "z")


class LaunchContractError(SafeKernelsError, ValueError):
    """A launch violates its contract or the device's limits; the message starts with the kernel name."""


@dataclass(frozen=True)
class FunctionLimits:
    """Per-function limits of a compiled kernel (cuFuncGetAttribute): max threads, static shared bytes."""

    max_threads_per_block: int
    static_shared_bytes: int = 0

    @classmethod
    def of_device(cls, limits: DeviceLimits) -> FunctionLimits:
        """What the CPU executor reports: the device's own thread limit and no static shared memory."""
        return cls(limits.max_threads_per_block, 0)


def validate_rank(kernel: str, contract: LaunchContract, config: LaunchConfig) -> None:
    if config.domain != contract.domain:
        raise LaunchContractError(
            f"{kernel}: mismatched launch configuration: expected LaunchConfig{contract.domain}D for a "
            f"domain={contract.domain} contract, found {type(config).__name__}"
        )


def validate_nonzero(kernel: str, grid: tuple[int, int, int], block: tuple[int, int, int]) -> None:
    for what, dims in (("grid", grid), ("block", block)):
        for axis, value in zip(_AXES, dims, strict=True):
            if value == 0:
                raise LaunchContractError(f"{kernel}: {what} dimension {axis} is zero ({what} {dims})")


def validate_block(kernel: str, contract: LaunchContract, block: tuple[int, int, int]) -> None:
    required = contract.block
    if required is not None and block != required:
        raise LaunchContractError(f"{kernel}: block {block} does not match required block {required}")


def validate_dynamic_shared(kernel: str, contract: LaunchContract, dynamic_shared: int) -> None:
    declared = contract.dynamic_shared
    if isinstance(declared, tuple):
        low, high = declared
        if not low <= dynamic_shared <= high:
            raise LaunchContractError(
                f"{kernel}: dynamic shared memory of {dynamic_shared} bytes is outside the contract's range "
                f"[{low}, {high}]"
            )
    elif dynamic_shared != declared:
        raise LaunchContractError(
            f"{kernel}: dynamic shared memory of {dynamic_shared} bytes does not match the contract's "
            f"dynamic_shared={declared}"
        )


def validate_live(
    kernel: str,
    contract: LaunchContract,
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    limits: DeviceLimits,
    function: FunctionLimits,
) -> None:
    for axis, value, maximum in zip(_AXES, grid, limits.max_grid_dim, strict=True):
        if value > maximum:
            raise LaunchContractError(
                f"{kernel}: grid dimension {axis} = {value} exceeds the device maximum {maximum}"
            )
    for axis, value, maximum in zip(_AXES, block, limits.max_block_dim, strict=True):
        if value > maximum:
            raise LaunchContractError(
                f"{kernel}: block dimension {axis} = {value} exceeds the device maximum {maximum}"
            )
    threads = block[0] * block[1] * block[2]
    if threads > limits.max_threads_per_block:
        raise LaunchContractError(
            f"{kernel}: block has {threads} threads; device maximum is {limits.max_threads_per_block}"
        )
    if threads > function.max_threads_per_block:
        raise LaunchContractError(
            f"{kernel}: block has {threads} threads; function maximum is {function.max_threads_per_block}"
        )
    if function.static_shared_bytes > limits.max_shared_memory_per_block:
        raise LaunchContractError(
            f"{kernel}: {function.static_shared_bytes} shared-memory bytes exceed the device portable limit "
            f"{limits.max_shared_memory_per_block}"
        )
    total = function.static_shared_bytes + contract.max_dynamic_shared
    if total > limits.max_shared_memory_per_block_optin:
        raise LaunchContractError(
            f"{kernel}: {total} shared-memory bytes exceed the device opt-in limit "
            f"{limits.max_shared_memory_per_block_optin}"
        )


def validate_compute_capability(kernel: str, contract: LaunchContract, limits: DeviceLimits) -> None:
    required = contract.min_compute_capability
    if required is not None and tuple(limits.compute_capability) < tuple(required):
        have = limits.compute_capability
        raise LaunchContractError(
            f"{kernel}: requires compute capability {required[0]}.{required[1]}, device {limits.name!r} has "
            f"{have[0]}.{have[1]}"
        )


def validate_static(kernel: str, contract: LaunchContract, config: LaunchConfig) -> None:
    """Steps 0-3: everything that needs neither the device nor the compiled function."""
    validate_rank(kernel, contract, config)
    grid, block = config.grid3, config.block3
    validate_nonzero(kernel, grid, block)
    validate_block(kernel, contract, block)
    validate_dynamic_shared(kernel, contract, config.dynamic_shared)


def validate_device(
    kernel: str,
    contract: LaunchContract,
    config: LaunchConfig,
    limits: DeviceLimits,
    function: FunctionLimits,
) -> None:
    """Steps 4-5: the device's live limits, the function's limits, the compute capability."""
    validate_live(kernel, contract, config.grid3, config.block3, limits, function)
    validate_compute_capability(kernel, contract, limits)


def validate_launch(
    kernel: str,
    contract: LaunchContract,
    config: LaunchConfig,
    limits: DeviceLimits,
    function: FunctionLimits,
) -> None:
    """All of `prepare`'s checks, in order; raises the first `LaunchContractError`."""
    validate_static(kernel, contract, config)
    validate_device(kernel, contract, config, limits, function)
