"""Wrong calls in tile kernels are refused alike by both executors, generated from the language's own signatures.

For every function of `safekernels.tile` a kernel body may call, and every method of the views and tiles the CPU
executor runs, the generator writes kernels calling it with one positional argument too few (none at all), one
too many, and an unknown keyword.  Both executors must refuse each with the same SK code at the same
file:line:col (SK006 for a call whose arguments do not fit), never a bare `TypeError` / `IndexError` from the
executor or the compiler, and never an extra argument silently ignored.  Found by mutating generated kernels
(`tile.min(axis=0)` was an `IndexError` in the GPU front end; `tile.load_like(z, z)` compiled for the GPU and was a
`TypeError` on the CPU).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import pytest
from language_generator import Case
from language_runner import Outcome, compile_tile_case, run_tile

import safekernels as sk
from safekernels.tile import language as tile_language

CPU = sk.Device.cpu()
_HEADER = """from typing import Any

from safekernels import tile
from safekernels.dtypes import *  # noqa: F403
from safekernels.tile import AtomicTensor, Partition, Tensor


@tile.kernel
def generated(z: Partition[Any], x: Tensor[Any], y: Tensor[Any]) -> None:
    a = tile.load_like(x, z)
    b = tile.load_like(y, z)
"""
#: what the kernel can pass: a tile, the output partition, an input tensor, a number
_ARGUMENT = "a"
#: host-only entries of `safekernels.tile` (not callable in a kernel body: refused as SK004, covered elsewhere)
_HOST_ONLY = {"from_numpy", "arange", "function", "kernel", "autotune", "zeros_like"}


def _kernel_functions() -> list[str]:
    names = []
    for name, value in vars(tile_language).items():
        if name.startswith("_") or not inspect.isfunction(value) or value.__module__ != tile_language.__name__:
            continue
        if name not in _HOST_ONLY:
            names.append(name)
    return sorted(names)


@dataclass(frozen=True)
class WrongCall:
    label: str
    statement: str


def _positional_count(fn: object) -> int:
    params = inspect.signature(fn).parameters.values()  # type: ignore[arg-type]
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def wrong_calls() -> list[WrongCall]:
    out: list[WrongCall] = []
    for name in _kernel_functions():
        fn = getattr(tile_language, name)
        required = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty and p.kind <= 1]
        if required:
            out.append(WrongCall(f"tile.{name}() too few", f"t = tile.{name}()"))
        extra = ", ".join([_ARGUMENT] * (_positional_count(fn) + 1))
        out.append(WrongCall(f"tile.{name} too many", f"t = tile.{name}({extra})"))
        out.append(WrongCall(f"tile.{name} unknown keyword", f"t = tile.{name}(a, bogus=1)"))
    for receiver, method, fit, required in (
        ("a", "astype", "f32", True),
        ("x", "load", "(0,), (16,)", True),
        ("x", "partition", "(16,)", True),
        ("z", "load", "", False),
        ("z", "store", "a", True),
        ("z", "num_tiles", "0", True),
        ("a", "sum", "", False),
        ("a", "reshape", "(16,)", True),
    ):
        given = f"{fit}, a, a" if fit else "a, a"
        out.append(WrongCall(f"{receiver}.{method} too many", f"t = {receiver}.{method}({given})"))
        if required:
            out.append(WrongCall(f"{receiver}.{method}() too few", f"t = {receiver}.{method}()"))
    return out


WRONG = wrong_calls()


def _case(call: WrongCall) -> Case:
    source = _HEADER + f"    {call.statement}\n    z.store(a)\n"
    args = (((16,), (16,), "f32"), ((16,), None, "f32"), ((16,), None, "f32"))
    return Case("tile", call.label, "f32", "16", None, source, args, 1, "reject", "exact")


def test_the_generator_covers_every_kernel_function() -> None:
    names = _kernel_functions()
    assert {"load_like", "min", "sum", "matmul", "where", "gather", "atomic_add", "broadcast_to"} <= set(names)
    assert len(WRONG) >= 3 * len(names) - 3, len(WRONG)


@pytest.mark.parametrize("call", WRONG, ids=lambda c: c.label)
def test_a_wrong_call_is_refused_alike(call: WrongCall) -> None:
    case = _case(call)
    cpu: Outcome = run_tile(case, CPU)  # anything but a located refusal propagates and fails the test
    gpu: Outcome = compile_tile_case(case, "sm_90a")
    assert cpu.kind == "reject", (call.statement, str(cpu))
    assert cpu.same_verdict(gpu), (call.statement, str(cpu), str(gpu))
    assert ".py:12:" in cpu.where, (call.statement, cpu.where)  # on the wrong call's own line


@pytest.mark.parametrize(
    "statement",
    [
        "t = tile.min(axis=0)",  # was an IndexError in the GPU front end
        "t = tile.load_like(z, z)",  # compiled for the GPU, a TypeError on the CPU
        "t = z.load((0,), a)",  # the extra argument was ignored by the GPU
        "t = tile.transpose()",
    ],
)
def test_the_mutations_that_found_it_are_sk006(statement: str) -> None:
    case = _case(WrongCall(statement, statement))
    cpu, gpu = run_tile(case, CPU), compile_tile_case(case, "sm_90a")
    assert (cpu.kind, cpu.code) == ("reject", "SK006"), str(cpu)
    assert cpu.same_verdict(gpu), (str(cpu), str(gpu))
