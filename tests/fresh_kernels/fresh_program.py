"""What a fresh program is to these tests: how to run it on a device, its reference values, how to assemble it.

Each program in `fresh_tile_programs.py` and `fresh_simt_programs.py` was written from the user docs alone, as an
outside evaluator would, and is held to three checks: the CPU executor's values equal a numpy/Python reference
(within the docs/numerics.md bound the program states), the GPU compiler assembles it with nvJitLink for sm_90a and
sm_80 (or refuses it exactly as the CPU executor does), and on a GPU its values equal the CPU executor's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt

Arrays = list[np.ndarray]


@dataclass(frozen=True)
class Program:
    """A kernel with its launch (`run(device)` -> output arrays), its reference and its compile step."""

    name: str
    run: Callable[[sk.Device], Arrays]
    reference: Callable[[], Arrays]
    assemble: Callable[[str], Any]  # arch -> KernelAsm (llvm, ptx, cubin)
    rtol: float = 0.0  # 0: exact (integers, data movement, correctly rounded ops)
    #: A regex the sm_90a LLVM IR must contain: the value LLVM folded from a constant form (the GPU's answer).
    folded: tuple[str, ...] = field(default_factory=tuple)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Refusal:
    """A program both executors must refuse with the same SK code at the same line of the kernel's source."""

    name: str
    run: Callable[[sk.Device], Arrays]
    assemble: Callable[[str], Any]
    code: str
    line_text: str  # the text of the refused line, found in the kernel's source to get its line number

    def __str__(self) -> str:
        return self.name


def tile_program(
    name: str,
    kernel: Any,
    make_args: Callable[[sk.Device], tuple[Any, ...]],
    outputs: tuple[int, ...],
    reference: Callable[[], Arrays],
    rtol: float = 0.0,
    folded: tuple[str, ...] = (),
) -> Program:
    """A tile launch whose results at `outputs` (partitions or tensors) are compared."""

    def run(device: sk.Device) -> Arrays:
        stream = device.new_stream()
        value = kernel(*make_args(device)).sync_on(stream)
        got = []
        for i in outputs:
            v = value[i]
            got.append(v.unpartition().to_numpy(stream) if hasattr(v, "unpartition") else v.to_numpy(stream))
        return got

    def assemble(arch: str) -> Any:
        return kernel.inspect(*make_args(sk.Device.cpu()), arch=arch)

    return Program(name, run, reference, assemble, rtol, folded)


def simt_program(
    name: str,
    kernel: Any,
    make_args: Callable[[sk.Device, Any], tuple[Any, ...]],
    outputs: tuple[int, ...],
    reference: Callable[[], Arrays],
    n: int,
    block: int,
    rtol: float = 0.0,
    folded: tuple[str, ...] = (),
) -> Program:
    """A SIMT launch of `n` threads in blocks of `block`; the buffers at `outputs` are compared."""

    def run(device: sk.Device) -> Arrays:
        stream = device.new_stream()
        args = make_args(device, stream)
        prepared = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=block), device)
        kernel.launch(prepared, stream, *args)
        return [args[i].to_numpy(stream) for i in outputs]

    def assemble(arch: str) -> Any:
        from safekernels.codegen.pipeline import compile_simt_kernel

        return compile_simt_kernel(kernel, arch="sm_90" if arch == "sm_90a" else arch, use_cache=False)

    return Program(name, run, reference, assemble, rtol, folded)


def stores(llvm: str) -> list[str]:
    """The `store` instructions of an LLVM IR module, in order."""
    return [line.strip() for line in llvm.splitlines() if re.match(r"\s*store ", line)]
