"""Run one generated case (`language_generator.Case`) on an executor or through the GPU compiler.

Every outcome is an `Outcome`: `accept` with the output values, `trap` (a `KernelTrapError`), or `reject` with
the SK code and the `path:line:col` it points at.  The parity rule is that the CPU executor and the GPU agree on
the outcome kind, on the code and location of a refusal, and on the values (exact, or within the case's bound).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from language_generator import Case, data, load

from safekernels.dtypes import dtype_of
from safekernels.errors import KernelTrapError

_LOCATED = re.compile(r"^(?P<where>.+?:\d+:\d+): (?P<code>SK\d{3})")


@dataclass
class Outcome:
    kind: str  # "accept" | "trap" | "reject"
    code: str = ""
    where: str = ""
    values: list[np.ndarray] = field(default_factory=list)
    detail: str = ""

    def same_verdict(self, other: Outcome) -> bool:
        return (self.kind, self.code, self.where) == (other.kind, other.code, other.where)

    def __str__(self) -> str:
        return f"{self.kind} {self.code} {self.where} {self.detail}".strip()


def _refusal(exc: BaseException) -> Outcome:
    from ownership_check.diagnostics import DiagnosticError

    if isinstance(exc, DiagnosticError):
        d = exc.diagnostics[0]
        m = _LOCATED.match(str(exc))
        return Outcome("reject", d.code, m.group("where") if m else "", detail=str(exc).splitlines()[0])
    raise exc


def run_tile(case: Case, device: Any, seed: int = 0) -> Outcome:
    """Launch the tile case on `device`; every tensor argument comes back (outputs first)."""
    from safekernels import tile

    try:
        kernel = load(case)
        stream = device.new_stream()
        args = []
        for i, (shape, tile_shape, dt_name) in enumerate(case.args):
            dt = dtype_of(dt_name)
            host = data(shape, dt, "x" if i == 1 else "y", seed) if i else np.zeros(shape, np.float32)
            if i == 0:
                op = tile.zeros(shape, dt, device=device)
            elif dt.is_float and (dt.storage.kind != "f" or dt.name == "bf16"):
                op = tile.from_numpy(host, dtype=dt, device=device)
            else:
                op = tile.from_numpy(host, device=device)
            args.append(op.partition(tile_shape) if tile_shape is not None else op)
        values = kernel(*args).sync_on(stream)
    except KernelTrapError as exc:
        return Outcome("trap", detail=str(exc).splitlines()[0])
    except Exception as exc:  # a refusal; anything else propagates from _refusal
        return _refusal(exc)
    out = []
    for (_, tile_shape, _), v in zip(case.args, values, strict=True):
        out.append(v.unpartition().to_numpy(stream) if tile_shape is not None else v.to_numpy(stream))
    return Outcome("accept", values=out[:1])


def compile_tile_case(case: Case, arch: str) -> Outcome:
    """Front end, lowering, PTX and nvJitLink assembly for `arch` (no GPU needed)."""
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import param_info

    kernel = load(case)
    infos = []
    for p, (shape, tile_shape, dt_name) in zip(kernel.params, case.args, strict=True):
        infos.append(param_info(p.name, p.kind, dtype_of(dt_name), shape, tile_shape))
    try:
        compiled = compile_tile(kernel.fn, infos, case.grid_rank, arch=arch, num_warps=kernel.num_warps)
    except Exception as exc:
        return _refusal(exc)
    assert compiled.cubin, f"nvJitLink returned no cubin for {case.name} on {arch}"
    return Outcome("accept", detail=compiled.ptx)


def run_simt(case: Case, device: Any, seed: int = 0) -> Outcome:
    import safekernels as sk
    from safekernels import simt

    n, block = case.args
    dt = dtype_of(case.dtype)
    try:
        kernel = load(case)
        stream = device.new_stream()
        bufs = []
        for role in ("x", "y"):
            host = data((n,), dt, role, seed)
            bufs.append(sk.to_device(host, stream, dtype=dt) if dt.name == "bf16" else sk.to_device(host, stream))
        out = sk.zeros(n, dt, stream)
        prepared = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=block), device)
        kernel.launch(prepared, stream, *bufs, out)
        values = [out.to_numpy(stream)]
    except KernelTrapError as exc:
        return Outcome("trap", detail=str(exc).splitlines()[0])
    except Exception as exc:
        return _refusal(exc)
    return Outcome("accept", values=values)


def compile_simt_case(case: Case, arch: str) -> Outcome:
    from safekernels.codegen.pipeline import compile_simt_kernel

    try:
        compiled = compile_simt_kernel(load(case), arch=arch)
    except Exception as exc:
        return _refusal(exc)
    assert compiled.cubin, f"nvJitLink returned no cubin for {case.name} on {arch}"
    return Outcome("accept", detail=compiled.ptx)


def _ulp(dt_name: str) -> float:
    return {"f16": 2.0**-10, "bf16": 2.0**-7, "f8e4m3": 2.0**-3, "f8e5m2": 2.0**-2, "f64": 2.0**-52}.get(
        dt_name, 2.0**-23
    )


def assert_values_agree(case: Case, got: Outcome, want: Outcome) -> None:
    """`got` (GPU) against `want` (CPU executor) by the case's comparison rule."""
    for g, w in zip(got.values, want.values, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype, (case.name, g.dtype, w.dtype)
        result_dt = case.args[0][2] if case.track == "tile" else case.dtype
        exact_bits = g.dtype.kind in "iub" and result_dt not in ("bf16", "f8e4m3", "f8e5m2")
        if case.compare == "exact" or exact_bits:
            np.testing.assert_array_equal(g, w, err_msg=f"{case.name}\n{case.source}")
            continue
        if g.dtype.kind in "iu":  # bit patterns of bf16/fp8: compare as values
            from safekernels.dtypes import to_f32

            g, w = to_f32(g, dtype_of(result_dt)), to_f32(w, dtype_of(result_dt))
        rule, _, amount = case.compare.partition(":")
        gv, wv = g.astype(np.float64), w.astype(np.float64)
        eps = _ulp(result_dt)
        if rule == "ulp":
            tol = float(amount) * eps * np.maximum(np.abs(wv), np.finfo(np.float32).tiny)
        elif rule == "fp8sum":  # the warpgroup MMA's fp8 accumulation keeps about 14 significand bits
            tol = float(amount) * 2.0**-13 * np.maximum(np.abs(wv), 1.0)
        else:  # an N-term sum in another order: N roundings of the largest partial sum
            tol = float(amount) * max(eps, 2.0**-23) * np.maximum(np.abs(wv), 1.0) * 4
        both_nan = np.isnan(gv) & np.isnan(wv)
        ok = both_nan | (np.abs(gv - wv) <= tol) | (gv == wv)
        assert ok.all(), f"{case.name}: {int((~ok).sum())} values off\n got {gv[~ok][:5]}\nwant {wv[~ok][:5]}"
