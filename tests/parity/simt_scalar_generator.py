"""SIMT scalars mixing a typed int and a typed float, generated, with an oracle read from the GPU's own LLVM IR.

docs/simt-compiler.md: a typed int with a typed float computes in the float's type (numpy would go to f64), and
that holds for every operator: `+ - * / // %`, comparisons (each pair of a chained comparison) and `min`/`max`
(the CPU executor once computed `i32 // f32` in f64, compared `i32 < f32` in f64, compared the pairs of
`q <= p <= q` in f64 and returned `min(i32, f32)`'s int unconverted).  Each case is
one kernel over an int parameter `p` of every int dtype and a float parameter `q` of f32, f64 and f16:

    @simt.kernel
    @simt.launch_contract(block=32)
    def generated(p: i32, q: f32, c: DisjointSlice[f64]) -> None:
        idx = thread.index_1d()
        if (o := c.get_mut(idx)) is not None:
            o.set(f64(p // q))

stored as f64, so the value shows the type it was computed in.  The oracle folds the kernel's lowered LLVM IR
with the parameters as constants (thread 0 of block 0) at O3, as `scalar_generator` does for tile kernels.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from generated_source import load_generated
from scalar_generator import _constant, _parse

INTS: dict[str, int] = {
    "i8": 100, "i16": 30001, "i32": 16777217, "i64": 2**40 + 1,
    "u8": 201, "u16": 60001, "u32": 16777219, "u64": 2**40 + 3,
}  # fmt: skip
FLOATS = ("f32", "f64", "f16")
#: form -> expression of `p` (the int) and `q` (the float); comparisons are stored as 0 / 1
FORMS: dict[str, str] = {
    "p + q": "p + q", "q - p": "q - p", "p * q": "p * q", "p / q": "p / q", "q / p": "q / p",
    "p // q": "p // q", "q // p": "q // p", "p % q": "p % q", "q % p": "q % p",
    "min(p, q)": "min(p, q)", "max(q, p)": "max(q, p)", "min(p, q) * q": "min(p, q) * q",
    "p < q": "i32(p < q)", "q <= p": "i32(q <= p)", "p == q": "i32(p == q)", "p != q": "i32(p != q)",
    "q <= p <= q": "i32(q <= p <= q)", "p - 1 < q != p": "i32(p - 1 < q != p)",
}  # fmt: skip
#: chains compare each adjacent pair in that pair's common type (`q <= p <= q`: p converted to q's type twice)
_COMPARES = ("p < q", "q <= p", "p == q", "p != q", "q <= p <= q", "p - 1 < q != p")


@dataclass(frozen=True)
class SimtScalarCase:
    form: str
    int_dtype: str
    float_dtype: str
    text: str

    @property
    def name(self) -> str:
        return f"simt-scalar:{self.form}[{self.int_dtype},{self.float_dtype}]"

    @property
    def values(self) -> tuple[int, float]:
        """`p`, and `q`: 0.3 in its type, or for a comparison `p` rounded to f32 (equal to `p` in f32 only)."""
        p = INTS[self.int_dtype]
        q = float(np.float32(p)) if self.form in _COMPARES else 0.3
        kind: Any = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[self.float_dtype]
        with np.errstate(over="ignore"):  # f16: a wide int rounds to inf
            return p, float(kind(q))


_HEADER = """from safekernels import simt
from safekernels.dtypes import *  # noqa: F403
from safekernels.simt import DisjointSlice, thread
"""


def simt_scalar_cases() -> list[SimtScalarCase]:
    out = []
    for form, expr in FORMS.items():
        for idt in INTS:
            for fdt in FLOATS:
                text = (
                    _HEADER
                    + "\n\n@simt.kernel\n@simt.launch_contract(block=32)\n"
                    + f"def generated(p: {idt}, q: {fdt}, c: DisjointSlice[f64]) -> None:\n"
                    + "    idx = thread.index_1d()\n"
                    + f"    if (o := c.get_mut(idx)) is not None:\n        o.set(f64({expr}))\n"
                )
                out.append(SimtScalarCase(form, idt, fdt, text))
    return out


def sample(cases: Sequence[SimtScalarCase]) -> list[SimtScalarCase]:
    """Every form with every float dtype, the int dtypes rotating (every case under SAFEKERNELS_PARITY_LONG=1)."""
    if os.environ.get("SAFEKERNELS_PARITY_LONG", "") not in ("", "0"):
        return list(cases)
    ints, forms = list(INTS), list(FORMS)
    return [
        c
        for c in cases
        if c.int_dtype in ("i32", ints[(forms.index(c.form) + FLOATS.index(c.float_dtype)) % len(ints)])
    ]


def load(case: SimtScalarCase) -> Any:
    """The generated kernel object (one module file per case, named by its content)."""
    return load_generated(case.text, "simt")


def run(case: SimtScalarCase, device: Any) -> Any:
    """The case launched on `device` (32 threads): a `language_runner.Outcome`."""
    from language_runner import Outcome, _refusal

    import safekernels as sk
    from safekernels import simt
    from safekernels.dtypes import dtype_of

    p, q = case.values
    try:
        kernel = load(case)
        stream = device.new_stream()
        out = sk.zeros(32, dtype_of("f64"), stream)
        prepared = kernel.prepare(simt.LaunchConfig1D.for_len(32, block=32), device)
        kernel.launch(prepared, stream, dtype_of(case.int_dtype).storage.type(p), _float(case, q), out)
        values = [out.to_numpy(stream)]
    except Exception as exc:
        return _refusal(exc)
    return Outcome("accept", values=values)


def _float(case: SimtScalarCase, q: float) -> Any:
    return {"f32": np.float32, "f64": np.float64, "f16": np.float16}[case.float_dtype](q)


_SREG = re.compile(
    r'(?:tail )?call (?:range\(i32 \d+, \d+\) )?i32 @"?llvm\.nvvm\.read\.ptx\.sreg\.(tid|ctaid|ntid)\.x"?\(\)'
)
_STORE = re.compile(r"store (<\d+ x \w+>|\w+) (.+?), ptr")


def gpu_llvm(case: SimtScalarCase) -> tuple[str, str]:
    """(the lowered LLVM IR, the entry's name): the SIMT compiler's front end and lowering (raises its SK
    refusal)."""
    from safekernels.codegen.frontend.builder import build_module
    from safekernels.codegen.frontend.spec import spec_from_kernel
    from safekernels.codegen.lowering import LoweringOptions, lower_module

    spec = spec_from_kernel(load(case), assume_requires=False)
    module = build_module(spec)
    text = lower_module(module, LoweringOptions(approx_math=True, have_libdevice=True))
    # a float `%` calls libdevice's `fmod`, which is exact: LLVM's `frem` has the same meaning and folds
    return _LIBDEVICE_FMOD.sub(r"frem \1 \2, \4", text), module.kernel.name


_LIBDEVICE_FMOD = re.compile(r'call (float|double) @"?__nv_fmodf?"?\((?:float|double) (\S+), (float|double) (\S+)\)')


def folded_gpu_value(case: SimtScalarCase) -> float:
    """What thread 0 stores, folded by LLVM from the GPU IR with `p` and `q` as constants."""
    from llvmlite import binding as llvm

    from safekernels.codegen.ptx import target_machine

    text, name = gpu_llvm(case)
    text = _SREG.sub(lambda m: f"add i32 0, {32 if m.group(1) == 'ntid' else 0}", text)
    text = text.replace(f'define ptx_kernel void @"{name}"', f'define internal void @"{name}"')
    text = "\n".join(line for line in text.splitlines() if not line.startswith("!"))
    p, q = case.values
    fty = {"f32": "float", "f64": "double", "f16": "half"}[case.float_dtype]
    qc = f"half 0xH{int(np.float16(q).view(np.uint16)):04X}" if fty == "half" else _constant(fty, q)
    args = [_constant(f"i{int(case.int_dtype[1:])}", p), qc, "ptr addrspace(1) @__oracle_c", "i64 32"]
    text += "\n@__oracle_c = addrspace(1) global [32 x double] zeroinitializer"
    text += f'\ndefine void @__oracle() {{\n  call void @"{name}"({", ".join(args)})\n  ret void\n}}\n'
    module = llvm.parse_assembly(text)
    module.verify()
    pb = llvm.create_pass_builder(target_machine("sm_90"), llvm.create_pipeline_tuning_options(speed_level=3))
    pb.getModulePassManager().run(module, pb)
    folded = str(module)
    body = folded[folded.index("@__oracle()") :]
    for m in _STORE.finditer(body):
        ty, value = m.group(1), m.group(2).strip()
        if value.startswith("%"):
            raise AssertionError(f"LLVM did not fold the stored value\n{body[:3000]}")
        return float(_parse(ty, value))
    raise AssertionError(f"no store in the folded IR\n{body[:3000]}")
