"""Run a SIMT kernel's emitted LLVM IR on the host CPU: a GPU-free oracle for what the lowering computes.

The code generator's IR targets NVPTX, so without a GPU the tests could only read it (golden patterns) or ask
llvmlite to verify it; neither notices a `sdiv` that should be a `udiv`, a flipped `select`, or a loop step of
the wrong sign.  Here the same IR, retargeted to the host, is JIT-compiled by llvmlite and executed one thread
at a time, so its results can be compared with numpy or Python on the values where the semantics differ.

The retargeting is textual and deliberately small: the NVPTX triple and data layout go, `addrspace(N)`
pointers become plain pointers, the special registers (`llvm.nvvm.read.ptx.sreg.*`) become reads of host
globals that the runner sets per thread, and a trap (`llvm.trap` + `unreachable`) becomes "set a flag and
return", so a trapping thread is reported instead of killing the test process.  Kernels that need threads to
run together (barriers, warp shuffles) or libdevice calls (except `fmod`, run as the C library's) are out of
scope: `HostKernel` refuses them with `Unsupported` rather than giving a wrong answer.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from typing import Any

import llvmlite.binding as llvm
import numpy as np

from safekernels import codegen

_SREG = re.compile(r'@"llvm\.nvvm\.read\.ptx\.sreg\.(\w+)\.([xyz])"')
_TRAP = re.compile(r'call void @"llvm\.trap"\(\)\s*\n\s*unreachable')
_SIGNATURE = re.compile(r'define ptx_kernel void @"([^"]+)"\((.*)\)')
_CTYPES: dict[str, Any] = {
    "ptr": ctypes.c_void_p,
    "i1": ctypes.c_bool,
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "float": ctypes.c_float,
    "double": ctypes.c_double,
}


def _scalar(ty: str, value: Any) -> Any:
    """A host scalar as the parameter's IR type takes it (an unsigned value above the signed range wraps)."""
    if ty == "i1":
        return bool(value)
    if ty in ("float", "double"):
        return float(np.float32(value)) if ty == "float" else float(value)
    bits = int(ty[1:])
    wrapped = int(value) & ((1 << bits) - 1)
    return wrapped - (1 << bits) if wrapped >> (bits - 1) else wrapped


class Unsupported(Exception):
    """The kernel uses something the host runner cannot execute faithfully (one thread at a time)."""


def host_ir(ir: str) -> tuple[str, list[tuple[str, str]]]:
    """The kernel IR retargeted to the host, and the special registers it reads as (register, axis)."""
    # libdevice functions with an exact C library twin run as that twin (float `%` is `fmod`)
    ir = ir.replace('@"__nv_fmodf"', '@"fmodf"').replace('@"__nv_fmod"', '@"fmod"')
    for needle in ("barrier", "shfl", '@"__nv_', "laneid"):  # shared memory alone is fine: no barrier
        if needle in ir:
            raise Unsupported(needle)
    if re.search(r"\b(half|bfloat)\b", ir):  # f16 conversions need compiler-rt helpers the JIT lacks
        raise Unsupported("half")
    out = re.sub(r'target (triple|datalayout) = ".*"', "", ir)
    out = out.replace("ptx_kernel ", "")
    out = re.sub(r" addrspace\(\d\)", "", out)
    out = _TRAP.sub('store i1 1, ptr @"host.trapped"\n  ret void', out)
    out = out.replace('declare void @"llvm.trap"()', "")
    out = re.sub(r"^!.*$", "", out, flags=re.MULTILINE)
    registers = sorted(set(_SREG.findall(out)))
    out = re.sub(r'declare i32 @"llvm\.nvvm\.read\.ptx\.sreg\.\w+\.[xyz]"\(\)', "", out)
    out = _SREG.sub(lambda m: f'@"host.{m.group(1)}.{m.group(2)}"', out)
    extra = ['@"host.trapped" = global i1 0']
    for reg, axis in registers:
        extra.append(f'@"host.v.{reg}.{axis}" = global i32 0')
        extra.append(
            f'define i32 @"host.{reg}.{axis}"() {{\n  %v = load i32, ptr @"host.v.{reg}.{axis}"\n  ret i32 %v\n}}'
        )
    return out + "\n" + "\n".join(extra) + "\n", registers


_initialized: list[bool] = []


def _engine(text: str) -> Any:
    if not _initialized:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _initialized.append(True)
    module = llvm.parse_assembly(text)
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    return engine


@dataclass
class Result:
    """What a host run produced: the output arrays (by argument position) and which threads trapped."""

    arrays: dict[int, np.ndarray]
    trapped: list[int]


class HostKernel:
    """A SIMT kernel compiled to LLVM IR by the code generator and JIT-compiled for the host."""

    def __init__(self, kernel: Any, entry: str | None = None, *, assume_requires: bool = False) -> None:
        """`entry`: the entry point to run when the module has several (a coarsened kernel's second one)."""
        ir = str(
            codegen.compile_simt_kernel(kernel, arch="sm_90", use_cache=False, assume_requires=assume_requires).llvm_ir
        )
        matches = [m for m in _SIGNATURE.finditer(ir) if entry is None or m.group(1) == entry]
        assert matches, f"no kernel entry {entry or ''} in the IR"
        match = matches[0]
        self.name = match.group(1)
        self.params = [p.split()[0] for p in re.sub(r"\{[^}]*\}", "agg", match.group(2)).split(", ")]
        text, self.registers = host_ir(ir)
        self.engine = _engine(text)
        proto = ctypes.CFUNCTYPE(None, *(_CTYPES[p] for p in self.params))
        self.entry = proto(self.engine.get_function_address(self.name))
        self._keep: list[Any] = [self.engine]

    def _register(self, reg: str, axis: str) -> Any:
        address = self.engine.get_global_value_address(f"host.v.{reg}.{axis}")
        return ctypes.c_int32.from_address(address)

    def run(self, args: list[Any], threads: int, block: int = 256, grid_y: int = 1, block_y: int = 1) -> Result:
        """Run `threads` threads along x (in blocks of `block`) times `grid_y * block_y` rows, one at a time.
        Arrays are copied (inputs are never written); scalars are converted to the parameter's type."""
        arrays = {k: np.array(a, copy=True) for k, a in enumerate(args) if isinstance(a, np.ndarray)}
        call_args: list[Any] = []
        position = 0
        for k, a in enumerate(args):
            if k in arrays:
                call_args += [arrays[k].ctypes.data, arrays[k].size]
                position += 2
            else:
                ty = self.params[position]
                call_args.append(_scalar(ty, a))
                position += 1
        assert position == len(self.params), (self.params, args)
        trapped_flag = ctypes.c_bool.from_address(self.engine.get_global_value_address("host.trapped"))
        blocks_x = max(1, -(-threads // block))
        values = {
            "ntid.x": block,
            "ntid.y": block_y,
            "ntid.z": 1,
            "nctaid.x": blocks_x,
            "nctaid.y": grid_y,
            "nctaid.z": 1,
        }
        regs = {f"{r}.{a}": self._register(r, a) for r, a in self.registers}
        for key, cell in regs.items():
            if key in values:
                cell.value = values[key]
            else:
                cell.value = 0
        trapped: list[int] = []
        for y in range(grid_y * block_y):
            for x in range(blocks_x * block):
                settings = {
                    "tid.x": x % block,
                    "ctaid.x": x // block,
                    "tid.y": y % block_y,
                    "ctaid.y": y // block_y,
                }
                for key, value in settings.items():
                    if key in regs:
                        regs[key].value = value
                trapped_flag.value = False
                self.entry(*call_args)
                if trapped_flag.value:
                    trapped.append(y * blocks_x * block + x)
        return Result(arrays, trapped)
