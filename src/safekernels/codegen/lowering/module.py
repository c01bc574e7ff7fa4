"""Typed IR module -> LLVM module text for `nvptx64-nvidia-cuda`.

The kernel ABI is what the runtime's parameter plan packs (see `codegen.param_plan`): each buffer parameter is
two LLVM parameters, `ptr addrspace(1)` then its `i64` length; a scalar is one parameter of its storage type
(bool as i8).  Because the checker (and the launcher's overlap check) rule out aliasing, every buffer pointer
is `noalias`, and `Slice` pointers are also `readonly`, which lets the NVPTX backend use `ld.global.nc`.  An
exact contract block becomes `reqntid` annotations (`.reqntid` in the PTX).  Helpers are internal and
`convergent` (like clang's CUDA mode), so calls that may reach `sync_threads` or a shuffle are never made
control-dependent by the optimizer.  With `LoweringOptions.assumptions` (the variant for launches that checked
the contract's `requires`), each relation is an `llvm.assume` at kernel entry (`lowering.assumptions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from llvmlite import ir

from safekernels.codegen.frontend.spec import RequiresSpec
from safekernels.codegen.ir import nodes as n
from safekernels.codegen.lowering.assumptions import emit_assumptions
from safekernels.codegen.lowering.coarsen import CoarsenedLowering, CoarsenPlan
from safekernels.codegen.lowering.function import FunctionLowering
from safekernels.codegen.lowering.line_info import LineInfo
from safekernels.codegen.lowering.llvm_types import (
    GLOBAL_PTR,
    I8,
    I64,
    SLICE,
    storage_type,
    value_type,
    widen_narrow_float,
)
from safekernels.dtypes import dtype_of

TRIPLE = "nvptx64-nvidia-cuda"
DATA_LAYOUT = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"


@dataclass(frozen=True)
class LoweringOptions:
    approx_math: bool = False
    have_libdevice: bool = True
    assumptions: tuple[RequiresSpec, ...] = ()  # `requires` relations checked before every launch of this variant
    line_info: bool = False  # DILocations -> `.loc` lines naming the Python source (lowering.line_info)
    coarsen: CoarsenPlan | None = None  # emit the coarsened second entry point too (lowering.coarsen)


def lower_module(mod: n.Module, options: LoweringOptions) -> str:
    """LLVM IR text of the kernel and its helpers (libdevice not yet linked)."""
    llmod = ir.Module(name=mod.kernel.name)
    llmod.triple = TRIPLE
    llmod.data_layout = DATA_LAYOUT
    line_info = LineInfo(llmod) if options.line_info else None

    shared: dict[str, ir.GlobalVariable] = {}
    for decl in mod.shared:
        arr = ir.ArrayType(storage_type(dtype_of(decl.elem)), decl.length)
        gv = ir.GlobalVariable(llmod, arr, decl.symbol, addrspace=3)
        gv.linkage = "internal"
        gv.initializer = ir.Constant(arr, ir.Undefined)
        gv.align = 16
        shared[decl.symbol] = gv

    helpers: dict[str, ir.Function] = {}
    for h in mod.helpers:
        ret = value_type(h.return_ty) if h.return_ty is not None else ir.VoidType()
        fn = ir.Function(llmod, ir.FunctionType(ret, [value_type(t) for _, t in h.params]), h.name)
        fn.linkage = "internal"
        fn.attributes.add("convergent")
        helpers[h.name] = fn

    kernel = _declare_kernel(llmod, mod)
    for h in mod.helpers:
        fn = helpers[h.name]
        FunctionLowering(
            llmod,
            h,
            fn,
            helpers,
            shared,
            approx_math=options.approx_math,
            have_libdevice=options.have_libdevice,
            asserts=mod.asserts,
            line_info=line_info,
        ).lower(list(fn.args))
    lowering = FunctionLowering(
        llmod,
        mod.kernel,
        kernel,
        helpers,
        shared,
        approx_math=options.approx_math,
        have_libdevice=options.have_libdevice,
        asserts=mod.asserts,
        line_info=line_info,
    )
    if options.assumptions:
        lengths = {name: kernel.args[_abi_index(mod, name) + 1] for name, kind, _ in mod.abi if kind != "scalar"}
        scalars = {name: kernel.args[_abi_index(mod, name)] for name, kind, _ in mod.abi if kind == "scalar"}
        emit_assumptions(lowering.b, options.assumptions, lengths, scalars)
    lowering.lower(_kernel_param_values(lowering, mod, kernel))
    _annotate(llmod, kernel, mod.block)
    if options.coarsen is not None:
        _lower_coarsened(llmod, mod, options, helpers, shared, line_info)
    text = str(llmod)
    # llvmlite's argument attributes lack `readonly`; add it to the Slice pointers in the kernel signatures.
    for name, kind, _ in mod.abi:
        if kind == "slice":
            for quoted in (f'%"{name}.ptr"', f"%{name}.ptr"):
                text = re.sub(rf"noalias {re.escape(quoted)}(?=[,)])", f"noalias readonly {quoted}", text)
    return text  # atomics carry their sync scope themselves (lowering.atomics)


def coarsened_entry_name(entry: str, factor: int) -> str:
    """The symbol of the coarsened entry point of kernel `entry` (`factor` logical threads per thread)."""
    return f"{entry}_x{factor}"


def _lower_coarsened(
    llmod: ir.Module,
    mod: n.Module,
    options: LoweringOptions,
    helpers: dict[str, ir.Function],
    shared: dict[str, ir.GlobalVariable],
    line_info: LineInfo | None,
) -> None:
    plan = options.coarsen
    assert plan is not None
    kernel = _declare_kernel(llmod, mod, coarsened_entry_name(mod.kernel.name, plan.factor))
    lowering = CoarsenedLowering(
        llmod,
        mod.kernel,
        kernel,
        helpers,
        shared,
        approx_math=options.approx_math,
        have_libdevice=options.have_libdevice,
        asserts=mod.asserts,
        line_info=line_info,
    )
    lowering.configure(plan)
    if options.assumptions:
        lengths = {name: kernel.args[_abi_index(mod, name) + 1] for name, kind, _ in mod.abi if kind != "scalar"}
        scalars = {name: kernel.args[_abi_index(mod, name)] for name, kind, _ in mod.abi if kind == "scalar"}
        emit_assumptions(lowering.b, options.assumptions, lengths, scalars)
    lowering.lower(_kernel_param_values(lowering, mod, kernel))
    _annotate(llmod, kernel, mod.block)


def _declare_kernel(llmod: ir.Module, mod: n.Module, name: str | None = None) -> ir.Function:
    arg_types: list[ir.Type] = []
    for _, kind, dt in mod.abi:
        if kind == "scalar":
            d = dtype_of(dt)
            arg_types.append(I8 if d.kind == "b" else storage_type(d))
        else:
            arg_types += [GLOBAL_PTR, I64]
    fn = ir.Function(llmod, ir.FunctionType(ir.VoidType(), arg_types), name or mod.kernel.name)
    fn.calling_convention = "ptx_kernel"
    i = 0
    for name, kind, _ in mod.abi:
        if kind == "scalar":
            fn.args[i].name = name
            i += 1
            continue
        ptr, length = fn.args[i], fn.args[i + 1]
        ptr.name, length.name = f"{name}.ptr", f"{name}.len"
        ptr.add_attribute("noalias")
        i += 2
    return fn


def _abi_index(mod: n.Module, name: str) -> int:
    """Position of parameter `name`'s first LLVM argument (a buffer is two: pointer, length)."""
    i = 0
    for pname, kind, _ in mod.abi:
        if pname == name:
            return i
        i += 1 if kind == "scalar" else 2
    raise KeyError(name)


def _kernel_param_values(lowering: FunctionLowering, mod: n.Module, fn: ir.Function) -> list[ir.Value]:
    b = lowering.b
    values: list[ir.Value] = []
    i = 0
    for (_, kind, dt), (_, ty) in zip(mod.abi, mod.kernel.params, strict=True):
        if kind == "scalar":
            raw = fn.args[i]
            d = dtype_of(dt)
            if d.kind == "b":
                values.append(b.icmp_unsigned("!=", raw, ir.Constant(I8, 0)))
            elif d.name in ("f16", "bf16"):
                values.append(widen_narrow_float(b, raw, d, value_type(ty)))
            else:
                values.append(raw)
            i += 1
            continue
        pair = b.insert_value(ir.Constant(SLICE, ir.Undefined), fn.args[i], 0)
        values.append(b.insert_value(pair, fn.args[i + 1], 1))
        i += 2
    return values


def _annotate(llmod: ir.Module, kernel: ir.Function, block: tuple[int, int, int] | None) -> None:
    i32 = ir.IntType(32)
    annotations = llmod.add_named_metadata("nvvm.annotations")
    annotations.add(llmod.add_metadata([kernel, "kernel", ir.Constant(i32, 1)]))
    if block is not None:
        for axis, value in zip("xyz", block, strict=True):
            annotations.add(llmod.add_metadata([kernel, f"reqntid{axis}", ir.Constant(i32, value)]))
