"""`prepare`'s validation order, as pure functions over `DeviceLimits` (no GPU, no executor)."""

from __future__ import annotations

import dataclasses

import pytest

from safekernels.dtypes import f32
from safekernels.runtime.limits import CPU_EXECUTOR_LIMITS, DeviceLimits
from safekernels.simt import (
    DisjointSlice,
    FunctionLimits,
    LaunchConfig1D,
    LaunchConfig2D,
    LaunchContractError,
    Slice,
    launch_contract,
)
from safekernels.simt.contract import CONTRACT_ATTRIBUTE, LaunchContract
from safekernels.simt.validation import validate_launch

LIMITS = dataclasses.replace(CPU_EXECUTOR_LIMITS, name="test GPU", compute_capability=(8, 0))
FN = FunctionLimits(max_threads_per_block=1024, static_shared_bytes=0)


def contract_of(**kwargs: object) -> LaunchContract:
    @launch_contract(**kwargs)  # type: ignore[arg-type]
    def k(a: Slice[f32], c: DisjointSlice[f32]) -> None:
        pass

    contract: LaunchContract = getattr(k, CONTRACT_ATTRIBUTE)
    return contract


def check(
    contract: LaunchContract, config: object, limits: DeviceLimits = LIMITS, fn: FunctionLimits = FN
) -> None:
    validate_launch("kern", contract, config, limits, fn)  # type: ignore[arg-type]


def test_valid_launch_passes() -> None:
    check(contract_of(block=256), LaunchConfig1D(4, 256))
    check(contract_of(domain=2, block=(16, 16)), LaunchConfig2D((3, 2), (16, 16)))


def test_rank_mismatch_is_first() -> None:
    with pytest.raises(
        LaunchContractError, match=r"^kern: mismatched launch configuration: expected LaunchConfig2D"
    ):
        check(contract_of(domain=2, block=(16, 16)), LaunchConfig1D(0, 0))


@pytest.mark.parametrize(
    ("config", "text"),
    [
        (LaunchConfig1D(0, 256), "grid dimension x is zero"),
        (LaunchConfig1D(4, 0), "block dimension x is zero"),
    ],
)
def test_zero_dimension(config: LaunchConfig1D, text: str) -> None:
    with pytest.raises(LaunchContractError, match=f"^kern: {text}"):
        check(contract_of(block=256), config)


def test_zero_dimension_comes_before_block_mismatch() -> None:
    with pytest.raises(LaunchContractError, match=r"grid dimension x is zero"):
        check(contract_of(block=256), LaunchConfig1D(0, 128))


def test_block_mismatch() -> None:
    with pytest.raises(
        LaunchContractError, match=r"^kern: block \(128, 1, 1\) does not match required block \(256, 1, 1\)"
    ):
        check(contract_of(block=256), LaunchConfig1D(4, 128))


def test_dynamic_shared_exact_and_range() -> None:
    with pytest.raises(
        LaunchContractError, match=r"^kern: dynamic shared memory of 512 bytes does not match"
    ):
        check(contract_of(block=256), LaunchConfig1D(1, 256, 512))
    check(contract_of(block=256, dynamic_shared=(0, 4096)), LaunchConfig1D(1, 256, 512))
    with pytest.raises(LaunchContractError, match=r"outside the contract's range \[0, 256\]"):
        check(contract_of(block=256, dynamic_shared=(0, 256)), LaunchConfig1D(1, 256, 512))


def test_block_mismatch_comes_before_dynamic_shared() -> None:
    with pytest.raises(LaunchContractError, match=r"does not match required block"):
        check(contract_of(block=256), LaunchConfig1D(1, 128, 64))


def test_device_grid_limit() -> None:
    with pytest.raises(
        LaunchContractError, match=r"^kern: grid dimension y = 70000 exceeds the device maximum 65535"
    ):
        check(contract_of(domain=2, block=(16, 16)), LaunchConfig2D((1, 70000), (16, 16)))


def test_device_block_and_thread_limits() -> None:
    with pytest.raises(
        LaunchContractError, match=r"^kern: block dimension x = 2048 exceeds the device maximum 1024"
    ):
        check(contract_of(), LaunchConfig1D(1, 2048))
    with pytest.raises(LaunchContractError, match=r"^kern: block has 2048 threads; device maximum is 1024"):
        check(contract_of(domain=2), LaunchConfig2D((1, 1), (64, 32)))


def test_function_register_limited_threads() -> None:
    with pytest.raises(LaunchContractError, match=r"^kern: block has 1024 threads; function maximum is 512"):
        check(contract_of(block=1024), LaunchConfig1D(1, 1024), fn=FunctionLimits(512, 0))


def test_shared_memory_limits() -> None:
    with pytest.raises(LaunchContractError, match=r"exceed the device portable limit 49152"):
        check(contract_of(block=256), LaunchConfig1D(1, 256), fn=FunctionLimits(1024, 64 * 1024))
    big = 300 * 1024
    with pytest.raises(
        LaunchContractError, match=f"^kern: {big + 1024} shared-memory bytes exceed the device opt-in"
    ):
        check(
            contract_of(block=256, dynamic_shared=big),
            LaunchConfig1D(1, 256, big),
            fn=FunctionLimits(1024, 1024),
        )
    # above the portable limit but within opt-in: allowed (the launcher raises the function's attribute)
    check(contract_of(block=256, dynamic_shared=100 * 1024), LaunchConfig1D(1, 256, 100 * 1024))


def test_live_limits_come_before_compute_capability() -> None:
    with pytest.raises(LaunchContractError, match=r"function maximum"):
        check(
            contract_of(block=1024, min_compute_capability=(9, 0)),
            LaunchConfig1D(1, 1024),
            fn=FunctionLimits(256),
        )


def test_compute_capability() -> None:
    with pytest.raises(
        LaunchContractError, match=r"^kern: requires compute capability 9\.0, device 'test GPU' has 8\.0"
    ):
        check(contract_of(block=256, min_compute_capability=(9, 0)), LaunchConfig1D(1, 256))
    check(contract_of(block=256, min_compute_capability=(8, 0)), LaunchConfig1D(1, 256))


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        ({"domain": 4}, "domain must be 1, 2 or 3"),
        ({"block": (16, 16), "domain": 1}, "does not fit domain=1"),
        ({"block": (4, 4, 4), "domain": 2}, "does not fit domain=2"),
        ({"block": 0}, "has a zero dimension"),
        ({"dynamic_shared": (10, 5)}, "ordered"),
        ({"dynamic_shared": -1}, "non-negative"),
        ({"min_compute_capability": (8,)}, "major, minor"),
    ],
)
def test_bad_contract_fields_rejected_at_decoration(kwargs: dict[str, object], text: str) -> None:
    with pytest.raises(LaunchContractError, match=f"^k: .*{text}"):
        contract_of(**kwargs)


def test_domain_inferred_from_block() -> None:
    assert contract_of(block=(16, 16)).domain == 2
    assert contract_of(block=256).block == (256, 1, 1)
    assert contract_of().block is None
