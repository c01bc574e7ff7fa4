"""`@simt.launch_contract(...)`: what a kernel promises about how it may be launched.

The contract is checked twice: its own fields and `requires` grammar when the decorator runs (a bad contract
is a definition error, not a launch error), and every launch against it in `kernel.prepare` (geometry, shared
memory, device) and `kernel.launch` (`requires` relations over the actual arguments).  An exact `block` is
also handed to codegen, which emits it as `.reqntid`, so the driver enforces the block shape even on unchecked
launches.

Both decorator orders work: `@simt.kernel` above `@simt.launch_contract` (the documented order:
the contract is attached to the function and read by `kernel`) or below it (the contract is attached to the kernel
object)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from safekernels.simt.params import KernelParam, parse_params
from safekernels.simt.requires import Relation, parse_requires
from safekernels.simt.validation import LaunchContractError

F = TypeVar("F")

CONTRACT_ATTRIBUTE = "__sk_launch_contract__"


@dataclass(frozen=True)
class LaunchContract:
    """A validated contract.  `block` is a 3-tuple or None (any block); `requires` keeps the source texts."""

    domain: int
    block: tuple[int, int, int] | None
    dynamic_shared: int | tuple[int, int]
    min_compute_capability: tuple[int, int] | None
    requires: tuple[str, ...]
    relations: tuple[Relation, ...]

    @property
    def max_dynamic_shared(self) -> int:
        return self.dynamic_shared[1] if isinstance(self.dynamic_shared, tuple) else self.dynamic_shared


@dataclass(frozen=True)
class ContractSpec:
    """The decorator's arguments before they are checked against a kernel's parameters."""

    domain: int | None
    block: int | tuple[int, ...] | None
    dynamic_shared: int | tuple[int, int]
    min_compute_capability: tuple[int, int] | None
    requires: tuple[str, ...]

    def build(self, kernel: str, params: Sequence[KernelParam]) -> LaunchContract:
        block3 = _block3(kernel, self.block)
        domain = self.domain
        if domain is None:
            domain = len(self.block) if isinstance(self.block, tuple) else 1
        if domain not in (1, 2, 3):
            raise LaunchContractError(f"{kernel}: launch_contract domain must be 1, 2 or 3, got {domain!r}")
        if block3 is not None:
            if domain == 1 and block3[1:] != (1, 1):
                raise LaunchContractError(
                    f"{kernel}: block {block3} does not fit domain=1 (y and z must be 1)"
                )
            if domain == 2 and block3[2] != 1:
                raise LaunchContractError(f"{kernel}: block {block3} does not fit domain=2 (z must be 1)")
        shared = self.dynamic_shared
        if isinstance(shared, tuple):
            if len(shared) != 2 or not all(_is_count(v) for v in shared) or shared[0] > shared[1]:
                raise LaunchContractError(
                    f"{kernel}: dynamic_shared must be a byte count or an ordered (min, max) range, "
                    f"got {shared!r}"
                )
        elif not _is_count(shared):
            raise LaunchContractError(f"{kernel}: dynamic_shared must be a non-negative int, got {shared!r}")
        cc = self.min_compute_capability
        if cc is not None and (len(cc) != 2 or not all(_is_count(v) for v in cc)):
            raise LaunchContractError(f"{kernel}: min_compute_capability must be (major, minor), got {cc!r}")
        relations = parse_requires(kernel, self.requires, params)
        return LaunchContract(
            domain=domain,
            block=block3,
            dynamic_shared=tuple(shared) if isinstance(shared, tuple) else shared,  # type: ignore[arg-type]
            min_compute_capability=tuple(cc) if cc is not None else None,  # type: ignore[arg-type]
            requires=self.requires,
            relations=relations,
        )


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _block3(kernel: str, block: int | tuple[int, ...] | None) -> tuple[int, int, int] | None:
    if block is None:
        return None
    dims = (block,) if isinstance(block, int) else tuple(block)
    if not 1 <= len(dims) <= 3 or not all(_is_count(d) for d in dims):
        raise LaunchContractError(
            f"{kernel}: launch_contract block must be an int or a 1-3 tuple of ints, got {block!r}"
        )
    if any(d == 0 for d in dims):
        raise LaunchContractError(f"{kernel}: launch_contract block {block!r} has a zero dimension")
    padded = (*dims, 1, 1)
    return (padded[0], padded[1], padded[2])


def launch_contract(
    *,
    domain: int | None = None,
    block: int | tuple[int, ...] | None = None,
    dynamic_shared: int | tuple[int, int] = 0,
    min_compute_capability: tuple[int, int] | None = None,
    requires: Sequence[str] | str = (),
) -> Callable[[F], F]:
    """Declare how a kernel may be launched (checked now for well-formedness, at `prepare`/`launch` for use).

    `domain` (1, 2 or 3; default: the length of `block`, else 1), `block` (exact threads per block: an
    int or a tuple), `dynamic_shared` (exact bytes, or a `(min, max)` range; default 0),
    `min_compute_capability`, and `requires` relations such as `"len(a) >= n"` checked at every launch.
    """
    spec = ContractSpec(
        domain=domain,
        block=block,
        dynamic_shared=dynamic_shared,
        min_compute_capability=min_compute_capability,
        # anything but a string or a list/tuple of them is one bad entry, which `parse_requires` names
        requires=tuple(requires) if isinstance(requires, tuple | list) else (requires,),  # type: ignore[arg-type]
    )

    def apply(target: F) -> F:
        attach = getattr(target, "_attach_contract", None)
        if attach is not None:  # a SimtKernel: `@launch_contract` written above `@kernel`
            attach(spec)
            return target
        if not callable(target):
            raise TypeError(f"@simt.launch_contract decorates a kernel function, not {target!r}")
        name = getattr(target, "__name__", "kernel")
        from safekernels.simt.definition_site import bad_parameter, contract_definition_error, definition_error

        try:
            params = parse_params(target, name)
        except TypeError as exc:  # located, with its SK code (definition_site)
            raise definition_error(target, "SK011", str(exc), bad_parameter(exc)) from None
        try:
            contract = spec.build(name, params)
        except LaunchContractError as exc:
            raise contract_definition_error(target, exc) from None
        setattr(target, CONTRACT_ATTRIBUTE, contract)
        return target

    return apply
