"""Tile IR -> LLVM IR for one CTA per tile block (see docs/tile-compiler.md for the whole picture).

The compiler picks the thread mapping: `T = num_warps * 32` threads per CTA, tiles in `Blocked` layouts
(16-byte vectors per thread, coalesced across the warp) except matmul accumulators (`Mma` layout).  Values
move between layouts through shared memory.  Shared memory is one dynamic arena (`@__sk_smem`), carved at
compile time; its size is returned with the module so the launch can ask for it.

Kernel ABI (also returned, for the launcher): per parameter in order, a Partition/Tensor is
`(ptr, dim_0, ..., dim_{r-1})` (i64 dims), a scalar is its value; then the grid extents `g_0 .. g_{k-1}`.
The CUDA grid is 1-D (`prod(grid)` CTAs); tile-block coordinates are recovered from `ctaid.x` (row-major,
grouped 8 rows at a time for matmul kernels so neighbouring CTAs share operand tiles in L2).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import INDEX, ForOp, Op, ScalarType, TileKernelIR, Value
from safekernels.codegen.tile.layout import Blocked, Layout, Mma, blocked_for, c64, mma_for
from safekernels.codegen.tile.values import FnTile, RegTile, Repr, Scalar, SmemTile, Tile
from safekernels.dtypes import DType, dtype_of
from safekernels.tile.ops import TileType

I1, I8, I32, I64 = so.I1, so.I8, so.I32, so.I64
GPTR = ir.PointerType(I8, addrspace=1)
SPTR = ir.PointerType(I8, addrspace=3)
SMEM_LIMIT = 227 * 1024
_SMEM_TOO_BIG = "the kernel needs"


class LoweringError(Exception):
    """A construct the GPU lowering does not support (reported as an SK diagnostic by the caller)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Lowered:
    llvm_ir: str
    entry: str
    threads: int
    smem_bytes: int
    abi: list[tuple[str, int, int]]  # ("ptr"|"dim"|"scalar"|"grid", param, axis)
    uses_wgmma: bool = False  # the module needs sm_90a
    persistent: bool = False  # CTAs loop over tile blocks: launch min(prod(grid), SMs) (codegen.tile.persistent)


@dataclass
class ParamRegs:
    ptr: ir.Value | None
    dims: list[ir.Value]
    scalar: ir.Value | None


class TileLowering:
    line_info: Any = None  # codegen.lowering.line_info.FunctionLines when `.loc` line info is on

    def __init__(self, kir: TileKernelIR, num_warps: int, arch: str = "sm_90", fast_math: bool = False) -> None:
        self.kir = kir
        self.fast_math = fast_math  # `@tile.kernel(fast_math=True)`: contraction, flushed libdevice math
        self.T = num_warps * 32
        self.hopper = arch == "sm_90a"  # warpgroup MMA available (codegen.tile.wgmma)
        self.arch = arch
        self.module = ir.Module(name=kir.name)
        self.module.triple = "nvptx64-nvidia-cuda"
        self.module.data_layout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
        self.smem_top = 0
        self.abi: list[tuple[str, int, int]] = []
        self.vals: dict[int, Repr] = {}
        self.defs: dict[int, Op] = {}
        self.uses: dict[int, list[Op]] = {}
        self.deferred: dict[int, Op] = {}  # load ops lowered by their matmul (cp.async into shared memory)
        self.active_pipes: dict[int, Any] = {}  # id(matmul op) -> its operands' pipeline in the running loop
        self.loop_state: list[tuple[Any, ir.Value, ir.Value, ir.Value, dict[int, Op]]] = []
        self._index(kir.body)
        self.deferred_candidates: dict[int, Op] = {
            vid: op for vid, op in self.defs.items() if op.kind == "load" and self._is_mma_operand(op)
        }
        self.transposed_operands: set[int] = set()  # `tile.transpose(load)` fed to a matmul as B, read K-major
        self.mnmajor_a: set[int] = set()  # `tile.transpose(load)` fed to a matmul as A, read MN-major (sm_90a)
        from safekernels.codegen.tile.mma import find_transposed_operands

        find_transposed_operands(self)
        self.wgmma_ops: set[int] = set()  # id() of matmul ops lowered to wgmma
        self.tma: dict[int, Any] = {}  # id(load op) -> codegen.tile.tma.TmaOperand (copy-engine operands)
        self.tma_names: list[str] = []
        self.ws_loops: set[int] = set()  # id() of loops split into producer / consumer warpgroups (warpspec)
        self.ws_extra = 0  # threads of the producer warpgroup, beyond the T the layouts use
        self.ws_barrier = False  # after the fork: CTA barriers are among the T consumers only
        self.wgmma_sync_ops: set[int] = set()  # id() of other matmuls lowered to wgmma (codegen.tile.wgmma_sync)
        self.wg_staged: dict[int, ir.Value] = {}  # id(load op) -> its wgmma-layout copy, staged before a loop
        self.wg_loops: list[Any] = []  # per open loop: its wgmma_sync.LoopOperands (or None)
        self.wg_tma_loops: set[int] = set()  # id() of loops whose wgmma_sync operands come by TMA
        self.wg_turn_held = False  # this warpgroup holds the pair ping-pong's turn (wgmma_sync.PAIR)
        self.persistent: Any = None  # codegen.tile.persistent.Persistent: one CTA per SM walks the tiles
        self.tma_stores: dict[int, Any] = {}  # id(store op) -> tma.TmaOperand: epilogues by TMA store
        self.tma_pipe: Any = None  # the TMA main loop's mma.Pipeline, once lowered (its stages stage stores)
        self.tma_store_issued = False
        if self.hopper:
            self._find_wgmma(kir.body)
            from safekernels.codegen.tile import wgmma_sync

            wgmma_sync.find(self, kir.body)
            from safekernels.codegen.tile import tma

            tma.plan(self)
            from safekernels.codegen.tile import persistent, tma_store

            tma_store.plan(self)

            persistent.plan(self)

    def _check_target_rules(self) -> None:
        """The front end refused kernels that break a target rule (`codegen.tile.target_rules`: fp8 needs sm_89,
        an fp8 matmul is a warpgroup main loop); checked again here for IR that did not come through it."""
        from safekernels.codegen.tile.target_rules import first_refusal

        refusal = first_refusal(self.kir, self.arch, self.T // 32)
        if refusal is not None:
            raise LoweringError(refusal.message, refusal.op.line if refusal.op is not None else 0)

    def _find_wgmma(self, ops: list[Op]) -> None:
        from safekernels.codegen.tile import mma, wgmma

        for op in ops:
            if isinstance(op, ForOp):
                found = mma.pipelined_matmul(self, op)
                if found is not None and wgmma.eligible(self, found[0]):
                    self.wgmma_ops.add(id(found[0]))
                self._find_wgmma(op.body)

    def _index(self, ops: list[Op]) -> None:
        from safekernels.codegen.tile.target_rules import index_ops

        index_ops(ops, self.defs, self.uses)

    # -- module scaffolding ---------------------------------------------------------------------------------
    def build(self) -> Lowered:
        self._check_target_rules()
        argtys: list[ir.Type] = []
        for i, p in enumerate(self.kir.params):
            if p.kind == "scalar":
                argtys.append(so.llty(p.dtype))
                self.abi.append(("scalar", i, 0))
            else:
                argtys.append(GPTR)
                self.abi.append(("ptr", i, 0))
                for ax in range(p.rank):
                    argtys.append(I64)
                    self.abi.append(("dim", i, ax))
        for ax in range(self.kir.grid_rank):
            argtys.append(I64)
            self.abi.append(("grid", -1, ax))
        from safekernels.codegen.tile import tma

        tma.add_params(self, argtys)  # by-value tensor maps of the copy-engine operands, after the grid
        fn = ir.Function(self.module, ir.FunctionType(ir.VoidType(), argtys), self.kir.name)
        self.fn = fn
        self.smem = ir.GlobalVariable(self.module, ir.ArrayType(I8, 0), "__sk_smem", addrspace=3)
        self.smem.linkage = "external"
        self.smem.align = 128
        entry = fn.append_basic_block("entry")
        self.b = ir.IRBuilder(entry)
        if self.line_info is not None:
            self.line_info.start(fn)
        args = list(fn.args)
        self.params: list[ParamRegs] = []
        k = 0
        for p in self.kir.params:
            if p.kind == "scalar":
                self.params.append(ParamRegs(None, [], args[k]))
                k += 1
            else:
                args[k].add_attribute("noalias")
                if p.kind == "tensor":
                    args[k].name = f"in.{p.name}"
                ptr = args[k]
                dims = args[k + 1 : k + 1 + p.rank]
                self.params.append(ParamRegs(ptr, dims, None))
                k += 1 + p.rank
        self.grid = args[k : k + self.kir.grid_rank]
        tma.bind_params(self, args[k + self.kir.grid_rank :])
        self.tid = self.sreg("tid.x")
        if self.persistent is not None:
            from safekernels.codegen.tile import persistent

            persistent.lower_kernel(self)
        else:
            self.bids = self.block_ids(self.sreg("ctaid.x"))
            self.lower_ops(self.kir.body)
        from safekernels.codegen.tile import tma_store

        tma_store.finish(self)
        self.b.ret_void()
        kernel_md = self.module.add_metadata([fn, "kernel", ir.Constant(I32, 1)])
        ntid_md = self.module.add_metadata([fn, "maxntidx", ir.Constant(I32, self.T + self.ws_extra)])
        self.module.add_named_metadata("nvvm.annotations", kernel_md)
        self.module.add_named_metadata("nvvm.annotations", ntid_md)
        if self.ws_extra:  # a register cap at entry, so that `setmaxnreg` takes effect
            self.module.add_named_metadata(
                "nvvm.annotations", self.module.add_metadata([fn, "minctasm", ir.Constant(I32, 1)])
            )
        if self.fast_math:  # libdevice's flush-to-zero paths (its `__nvvm_reflect("__CUDA_FTZ")`), see _fast_math
            flag = self.module.add_metadata([ir.Constant(I32, 4), "nvvm-reflect-ftz", ir.Constant(I32, 1)])
            self.module.add_named_metadata("llvm.module.flags", flag)
        if self.smem_top > SMEM_LIMIT:
            raise LoweringError(
                f"{_SMEM_TOO_BIG} {self.smem_top} bytes of shared memory (limit {SMEM_LIMIT}); "
                "use smaller tiles"
            )
        text = str(self.module)
        for p in self.kir.params:  # llvmlite lacks the `readonly` argument attribute: add it in the text
            if p.kind == "tensor":
                text = text.replace(f'noalias %"in.{p.name}"', f'noalias readonly %"in.{p.name}"', 1)
        text = tma.fix_text(self, text)
        if self.fast_math:
            text = _fast_math(text)
        threads = self.T + self.ws_extra
        hopper_only = bool(self.wgmma_ops or self.wgmma_sync_ops)
        return Lowered(
            text, self.kir.name, threads, self.smem_top, self.abi, hopper_only, self.persistent is not None
        )

    def sreg(self, name: str) -> ir.Value:
        b = self.b
        return b.zext(b.call(so.declare(self.module, f"llvm.nvvm.read.ptx.sreg.{name}", I32, []), []), I64)

    def block_ids(self, lin: ir.Value) -> list[ir.Value]:
        """Tile-block coordinates of linear block `lin` (row-major; grouped for matmul kernels).

        In 32 bits: a grid has fewer than 2^31 tile blocks (CUDA's grid limit, which the launcher keeps), and a
        64-bit division is a subroutine call to ptxas, which then serializes every wgmma of the kernel."""
        b = self.b
        g = [b.trunc(x, I32) for x in self.grid]
        if len(g) == 1:
            return [lin]
        lin32 = b.trunc(lin, I32)

        def c32(v: int) -> ir.Constant:
            return ir.Constant(I32, v)

        out: list[ir.Value]
        if len(g) == 2 and self.kir.uses_matmul:  # grouped order: 8 tile rows share B tiles in L2
            group = c32(8)
            rows = b.select(b.icmp_unsigned("<", g[0], group), g[0], group)
            per_group = b.mul(rows, g[1])  # min(8, g0) * g1 <= prod(grid): no overflow
            gid = b.udiv(lin32, per_group)
            first = b.mul(gid, group)
            left = b.sub(g[0], first)
            gsz = b.select(b.icmp_unsigned("<", left, group), left, group)
            within = b.urem(lin32, per_group)
            out = [b.add(first, b.urem(within, gsz)), b.udiv(within, gsz)]
        else:
            out = []
            rest = lin32
            for ax in range(len(g) - 1, 0, -1):
                out.append(b.urem(rest, g[ax]))
                rest = b.udiv(rest, g[ax])
            out.append(rest)
            out.reverse()
        return [b.zext(v, I64) for v in out]

    # -- shared memory --------------------------------------------------------------------------------------
    def alloc(self, nbytes: int, align: int = 16) -> ir.Value:
        off = -(-self.smem_top // align) * align
        self.smem_top = off + nbytes
        return (
            self.b.gep(self.b.bitcast(self.smem, SPTR), [ir.Constant(I32, off)])
            if off
            else self.b.bitcast(self.smem, SPTR)
        )

    def barrier(self) -> None:
        if self.wg_turn_held:  # the other warpgroup may be waiting for the turn: hand it over around the barrier
            from safekernels.codegen.tile import wgmma_sync

            wgmma_sync.turn_around_barrier(self)
            return
        if self.ws_barrier:
            from safekernels.codegen.tile.warpspec import named_barrier

            named_barrier(self)
            return
        fn = so.declare(self.module, "llvm.nvvm.barrier0", ir.VoidType(), [])
        self.b.call(fn, [])

    def sptr(self, base: ir.Value, elem_index: ir.Value, ty: ir.Type) -> ir.Value:
        p = self.b.bitcast(base, ir.PointerType(ty, addrspace=3))
        return self.b.gep(p, [elem_index])

    # -- walking ops ----------------------------------------------------------------------------------------
    def lower_ops(self, ops: list[Op]) -> None:
        for op in ops:
            if self.line_info is not None and op.line:
                self.b.debug_metadata = self.line_info.at(op.line)
            if op.kind == "load":
                self.check_tile_index(op)
            if op.result is not None and op.result.id in self.deferred_candidates:
                self.deferred[op.result.id] = self.deferred_candidates[op.result.id]  # the load (also for
                continue  # a transposed operand: its transpose is read from shared memory K-major)
            try:
                if isinstance(op, ForOp):
                    self.lower_for(op)
                else:
                    r = getattr(self, f"op_{op.kind}", None)
                    if r is None:
                        r = self.op_elementwise
                    out = r(op)
                    if op.result is not None:
                        self.vals[op.result.id] = out
            except LoweringError as exc:
                if not exc.line:
                    exc.line = op.line
                raise

    def check_tile_index(self, op: Op) -> None:
        """Trap unless every tile index of a load lies in `[0, num_tiles)` (the CPU executor's
        `KernelTrapError`).  Emitted where the load stands in the program, also for a load that a pipelined
        loop stages ahead, so only iterations that run are checked; an unsigned compare traps negatives too."""
        b = self.b
        dims = self.params[op.attrs["param"]].dims
        bad: ir.Value | None = None
        for v, t, n in zip(op.args, op.attrs["tile_shape"], dims, strict=True):
            sv = self.val(v)
            assert isinstance(sv, Scalar)
            tiles = b.udiv(b.add(n, c64(t - 1)), c64(t))
            out = b.icmp_unsigned(">=", sv.value, tiles)
            bad = out if bad is None else b.or_(bad, out)
        if bad is None:
            return
        trap_bb = self.fn.append_basic_block("tile_index.trap")
        ok_bb = self.fn.append_basic_block("tile_index.ok")
        b.cbranch(bad, trap_bb, ok_bb)
        b.position_at_end(trap_bb)
        b.call(_llvm_trap(b.module), [])
        b.unreachable()
        b.position_at_end(ok_bb)

    def _is_mma_operand(self, op: Op) -> bool:
        """A load read only as matmul operands A or B (attention's Q may feed the scores of two matmuls: the
        first key block's before the loop and the next one's in it; sm_90a stages it once, see wgmma_sync)."""
        from safekernels.codegen.tile.target_rules import mma_operand

        return mma_operand(self.uses, self.kir.params, op)

    def val(self, v: Value) -> Repr:
        return self.vals[v.id]

    # scalars -----------------------------------------------------------------------------------------------
    def op_const(self, op: Op) -> Scalar:
        value = op.attrs["value"]
        assert op.result is not None and isinstance(op.result.type, ScalarType)
        dt = op.result.type.dtype
        if dt is None:
            return Scalar(c64(int(value)), None, value)
        return Scalar(so.const_of(value, dt), dt.name, value)

    def op_param(self, op: Op) -> Scalar:
        p = self.kir.params[op.attrs["index"]]
        v = self.params[op.attrs["index"]].scalar
        assert v is not None
        return Scalar(v, p.dtype.name)

    def op_bid(self, op: Op) -> Scalar:
        ax = op.attrs["axis"]
        return Scalar(self.bids[ax] if ax < len(self.bids) else c64(0), None)

    def op_num_blocks(self, op: Op) -> Scalar:
        ax = op.attrs["axis"]
        return Scalar(self.grid[ax] if ax < len(self.grid) else c64(1), None)

    def op_to_index(self, op: Op) -> Scalar:
        s = self.val(op.args[0])
        assert isinstance(s, Scalar)
        if s.const is not None:
            return Scalar(c64(int(s.const)), None, int(s.const))
        return Scalar(self.scalar_in(s, None), None)

    def op_scalar_cast(self, op: Op) -> Scalar:
        s = self.val(op.args[0])
        assert isinstance(s, Scalar)
        dt = op.attrs["dtype"]
        const = float(s.const) if s.const is not None and dt.is_float else None  # an int cast truncates: computed
        return Scalar(self.scalar_in(s, dt), dt.name, const)

    def op_tensor_dim(self, op: Op) -> Scalar:
        return Scalar(self.params[op.attrs["param"]].dims[op.attrs["axis"]], None)

    def op_num_tiles(self, op: Op) -> Scalar:
        n = self.params[op.attrs["param"]].dims[op.attrs["axis"]]
        t = op.attrs["tile"]
        return Scalar(self.b.udiv(self.b.add(n, c64(t - 1)), c64(t)), None)

    def scalar_in(self, s: Scalar, dt: DType | None) -> ir.Value:
        """Scalar `s` as a value of dtype `dt` (None: i64 index); literals convert exactly once."""
        if dt is None:
            if s.dtype_name is None:
                return s.value
            return so.convert(self.b, s.value, dtype_of(s.dtype_name), dtype_of("i64"))
        if s.const is not None:
            return so.const_of(s.const, dt)
        src = dtype_of(s.dtype_name) if s.dtype_name is not None else dtype_of("i64")
        return so.convert(self.b, s.value, src, dt)

    def op_scalar(self, op: Op) -> Scalar:
        if op.attrs["op"] in ("min", "max", "abs"):
            return self.scalar_extreme(op)
        a, c = self.val(op.args[0]), self.val(op.args[1])
        assert isinstance(a, Scalar) and isinstance(c, Scalar) and op.result is not None
        sym = op.attrs["op"]
        rt = op.result.type
        assert isinstance(rt, ScalarType)
        b = self.b
        if rt.dtype is None or (rt.dtype.kind in ("i", "u") and rt.dtype.name != "bool"):
            idt = rt.dtype
            x, y = self.scalar_in(a, idt), self.scalar_in(c, idt)
            name = _INT_SCALAR.get(sym)
            if name is None:
                raise LoweringError(f"scalar operator `{sym}` on integers is not supported")
            signed = idt is None or idt.kind == "i"
            r = (
                so.integer_binary(b, name, x, y, signed)
                if name in so.INTEGER_OPS
                else {"add": b.add, "sub": b.sub, "mul": b.mul}[name](x, y)
            )
            return Scalar(r, None if idt is None else idt.name)
        if rt.dtype.name == "bool":  # a comparison, in the operands' promoted type (the front end's `operand`)
            dt = op.attrs["operand"].dtype or dtype_of("i64")
            x, y = self.scalar_in(a, dt), self.scalar_in(c, dt)
            name = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}[sym]
            return Scalar(so.binary(b, name, x, y, dt), "bool")
        dt = rt.dtype
        x, y = self.scalar_in(a, dt), self.scalar_in(c, dt)
        fname = {"+": "add", "-": "sub", "*": "mul", "/": "truediv"}.get(sym)
        if fname is None:
            raise LoweringError(f"scalar operator `{sym}` on floats is not supported")
        return Scalar(so.binary(b, fname, x, y, dt), dt.name)

    def scalar_extreme(self, op: Op) -> Scalar:
        """Python's `min`/`max` of two scalars, `abs` of one, in the result type (scalar_ops.first_extreme)."""
        assert op.result is not None and isinstance(op.result.type, ScalarType)
        dt = op.result.type.dtype
        xs = [self.scalar_in(s, dt) for s in (self.val(a) for a in op.args) if isinstance(s, Scalar)]
        kind = dt if dt is not None else dtype_of("i64")
        sym = op.attrs["op"]
        r = so.scalar_abs(self.b, xs[0], kind) if sym == "abs" else so.first_extreme(self.b, sym, xs[0], xs[1], kind)
        return Scalar(r, None if dt is None else dt.name)

    # tile creation -----------------------------------------------------------------------------------------
    def op_full(self, op: Op) -> FnTile:
        assert op.result is not None and isinstance(op.result.type, TileType)
        c = so.const_of(op.attrs["value"], op.result.type.dtype)
        return FnTile(op.result.type, lambda b, coords: c)

    op_zeros = op_full

    def op_full_dyn(self, op: Op) -> FnTile:
        assert op.result is not None and isinstance(op.result.type, TileType)
        s = self.val(op.args[0])
        assert isinstance(s, Scalar)
        v = self.scalar_in(s, op.result.type.dtype)
        return FnTile(op.result.type, lambda b, coords: v)

    def op_iota(self, op: Op) -> FnTile:
        assert op.result is not None and isinstance(op.result.type, TileType)
        dt = op.result.type.dtype
        return FnTile(op.result.type, lambda b, coords: so.convert(b, coords[0], dtype_of("i64"), dt))

    # reading any tile at coordinates -----------------------------------------------------------------------
    def read(self, t: Repr, coords: list[ir.Value], target_shape: tuple[int, ...], dt: DType) -> ir.Value:
        """Element of operand `t` (broadcast against `target_shape`) at target `coords`, as dtype `dt`."""
        if isinstance(t, Scalar):
            return self.scalar_in(t, dt)
        shape = t.type.shape
        off = len(target_shape) - len(shape)
        own = [c64(0) if shape[i] == 1 else coords[off + i] for i in range(len(shape))]
        if isinstance(t, FnTile):
            v = t.fn(self.b, own)
        elif isinstance(t, SmemTile):
            idx: ir.Value = c64(0)
            for c, s in zip(own, t.strides, strict=True):
                if s:
                    idx = self.b.add(idx, self.b.mul(c, c64(s)))
            raw = self.b.load(self.sptr(t.base, idx, t.elem))
            v = self.b.trunc(raw, I1) if t.type.dtype.name == "bool" else raw
        else:
            raise AssertionError("read of a register tile needs to_smem first")
        return v if t.type.dtype == dt else so.convert(self.b, v, t.type.dtype, dt)

    def addressable(self, t: Repr, pad: bool = False) -> Repr:
        return self.to_smem(t, pad) if isinstance(t, RegTile) else t

    def to_smem(self, t: RegTile, pad: bool = False) -> SmemTile:
        """Write a register tile to shared memory (row-major; `pad` adds one element per row)."""
        shape = t.type.shape
        dt = t.type.dtype
        elem = so.storage_ty(dt)
        itemsize = _nbytes(elem)
        row = (shape[-1] if shape else 1) + (1 if pad and len(shape) >= 2 else 0)
        strides = [1] * len(shape)
        if shape:
            strides[-1] = 1
            acc = row
            for ax in range(len(shape) - 2, -1, -1):
                strides[ax] = acc
                acc *= shape[ax]
            total = acc
        else:
            total = 1
        base = self.alloc(total * itemsize)
        self.barrier()
        self._store_groups(
            t, lambda coords: self._smem_index(coords, strides), base, elem, dt, vector=not pad
        )
        self.barrier()
        return SmemTile(t.type, base, tuple(strides), elem)

    def _smem_index(self, coords: list[ir.Value], strides: list[int]) -> ir.Value:
        idx: ir.Value = c64(0)
        for c, s in zip(coords, strides, strict=True):
            idx = self.b.add(idx, self.b.mul(c, c64(s)))
        return idx

    def _store_groups(
        self, t: RegTile, index_of: Any, base: ir.Value, elem: ir.Type, dt: DType, vector: bool
    ) -> None:
        b = self.b
        lay = t.layout
        w = lay.width
        for g in range(lay.groups):
            coords = lay.coords(b, self.tid, g)
            active = lay.active(b, self.tid, g)
            vals = [self._to_storage(v, dt) for v in t.vals[g * w : (g + 1) * w]]
            idx = index_of(coords)

            def emit(idx: ir.Value = idx, vals: list[ir.Value] = vals) -> None:
                if vector and w > 1:
                    vty = ir.VectorType(elem, w)
                    vec: ir.Value = ir.Constant(vty, None)
                    for j, v in enumerate(vals):
                        vec = b.insert_element(vec, v, ir.Constant(I32, j))
                    p = b.bitcast(self.sptr(base, idx, elem), ir.PointerType(vty, addrspace=3))
                    b.store(vec, p, align=min(16, w * _nbytes(elem)))
                else:
                    for j, v in enumerate(vals):
                        b.store(v, self.sptr(base, b.add(idx, c64(j)), elem))

            if active is None:
                emit()
            else:
                with b.if_then(active):
                    emit()

    def _to_storage(self, v: ir.Value, dt: DType) -> ir.Value:
        return self.b.zext(v, I8) if dt.name == "bool" else v

    def materialize(self, t: Repr, layout: Layout, ty: TileType) -> RegTile:
        """`t` (broadcast to `ty.shape`) as registers in `layout`."""
        if isinstance(t, RegTile):
            if t.layout == layout and t.type.shape == ty.shape:
                return (
                    t
                    if t.type.dtype == ty.dtype
                    else RegTile(ty, layout, [so.convert(self.b, v, t.type.dtype, ty.dtype) for v in t.vals])
                )
            if (
                isinstance(t.layout, Blocked)
                and isinstance(layout, Blocked)
                and t.layout.vec == layout.vec
                and t.layout.n == layout.n
                and t.type.dtype == ty.dtype
            ):  # same flat mapping: a rename
                return RegTile(ty, layout, t.vals)
            t = self.to_smem(t)
        return self._gather(t, layout, ty)

    def _gather(self, t: Repr, layout: Layout, ty: TileType) -> RegTile:
        b = self.b
        vals: list[ir.Value] = []
        w = layout.width
        last_bcast = (
            isinstance(t, Scalar)
            or not t.type.shape
            or (len(t.type.shape) < len(ty.shape) and False)
            or (not isinstance(t, Scalar) and t.type.shape[-1] == 1)
        )
        for g in range(layout.groups):
            coords = layout.coords(b, self.tid, g)
            if last_bcast:
                v = self.read(t, coords, ty.shape, ty.dtype)
                vals.extend([v] * w)
                continue
            for j in range(w):
                cj = [*coords[:-1], b.add(coords[-1], c64(j))] if j else coords
                vals.append(self.read(t, cj, ty.shape, ty.dtype))
        return RegTile(ty, layout, vals)

    def blocked(self, shape: tuple[int, ...]) -> Blocked:
        return blocked_for(shape, self.T)

    # elementwise -------------------------------------------------------------------------------------------
    def op_elementwise(self, op: Op) -> Tile:
        from safekernels.codegen.tile import rowreduce

        assert op.result is not None
        rt = op.result.type
        assert isinstance(rt, TileType)
        kind = op.kind
        operands = [self.val(a) for a in op.args]
        if kind == "astype":
            src_dt = op.args[0].type.dtype
            raw_dts: list[DType | None] = [src_dt]
        elif kind == "where":
            raw_dts = [dtype_of("bool"), rt.dtype, rt.dtype]
        else:
            raw_dts = [_operand_dtype(op) for _ in operands]
        in_dts: list[DType] = [d if d is not None else rt.dtype for d in raw_dts]
        if kind in ("broadcast_to", "reshape", "transpose"):
            return self.shape_op(op, operands[0], rt)
        layout: Layout | None = None
        for o in operands:
            if isinstance(o, RegTile) and o.type.shape == rt.shape:
                layout = o.layout
                break
        if layout is None and all(isinstance(o, FnTile | Scalar) for o in operands):

            def fn(b: ir.IRBuilder, coords: list[ir.Value]) -> ir.Value:
                xs = [self.read(o, coords, rt.shape, d) for o, d in zip(operands, in_dts, strict=True)]
                return self.apply(kind, xs, in_dts, rt.dtype, op)

            return FnTile(rt, fn)
        if layout is None:
            layout = self.blocked(rt.shape)
        regs: list[list[ir.Value]] = []
        for o, d in zip(operands, in_dts, strict=True):
            if isinstance(o, Scalar):
                v = self.scalar_in(o, d)
                regs.append([v] * layout.slots)
            elif isinstance(o, RegTile) and (rows := rowreduce.broadcast(o, layout, rt.shape)) is not None:
                regs.append(rows if o.type.dtype == d else [so.convert(self.b, v, o.type.dtype, d) for v in rows])
            else:
                src = (
                    o
                    if isinstance(o, RegTile)
                    and (
                        (o.type.shape == rt.shape and o.layout == layout)
                        or _strip1(o.type.shape) == _strip1(rt.shape)
                    )
                    else self.addressable(o)
                )
                m = self.materialize(src, layout, TileType(rt.shape, o.type.dtype))
                regs.append(
                    m.vals if o.type.dtype == d else [so.convert(self.b, v, o.type.dtype, d) for v in m.vals]
                )
        if kind in ("floordiv", "mod", "truediv") and in_dts[1].kind in "iu" and len(regs) == 2:
            regs[1] = self._divisor_in_idle_slots(layout, regs[1])
        out = [self.apply(kind, list(xs), in_dts, rt.dtype, op) for xs in zip(*regs, strict=True)]
        return RegTile(rt, layout, out)

    def _divisor_in_idle_slots(self, layout: Layout, divisors: list[ir.Value]) -> list[ir.Value]:
        """Divisor 1 in the slots of a partial layout that hold no element (a 16-element tile over 128
        threads): their values are not the tile's, and a 0 there must not trap."""
        w = layout.width
        out = list(divisors)
        for g in range(layout.groups):
            active = layout.active(self.b, self.tid, g)
            if active is None:
                continue
            for k in range(g * w, (g + 1) * w):
                out[k] = self.b.select(active, out[k], ir.Constant(out[k].type, 1))
        return out

    def apply(self, kind: str, xs: list[ir.Value], in_dts: list[DType], out_dt: DType, op: Op) -> ir.Value:
        b = self.b
        if kind == "astype":
            return so.convert(b, xs[0], in_dts[0], out_dt)
        if kind == "where":
            return b.select(xs[0], xs[1], xs[2])
        if kind == "truediv" and self.wgmma_sync_ops and in_dts[0].name == "f32" and out_dt.name == "f32":
            from safekernels.codegen.tile.wgmma_sync import divide_f32  # div.rn's subroutine call serializes wgmma

            return divide_f32(self, xs[0], xs[1])
        if kind in ("neg", "invert", "exp", "exp2", "log", "sqrt", "rsqrt", "tanh", "sin", "cos"):
            return so.unary(b, kind, xs[0], in_dts[0])
        if kind in so.INTEGER_OPS:
            return so.integer_binary(b, kind, xs[0], xs[1], in_dts[0].kind == "i")
        if kind in ("add", "sub", "mul", "truediv", "maximum", "minimum", "lt", "le", "gt", "ge", "eq", "ne"):
            return so.binary(b, kind, xs[0], xs[1], in_dts[0])
        raise LoweringError(f"tile op `{kind}` has no GPU lowering")

    # shape ops ---------------------------------------------------------------------------------------------
    def shape_op(self, op: Op, t: Repr, rt: TileType) -> Tile:
        if isinstance(t, Scalar):
            v = t
            return FnTile(rt, lambda b, coords: self.scalar_in(v, rt.dtype))
        if op.kind == "broadcast_to":
            if isinstance(t, FnTile):
                src = t
                return FnTile(rt, lambda b, coords: self.read(src, coords, rt.shape, rt.dtype))
            s = self.addressable(t)
            assert isinstance(s, SmemTile)
            off = len(rt.shape) - len(s.type.shape)
            strides = [0] * off + [
                0 if s.type.shape[i] == 1 else s.strides[i] for i in range(len(s.type.shape))
            ]
            return SmemTile(rt, s.base, tuple(strides), s.elem)
        if op.kind == "reshape":
            if isinstance(t, RegTile) and isinstance(t.layout, Blocked):
                lay = self.blocked(rt.shape)
                if lay.vec == t.layout.vec:
                    return RegTile(rt, lay, t.vals)
            if isinstance(t, FnTile):
                src_shape = t.type.shape
                f = t

                def fn(b: ir.IRBuilder, coords: list[ir.Value]) -> ir.Value:
                    flat = _flat(b, coords, rt.shape)
                    return f.fn(b, _unflat(b, flat, src_shape))

                return FnTile(rt, fn)
            s = self.addressable(t)
            assert isinstance(s, SmemTile)
            if list(s.strides) != _contig(s.type.shape):
                s = self.to_smem(self._gather(s, self.blocked(s.type.shape), s.type))
            return SmemTile(rt, s.base, tuple(_contig(rt.shape)), s.elem)
        # transpose
        if isinstance(t, FnTile):
            f2 = t
            return FnTile(rt, lambda b, coords: f2.fn(b, [coords[1], coords[0]]))
        s = self.to_smem(t, pad=True) if isinstance(t, RegTile) else t
        assert isinstance(s, SmemTile)
        return SmemTile(rt, s.base, (s.strides[1], s.strides[0]), s.elem)

    # memory ------------------------------------------------------------------------------------------------
    def origin(self, op: Op) -> list[ir.Value]:
        shape = op.attrs["tile_shape"]
        out = []
        for v, s in zip(op.args, shape, strict=True):
            sv = self.val(v)
            assert isinstance(sv, Scalar)
            out.append(self.b.mul(sv.value, c64(s)))
        return out

    def op_load(self, op: Op) -> RegTile:
        assert op.result is not None and isinstance(op.result.type, TileType)
        ty = op.result.type
        layout = self.blocked(ty.shape)
        p = self.kir.params[op.attrs["param"]]
        regs = self.params[op.attrs["param"]]
        origin = self.origin(op)
        b = self.b
        full = self.full_tile(origin, ty.shape, regs.dims)
        elem = so.storage_ty(p.dtype)
        strides = self.row_strides(regs.dims)
        w = layout.width
        vector = p.aligned
        # fast path: the whole tile is inside the tensor, no masks
        entry_bb = b.block
        fast_bb = b.append_basic_block("load.full")
        slow_bb = b.append_basic_block("load.edge")
        join_bb = b.append_basic_block("load.join")
        b.cbranch(full, fast_bb, slow_bb)
        results: dict[str, list[ir.Value]] = {}
        ends: dict[str, ir.Block] = {}
        for name, bb in (("fast", fast_bb), ("slow", slow_bb)):
            b.position_at_end(bb)
            vals: list[ir.Value] = []
            for g in range(layout.groups):
                coords = layout.coords(b, self.tid, g)
                gcoords = [b.add(o, c) for o, c in zip(origin, coords, strict=True)]
                active = layout.active(b, self.tid, g)
                off = self.offset(gcoords, strides)
                if name == "fast":
                    preds: list[ir.Value | None] = [active] * (1 if vector else w)
                else:
                    inb = self.in_bounds(gcoords[:-1], regs.dims[:-1])
                    if active is not None:
                        inb = b.and_(inb, active) if inb is not None else active
                    last = gcoords[-1]
                    if vector:
                        c_ok = b.icmp_unsigned("<", last, regs.dims[-1])
                        preds = [b.and_(inb, c_ok) if inb is not None else c_ok]
                    else:
                        preds = []
                        for j in range(w):
                            c_ok = b.icmp_unsigned("<", b.add(last, c64(j)), regs.dims[-1])
                            preds.append(b.and_(inb, c_ok) if inb is not None else c_ok)
                vals.extend(self.global_load(regs.ptr, off, elem, w, vector, preds, p.dtype))
            results[name] = vals
            ends[name] = b.block
            b.branch(join_bb)
        b.position_at_end(join_bb)
        out = []
        for fv, sv in zip(results["fast"], results["slow"], strict=True):
            phi = b.phi(fv.type)
            phi.add_incoming(fv, ends["fast"])
            phi.add_incoming(sv, ends["slow"])
            out.append(phi)
        _ = entry_bb
        return RegTile(ty, layout, out)

    def global_load(
        self,
        base: ir.Value,
        off: ir.Value,
        elem: ir.Type,
        w: int,
        vector: bool,
        preds: list[ir.Value | None],
        dt: DType,
    ) -> list[ir.Value]:
        b = self.b
        typed = b.bitcast(base, ir.PointerType(elem, addrspace=1))
        itemsize = dt.itemsize if dt.name != "bool" else 1
        zero = ir.Constant(elem, 0 if isinstance(elem, ir.IntType) else 0.0)
        out: list[ir.Value] = []
        if vector:
            pred = preds[0]
            safe = off if pred is None else b.select(pred, off, c64(0))
            vty = ir.VectorType(elem, w)
            p = b.bitcast(b.gep(typed, [safe]), ir.PointerType(vty, addrspace=1))
            vec = b.load(p, align=w * itemsize) if w > 1 else None
            for j in range(w):
                v = (
                    b.extract_element(vec, ir.Constant(I32, j))
                    if vec is not None
                    else b.load(b.gep(typed, [safe]))
                )
                out.append(v if pred is None else b.select(pred, v, zero))
        else:
            for j in range(w):
                pred = preds[j] if j < len(preds) else preds[0]
                o = b.add(off, c64(j))
                safe = o if pred is None else b.select(pred, o, c64(0))
                v = b.load(b.gep(typed, [safe]), align=itemsize)
                out.append(v if pred is None else b.select(pred, v, zero))
        if dt.name == "bool":
            out = [b.trunc(v, I1) for v in out]
        return out

    def full_tile(self, origin: list[ir.Value], shape: tuple[int, ...], dims: list[ir.Value]) -> ir.Value:
        b = self.b
        ok: ir.Value = ir.Constant(I1, 1)
        for o, s, n in zip(origin, shape, dims, strict=True):
            ok = b.and_(ok, b.icmp_unsigned("<=", b.add(o, c64(s)), n))
        return ok

    def in_bounds(self, coords: list[ir.Value], dims: list[ir.Value]) -> ir.Value | None:
        ok: ir.Value | None = None
        for c, n in zip(coords, dims, strict=True):
            x = self.b.icmp_unsigned("<", c, n)
            ok = x if ok is None else self.b.and_(ok, x)
        return ok

    def row_strides(self, dims: list[ir.Value]) -> list[ir.Value]:
        strides: list[ir.Value] = [c64(1)] * len(dims)
        for ax in range(len(dims) - 2, -1, -1):
            strides[ax] = self.b.mul(strides[ax + 1], dims[ax + 1])
        return strides

    def offset(self, coords: list[ir.Value], strides: list[ir.Value]) -> ir.Value:
        off: ir.Value = c64(0)
        for c, s in zip(coords, strides, strict=True):
            off = self.b.add(off, self.b.mul(c, s))
        return off

    def op_store(self, op: Op) -> None:
        pi = op.attrs["param"]
        p = self.kir.params[pi]
        regs = self.params[pi]
        assert p.tile_shape is not None
        t = self.val(op.args[0])
        ty = TileType(p.tile_shape, p.dtype)
        b = self.b
        origin = [b.mul(bid, c64(s)) for bid, s in zip(self.bids_for(len(ty.shape)), ty.shape, strict=True)]
        from safekernels.codegen.tile import tma_store

        if tma_store.store(self, op, t, origin):  # a GEMM epilogue: shared memory, then the copy engine
            return
        if not isinstance(t, RegTile):
            t = self.materialize(t, self.blocked(ty.shape), ty)
        elem = so.storage_ty(p.dtype)
        strides = self.row_strides(regs.dims)
        full = self.full_tile(origin, ty.shape, regs.dims)
        lay = t.layout
        w = lay.width
        vector = p.aligned and (w * p.dtype.itemsize) in (2, 4, 8, 16)
        with b.if_else(full) as (then, otherwise):
            for masked in (False, True):
                with otherwise if masked else then:
                    for g in range(lay.groups):
                        coords = lay.coords(b, self.tid, g)
                        gcoords = [b.add(o, c) for o, c in zip(origin, coords, strict=True)]
                        active = lay.active(b, self.tid, g)
                        off = self.offset(gcoords, strides)
                        vals = [self._to_storage(v, p.dtype) for v in t.vals[g * w : (g + 1) * w]]
                        if masked:
                            inb = self.in_bounds(gcoords[:-1], regs.dims[:-1])
                            if active is not None:
                                inb = b.and_(inb, active) if inb is not None else active
                        else:
                            inb = active
                        self.global_store(
                            regs.ptr,
                            off,
                            elem,
                            vals,
                            vector,
                            inb,
                            gcoords[-1] if masked else None,
                            regs.dims[-1],
                            p.dtype,
                        )

    def bids_for(self, rank: int) -> list[ir.Value]:
        return [self.bids[i] if i < len(self.bids) else c64(0) for i in range(rank)]

    def global_store(
        self,
        base: ir.Value,
        off: ir.Value,
        elem: ir.Type,
        vals: list[ir.Value],
        vector: bool,
        pred: ir.Value | None,
        last: ir.Value | None,
        n_last: ir.Value,
        dt: DType,
    ) -> None:
        b = self.b
        typed = b.bitcast(base, ir.PointerType(elem, addrspace=1))
        w = len(vals)
        itemsize = dt.itemsize if dt.name != "bool" else 1
        if vector and w > 1:
            cond = pred
            if last is not None:
                c_ok = b.icmp_unsigned("<", last, n_last)
                cond = c_ok if cond is None else b.and_(cond, c_ok)
            vty = ir.VectorType(elem, w)
            vec: ir.Value = ir.Constant(vty, None)
            for j, v in enumerate(vals):
                vec = b.insert_element(vec, v, ir.Constant(I32, j))
            p = b.bitcast(b.gep(typed, [off]), ir.PointerType(vty, addrspace=1))
            if cond is None:
                b.store(vec, p, align=w * itemsize)
            else:
                with b.if_then(cond):
                    b.store(vec, p, align=w * itemsize)
            return
        for j, v in enumerate(vals):
            cond = pred
            if last is not None:
                c_ok = b.icmp_unsigned("<", b.add(last, c64(j)), n_last)
                cond = c_ok if cond is None else b.and_(cond, c_ok)
            ptr = b.gep(typed, [b.add(off, c64(j))])
            if cond is None:
                b.store(v, ptr, align=itemsize)
            else:
                with b.if_then(cond):
                    b.store(v, ptr, align=itemsize)

    # reductions --------------------------------------------------------------------------------------------
    def reduce_generic(self, op: Op) -> Tile:
        from safekernels.codegen.tile import rowreduce
        from safekernels.codegen.tile.reduce import lower_reduce

        in_registers = rowreduce.lower(self, op)  # a row of a warp-owned matmul tile: quad shuffles
        return in_registers if in_registers is not None else lower_reduce(self, op)

    op_sum = reduce_generic
    op_max = reduce_generic
    op_min = reduce_generic

    # scans, arg-reductions, indexed memory ops -------------------------------------------------------------
    def op_scan(self, op: Op) -> Tile:
        from safekernels.codegen.tile.scan import lower_scan

        return lower_scan(self, op)

    def op_argmax(self, op: Op) -> Tile:
        from safekernels.codegen.tile.scan import lower_argreduce

        return lower_argreduce(self, op)

    op_argmin = op_argmax

    def op_gather(self, op: Op) -> Tile:
        from safekernels.codegen.tile.indexed import lower_gather

        return lower_gather(self, op)

    def op_scatter(self, op: Op) -> None:
        from safekernels.codegen.tile.indexed import lower_scatter

        lower_scatter(self, op)

    def op_atomic(self, op: Op) -> None:
        from safekernels.codegen.tile.indexed import lower_atomic

        lower_atomic(self, op)

    # device print / assert (codegen.lowering.device_io) ---------------------------------------------------
    def op_print(self, op: Op) -> None:
        from safekernels.codegen.lowering.device_io import lower_tile_print

        lower_tile_print(self, op)

    def op_assert(self, op: Op) -> None:
        from safekernels.codegen.lowering.device_io import lower_tile_assert

        lower_tile_assert(self, op)

    # matmul ------------------------------------------------------------------------------------------------
    def op_matmul(self, op: Op) -> RegTile:
        from safekernels.codegen.tile import fma_matmul, tf32_matmul
        from safekernels.codegen.tile.mma import lower_matmul

        if tf32_matmul.takes(self, op):  # f32 with input_precision="tf32": TF32 tensor cores
            return tf32_matmul.lower(self, op)
        if fma_matmul.takes(self, op):  # other f32/f64: exact FMA units (TF32-rounded inputs if opted in)
            return fma_matmul.lower(self, op)
        return lower_matmul(self, op)

    # loops -------------------------------------------------------------------------------------------------
    def op_copy(self, op: Op) -> Repr:
        """The identity: a `where` under a mask proved all-true (`codegen.tile.loop_split`)."""
        return self.val(op.args[0])

    def lower_for(self, op: ForOp) -> None:
        from safekernels.codegen.tile.loops import lower_for

        lower_for(self, op)


def _llvm_trap(module: ir.Module) -> ir.Function:
    existing = module.globals.get("llvm.trap")
    if isinstance(existing, ir.Function):
        return existing
    return ir.Function(module, ir.FunctionType(ir.VoidType(), []), "llvm.trap")


def _operand_dtype(op: Op) -> DType:
    for a in op.args:
        if isinstance(a.type, TileType):
            return a.type.dtype
    assert op.result is not None and isinstance(op.result.type, TileType)
    return op.result.type.dtype


_INT_SCALAR = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "//": "floordiv",
    "%": "mod",
    "&": "bitand",
    "|": "bitor",
    "^": "bitxor",
    "<<": "lshift",
    ">>": "rshift",
}


def _nbytes(ty: ir.Type) -> int:
    if isinstance(ty, ir.IntType):
        return max(1, int(ty.width) // 8)
    sizes: dict[type, int] = {ir.HalfType: 2, ir.FloatType: 4, ir.DoubleType: 8}
    return sizes[type(ty)]


def _strip1(shape: tuple[int, ...]) -> tuple[int, ...]:
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return shape[i:]


def _contig(shape: tuple[int, ...]) -> list[int]:
    strides = [1] * len(shape)
    for ax in range(len(shape) - 2, -1, -1):
        strides[ax] = strides[ax + 1] * shape[ax + 1]
    return strides


def _flat(b: ir.IRBuilder, coords: list[ir.Value], shape: tuple[int, ...]) -> ir.Value:
    f: ir.Value = c64(0)
    for c, s in zip(coords, _contig(shape), strict=True):
        f = b.add(f, b.mul(c, c64(s)))
    return f


def _unflat(b: ir.IRBuilder, f: ir.Value, shape: tuple[int, ...]) -> list[ir.Value]:
    out: list[ir.Value] = []
    for s in _contig(shape):
        out.append(b.udiv(f, c64(s)))
        f = b.urem(f, c64(s))
    return out


def _fast_math(text: str) -> str:
    """`@tile.kernel(fast_math=True)`, as nvcc's `--use_fast_math` and Triton's default FP fusion: every float
    add, subtract and multiply may contract into a fused multiply-add (one rounding instead of two), and
    libdevice takes its flush-to-zero paths (`nvvm-reflect-ftz`: `exp2` is one `ex2.approx.ftz.f32`, results
    below 2^-126 are 0).  The CPU executor keeps numpy's rounding, so results may differ in the last bits."""
    return re.sub(r"= (fadd|fsub|fmul) (float|double|<\d+ x (?:float|double)>) ", r"= \1 contract \2 ", text)


def lower_tile_kernel(
    kir: TileKernelIR, num_warps: int, arch: str = "sm_90", *, line_info: Any = None, fast_math: bool = False
) -> Lowered:
    """`line_info`: a `codegen.lowering.line_info.FunctionLines` for `.loc` lines, or None.

    A kernel too large in shared memory for plain sm_90 (the `mma.sync` lowering stages every matmul operand
    and the softmax in shared memory) that fits on sm_90a (warpgroup MMA: attention with 128-key blocks) is
    refused naming sm_90a, the target a launch on a Hopper GPU compiles for, as fp8 matmuls are."""
    lowering = TileLowering(kir, num_warps, arch, fast_math)
    lowering.line_info = line_info
    try:
        return lowering.build()
    except LoweringError as exc:
        if arch != "sm_90" or not str(exc).startswith(_SMEM_TOO_BIG):
            raise
        try:
            hopper = TileLowering(kir, num_warps, "sm_90a", fast_math).build()
        except LoweringError:
            raise exc from None
        raise LoweringError(
            f"{exc}; on sm_90a (warpgroup MMA) it needs {hopper.smem_bytes} bytes: it runs on sm_90a only",
            exc.line,
        ) from None


_ = (math, INDEX, Mma, mma_for)
