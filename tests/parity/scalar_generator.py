"""Run-time scalar forms of tile kernels, generated, with an oracle read from the GPU's own LLVM IR.

The scalars a tile kernel knows only at run time (`tile.bid`, `tile.num_blocks`, `x.shape[i]`, a loop variable, a
number a loop carries, a scalar parameter of every int and float dtype, a bool comparison) x every scalar operator
and builtin (`+ - * / // % ** << >> & | ^`, `min`, `max`, `abs`, `int()`, `float()`, `f32()`, `i32()`, `f64()`,
unary `-` and `~`) x a literal of each kind (int, float, bool) x where the scalar is used (a `tile.full` value,
arithmetic with a tile, a `range` bound, a tile index).  Each case is one kernel:

    @tile.kernel
    def generated(z: Partition[Any], x: Tensor[Any], p: i32) -> None:
        z.store(tile.full((16,), p * 0.1, f64))

stored into an f64 output when the expression is a float and an i64 one otherwise, so the stored value shows
the type it was computed in (an f32 `p * 0.1` is not the f64 one; an i32 `p * 3` wraps where an i64 does not).

The oracle (`folded_gpu_value`) is LLVM itself: the kernel's lowered GPU IR, called from a wrapper with the
case's parameter values as constants and block 1 / thread 0 in place of the special registers, optimized at O3,
folds to the constant the GPU stores.  It is compared bit for bit with what the CPU executor stores.
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from generated_source import load_generated

LONG = os.environ.get("SAFEKERNELS_PARITY_LONG", "") not in ("", "0")

TILE = 16
SHAPE = 32  # two tile blocks: block 1 is the one checked (its bid is not 0)
INT_PARAMS: dict[str, int] = {
    "i8": 100, "i16": 30000, "i32": 2**31 - 7, "i64": 2**62 + 3,
    "u8": 200, "u16": 60000, "u32": 2**32 - 7, "u64": 2**63 + 5,
}  # fmt: skip
FLOAT_PARAMS: dict[str, float] = {"f32": float(np.float32(1.1)), "f64": 1.1}

#: source -> (the scalar's expression, the parameter `p`'s dtype, whether it is a float)
SOURCES: dict[str, tuple[str, str, bool]] = {
    "bid": ("tile.bid(0)", "i32", False),
    "num_blocks": ("tile.num_blocks(0)", "i32", False),
    "shape": ("z.shape[0]", "i32", False),
    "loop": ("s", "i32", False),  # the variable of `for s in range(3, 4)`, used inside the loop
    "bool": ("(tile.bid(0) > 0)", "i32", False),
    # numbers a loop carries (here after zero trips): typed scalars of their literal's type
    "carried int": ("c", "i32", False),
    "carried float": ("c", "i32", True),
    **{f"param {dt}": ("p", dt, False) for dt in INT_PARAMS},
    **{f"param {dt}": ("p", dt, True) for dt in FLOAT_PARAMS},
}
#: op -> expression of the scalar S and the literal L
OPS: dict[str, str] = {
    "+": "S + L", "-": "S - L", "*": "S * L", "/": "S / L", "//": "S // L", "%": "S % L", "**": "S ** L",
    "<<": "S << L", ">>": "S >> L", "&": "S & L", "|": "S | L", "^": "S ^ L",
    "min": "min(S, L)", "max": "max(L, S)", "abs": "abs(S - L)", "int": "int(S) + L", "float": "float(S) * L",
    "f32": "f32(S) * L", "i32": "i32(S) + L", "f64": "f64(S) * L", "neg": "-S + L", "invert": "~S ^ L",
}  # fmt: skip
LITERALS: dict[str, str] = {"int": "3", "float": "0.1", "bool": "True"}
USES = ("full", "tile", "range", "index")
#: uses whose stored value LLVM can fold (the index use reads memory: its values are checked on the GPU)
FOLDABLE = ("full", "tile", "range")


@dataclass(frozen=True)
class ScalarCase:
    source: str
    op: str
    literal: str
    use: str
    out_dtype: str  # f64 for a float expression, i64 otherwise
    param_dtype: str
    text: str  # the kernel module's source

    @property
    def name(self) -> str:
        return f"scalar:{self.source}[{self.op} {self.literal}]@{self.use}"

    @property
    def param_value(self) -> int | float:
        dt = self.param_dtype
        return INT_PARAMS[dt] if dt in INT_PARAMS else FLOAT_PARAMS[dt]


_HEADER = """from typing import Any

from safekernels import tile
from safekernels.dtypes import *  # noqa: F403
from safekernels.tile import Partition, Tensor
"""


def _is_float(source: str, op: str, literal: str) -> bool:
    """Whether the expression is a float (what decides the output dtype; the front end decides the rest)."""
    if op in ("/", "float", "f32", "f64"):
        return True
    if op in ("int", "i32"):
        return literal == "float"
    return SOURCES[source][2] or literal == "float"


def _body(source: str, expr: str, use: str, odt: str) -> list[str]:
    if use == "full":
        lines = [f"z.store(tile.full(({TILE},), {expr}, {odt}))"]
    elif use == "tile":
        lines = [f"z.store(tile.full(({TILE},), 1, {odt}) * ({expr}))"]
    elif use == "range":
        lines = ["v = 0", f"for k in range(({expr}) & 7):", "    v = v + 1", f"z.store(tile.full(({TILE},), v, {odt}))"]
    else:
        lines = [f"z.store(x.load((({expr}) & 1,), ({TILE},)).astype({odt}))"]
    if source == "loop":
        return ["for s in range(3, 4):", *(f"    {line}" for line in lines)]
    if source.startswith("carried"):
        init = "0.1" if source == "carried float" else "3"
        return [f"c = {init}", "for k in range(tile.bid(0) - tile.bid(0)):", "    c = c + c", *lines]
    return lines


def scalar_cases() -> list[ScalarCase]:
    out = []
    for source, (s_expr, pdt, _) in SOURCES.items():
        for op, template in OPS.items():
            for literal, l_text in LITERALS.items():
                expr = template.replace("S", s_expr).replace("L", l_text)
                for use in USES:
                    odt = "f64" if _is_float(source, op, literal) or use == "index" else "i64"
                    body = _body(source, expr, use, odt)
                    text = (
                        _HEADER
                        + f"\n\n@tile.kernel\ndef generated(z: Partition[Any], x: Tensor[Any], p: {pdt}) -> None:\n"
                        + "".join(f"    {line}\n" for line in body)
                    )
                    out.append(ScalarCase(source, op, literal, use, odt, pdt, text))
    return out


def sample(cases: Sequence[ScalarCase], seed: int = 21) -> list[ScalarCase]:
    """One case per source x op (its literal and use picked deterministically), plus every source x literal
    under `*` and `/` stored by `tile.full`; every case when LONG."""
    if LONG:
        return list(cases)
    picked: dict[tuple[str, str], ScalarCase] = {}
    groups: dict[tuple[str, str], list[ScalarCase]] = {}
    for c in cases:
        groups.setdefault((c.source, c.op), []).append(c)
    for key, group in groups.items():
        h = int(hashlib.sha256(f"{seed}{key}".encode()).hexdigest(), 16)
        picked[key] = group[h % len(group)]
    extra = [c for c in cases if c.op in ("*", "/") and c.use == "full"]
    out = list(picked.values())
    seen = {c.name for c in out}
    out += [c for c in extra if c.name not in seen]
    return out


def coverage(cases: Sequence[ScalarCase]) -> dict[str, int]:
    return {
        "kernels": len(cases),
        "sources": len({c.source for c in cases}),
        "ops": len({c.op for c in cases}),
        "literals": len({c.literal for c in cases}),
        "uses": len({c.use for c in cases}),
    }


# -- the oracle: LLVM folds the GPU's IR ------------------------------------------------------------------------
_SREG = re.compile(
    r'(?:tail )?call (?:range\(i32 \d+, \d+\) )?i32 @"?llvm\.nvvm\.read\.ptx\.sreg\.(tid|ctaid)\.x"?\(\)'
)
_STORE = re.compile(r"store (<\d+ x \w+>|\w+) (.+?), ptr")


def _constant(ty: str, value: int | float) -> str:
    if ty in ("float", "double"):
        return f"{ty} 0x{struct.unpack('>Q', struct.pack('>d', float(value)))[0]:016X}"
    bits = int(ty[1:])
    v = int(value) & ((1 << bits) - 1)
    return f"{ty} {v - (1 << bits) if v >> (bits - 1) else v}"


def folded_gpu_value(llvm_ir: str, name: str, abi: list[tuple[str, int, int]], case: ScalarCase) -> float | int:
    """What block 1, thread 0 of the kernel stores first, folded by LLVM from the GPU IR with the case's values."""
    from llvmlite import binding as llvm

    from safekernels.codegen.ptx import target_machine

    text = _SREG.sub(lambda m: f"add i32 0, {1 if m.group(1) == 'ctaid' else 0}", llvm_ir)
    text = text.replace(f'define void @"{name}"', f'define internal void @"{name}"')
    # a plain function, not a kernel: NVPTX gives kernels a calling convention a call may not use
    text = "\n".join(
        line
        for line in text.splitlines()
        if "nvvm.annotations" not in line and '!"kernel"' not in line and '!"maxntidx"' not in line
    )
    pty = {"f32": "float", "f64": "double"}.get(case.param_dtype, f"i{int(case.param_dtype[1:])}")
    args = []
    for kind, param, _axis in abi:
        if kind == "ptr":
            args.append(f"ptr addrspace(1) @__oracle_{param}")
        elif kind == "dim":
            args.append(f"i64 {SHAPE}")
        elif kind == "grid":
            args.append(f"i64 {SHAPE // TILE}")
        else:
            args.append(_constant(pty, case.param_value))
    text += "".join(f"\n@__oracle_{i} = addrspace(1) global [{SHAPE} x i64] zeroinitializer" for i in (0, 1))
    text += f'\ndefine void @__oracle() {{\n  call void @"{name}"({", ".join(args)})\n  ret void\n}}\n'
    module = llvm.parse_assembly(text)
    module.verify()
    tm = target_machine("sm_90")
    pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=3))
    pb.getModulePassManager().run(module, pb)
    folded = str(module)
    body = folded[folded.index("@__oracle()") :]
    for m in _STORE.finditer(body):
        ty, value = m.group(1), m.group(2).strip()
        if ty.startswith("<"):
            inner = value.removeprefix("splat (").removeprefix("<").split(",")[0].strip()
            if value == "zeroinitializer":
                return 0
            ety, _, value = inner.partition(" ")
            ty = ety
        if value.startswith("%"):
            raise AssertionError(f"LLVM did not fold the stored value\n{body[:3000]}")
        return _parse(ty, value.rstrip(")"))
    if "llvm.memset" in body and ", i8 0," in body:
        return 0
    raise AssertionError(f"no store in the folded IR\n{body[:3000]}")


def _parse(ty: str, text: str) -> float | int:
    if ty in ("float", "double"):
        if text.startswith("0x"):
            return float(struct.unpack(">d", bytes.fromhex(text[2:].rjust(16, "0")))[0])
        return float(text)
    if text in ("true", "false"):
        return int(text == "true")
    return int(text)


def gpu_ir(case: ScalarCase, kernel: Any) -> tuple[str, str, list[tuple[str, int, int]]]:
    """(the lowered LLVM IR, the entry's name, its ABI) for sm_90a: the GPU compiler's front end, IR rewrites
    and lowering (raises the SK refusal as the compiler does)."""
    from safekernels.codegen.tile.diagnostics import tile_error
    from safekernels.codegen.tile.frontend import build_tile_ir
    from safekernels.codegen.tile.lower import LoweringError, lower_tile_kernel
    from safekernels.codegen.tile.pipeline import choose_num_warps
    from safekernels.codegen.tile.rewrites import rewrite_tile_ir

    kir = build_tile_ir(kernel.fn, infos(case, kernel), 1, arch="sm_90a")
    rewrite_tile_ir(kir, fast_math=False)
    try:
        lowered = lower_tile_kernel(kir, choose_num_warps(kir, "sm_90a"), "sm_90a")
    except LoweringError as exc:
        from safekernels.codegen.frontend.source import load_source

        raise tile_error("SK004", str(exc), load_source(kernel.fn), None) from None
    return lowered.llvm_ir, kir.name, lowered.abi


def infos(case: ScalarCase, kernel: Any) -> list[Any]:
    from safekernels.codegen.tile.specialize import param_info
    from safekernels.dtypes import dtype_of

    return [
        param_info("z", "partition", dtype_of(case.out_dtype), (SHAPE,), (TILE,)),
        param_info("x", "tensor", dtype_of("f64"), (SHAPE,)),
        param_info("p", "scalar", dtype_of(case.param_dtype)),
    ]


def launch_args(case: ScalarCase, device: Any) -> tuple[Any, ...]:
    from safekernels import tile
    from safekernels.dtypes import dtype_of

    dt = dtype_of(case.param_dtype)
    value = dt.storage.type(case.param_value)
    z = tile.zeros((SHAPE,), dtype_of(case.out_dtype), device=device).partition((TILE,))
    x = tile.from_numpy(np.arange(SHAPE, dtype=np.float64) * 0.5 - 3.0, device=device)
    return z, x, value


def load(case: ScalarCase) -> Any:
    """The generated kernel object (one module file per case, named by its content)."""
    return load_generated(case.text, "gen")


def run(case: ScalarCase, device: Any) -> Any:
    """The case launched on `device`: a `language_runner.Outcome` (accept with the output, trap, or reject)."""
    from language_runner import Outcome, _refusal

    from safekernels.errors import KernelTrapError

    try:
        kernel = load(case)
        stream = device.new_stream()
        z, *_ = kernel(*launch_args(case, device)).sync_on(stream)
    except KernelTrapError as exc:
        return Outcome("trap", detail=str(exc).splitlines()[0])
    except Exception as exc:  # a refusal; anything else propagates from _refusal
        return _refusal(exc)
    return Outcome("accept", values=[z.unpartition().to_numpy(stream)])
