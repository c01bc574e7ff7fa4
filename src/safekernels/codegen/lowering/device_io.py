"""Device `print` (`vprintf`) and `assert` (`__assertfail` + trap) in LLVM IR.

Both are CUDA system calls that ptxas resolves (nvJitLink hands them through), declared here by their PTX
ABI: `i32 vprintf(ptr format, ptr args)` and `void __assertfail(ptr msg, ptr file, i32 line, ptr func,
i64 char_size)`.  Strings are module constants in the global address space, cast to generic pointers.

`vprintf`'s argument buffer is a stack struct of 8-byte slots (the front end widened every value to i64 or
f64, C's varargs promotion), so the layout is the one `printf` expects.

A failed assert must be identifiable on the host after the trap, when the CUDA context no longer answers: the
module exports `__sk_assert_slot`, a pointer the launcher sets to host-mapped pinned memory.  The first
failing thread writes `index + 1` there with a system-scope compare-and-swap, then its block and thread
coordinates, then fences; the host reads them after the launch fails and raises `KernelAssertionError` naming
the assert (see `safekernels.simt.device_assert`).  Without a slot (0) only the trap happens.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir

from safekernels.codegen.lowering import nvvm
from safekernels.codegen.lowering.llvm_types import I8, I32, I64

ASSERT_SLOT = "__sk_assert_slot"
GENERIC_PTR = ir.PointerType()
_GLOBAL_PTR = ir.PointerType(addrspace=1)


def string_constant(module: ir.Module, text: str, prefix: str) -> ir.GlobalVariable:
    """A NUL-terminated global constant holding `text` (deduplicated per module)."""
    data = bytearray(text.encode()) + b"\0"
    cache: dict[bytes, ir.GlobalVariable] = module.__dict__.setdefault("_sk_strings", {})
    existing = cache.get(bytes(data))
    if existing is not None:
        return existing
    arr = ir.ArrayType(I8, len(data))
    gv = ir.GlobalVariable(module, arr, f"{prefix}{len(cache)}", addrspace=1)
    gv.linkage = "internal"
    gv.global_constant = True
    gv.initializer = ir.Constant(arr, data)
    gv.align = 1
    cache[bytes(data)] = gv
    return gv


def _generic(b: ir.IRBuilder, gv: ir.GlobalVariable) -> ir.Value:
    return b.addrspacecast(gv, GENERIC_PTR)


def emit_print(b: ir.IRBuilder, alloca_builder: ir.IRBuilder, fmt: str, values: list[ir.Value]) -> None:
    """`vprintf(fmt, &{values...})`; `values` are i64 / double."""
    module = b.module
    vprintf = nvvm.declare(module, "vprintf", I32, [GENERIC_PTR, GENERIC_PTR])
    fmt_ptr = _generic(b, string_constant(module, fmt, "__sk_fmt"))
    if not values:
        b.call(vprintf, [fmt_ptr, ir.Constant(GENERIC_PTR, None)])
        return
    struct = ir.LiteralStructType([v.type for v in values])
    buf = alloca_builder.alloca(struct, name="printf.args")
    buf.align = 8
    for i, value in enumerate(values):
        slot = b.gep(buf, [ir.Constant(I32, 0), ir.Constant(I32, i)], inbounds=True)
        b.store(value, slot, align=8)
    b.call(vprintf, [fmt_ptr, b.addrspacecast(buf, GENERIC_PTR)])


def _assert_slot(module: ir.Module) -> ir.GlobalVariable:
    existing = module.globals.get(ASSERT_SLOT)
    if isinstance(existing, ir.GlobalVariable):
        return existing
    gv = ir.GlobalVariable(module, I64, ASSERT_SLOT, addrspace=1)
    gv.initializer = ir.Constant(I64, 0)
    gv.align = 8
    return gv


def emit_assert_failure(
    b: ir.IRBuilder, fn: ir.Function, index: int, message: str, path: str, line: int, function: str
) -> None:
    """At the current (failing) point: record assert `index` for the host, print CUDA's assert line, trap."""
    module = b.module
    raw = b.load(_assert_slot(module), align=8)
    record = fn.append_basic_block("assert.record")
    report = fn.append_basic_block("assert.report")
    b.cbranch(b.icmp_unsigned("!=", raw, ir.Constant(I64, 0)), record, report)
    b.position_at_end(record)
    slot = b.inttoptr(raw, GENERIC_PTR)
    won = b.extract_value(
        b.cmpxchg(slot, ir.Constant(I64, 0), ir.Constant(I64, index + 1), "monotonic", "monotonic"), 1
    )
    coords = fn.append_basic_block("assert.coords")
    b.cbranch(won, coords, report)
    b.position_at_end(coords)
    for i, reg in enumerate(("ctaid.x", "ctaid.y", "ctaid.z", "tid.x", "tid.y", "tid.z"), start=1):
        ptr = b.gep(slot, [ir.Constant(I64, i)], source_etype=I64)
        b.store(nvvm.sreg(b, reg), ptr, align=8)
    b.fence("seq_cst")
    b.branch(report)
    b.position_at_end(report)
    assertfail = nvvm.declare(module, "__assertfail", ir.VoidType(), [GENERIC_PTR, GENERIC_PTR, I32, GENERIC_PTR, I64])
    b.call(
        assertfail,
        [
            _generic(b, string_constant(module, message or "assert", "__sk_str")),
            _generic(b, string_constant(module, path, "__sk_str")),
            ir.Constant(I32, line),
            _generic(b, string_constant(module, function, "__sk_str")),
            ir.Constant(I64, 1),
        ],
    )
    nvvm.trap(b)


def lower_tile_print(lowering: Any, op: Any) -> None:
    """A tile `print` op: thread 0 of the tile block calls `vprintf` with the widened scalars."""
    from safekernels.codegen.tile import scalar_ops as so
    from safekernels.dtypes import dtype_of

    b: ir.IRBuilder = lowering.b
    values: list[ir.Value] = []
    for arg, kind in zip(op.args, op.attrs["kinds"], strict=True):
        s = lowering.val(arg)
        src = dtype_of(s.dtype_name) if s.dtype_name is not None else dtype_of("i64")
        if kind == "int":
            dst = dtype_of("u64") if src.kind in ("u", "b") else dtype_of("i64")
        else:
            dst = dtype_of("f64")
        values.append(so.convert(b, s.value, src, dst))
    entry = ir.IRBuilder()
    entry.position_at_start(lowering.fn.entry_basic_block)
    with b.if_then(b.icmp_unsigned("==", lowering.tid, ir.Constant(I64, 0))):
        emit_print(b, entry, op.attrs["format"], values)


def lower_tile_assert(lowering: Any, op: Any) -> None:
    """A tile `assert` op: when the (block-uniform) condition is false, thread 0 records and reports the
    assert, then traps; the block's other threads leave the kernel (a trap of theirs could end the launch
    before thread 0 recorded which assert failed)."""
    b: ir.IRBuilder = lowering.b
    cond = lowering.val(op.args[0]).value
    if cond.type != ir.IntType(1):
        cond = b.icmp_unsigned("!=", cond, ir.Constant(cond.type, 0))
    fn = lowering.fn
    fail = fn.append_basic_block("assert.fail")
    report = fn.append_basic_block("assert.thread0")
    others = fn.append_basic_block("assert.others")
    ok = fn.append_basic_block("assert.ok")
    b.cbranch(cond, ok, fail)
    b.position_at_end(fail)
    b.cbranch(b.icmp_unsigned("==", lowering.tid, ir.Constant(I64, 0)), report, others)
    b.position_at_end(others)
    b.ret_void()
    b.position_at_end(report)
    a = op.attrs
    emit_assert_failure(b, fn, a["index"], a["message"], a["path"], a["line"], lowering.kir.name)
    b.position_at_end(ok)
