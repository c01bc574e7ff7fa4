"""Hopper GEMM operands by the bulk tensor copy engine (TMA): `cp.async.bulk.tensor` completing on `mbarrier`s.

Taken by a warpgroup-MMA main loop (`codegen.tile.wgmma`) whose two operand loads read aligned rank-2 tensors
(16-byte base address and row pitch, what TMA requires) with at most 256 rows per tile; every other matmul
loop keeps the `cp.async` path.  The shared-memory layout is exactly the wgmma one: an operand of `rows`
lines is `cols_bytes / 128` column blocks of `rows x 128` bytes, 1024-byte aligned, and the tensor map's
`CU_TENSOR_MAP_SWIZZLE_128B` writes the 16-byte chunk `c` of line `r` at chunk `c ^ (r % 8)`, the layout
the wgmma descriptors already read.  One box per column block: `(128 / elem_bytes) x rows` elements.
Out-of-bounds boxes are zero-filled by the copy engine, so ragged M, N and K need no masking.

Tensor maps: one per operand load, built by the runtime with `cuTensorMapEncodeTiled` from the tensor's
address and extents at launch, and passed by value as a 128-byte, 64-byte aligned kernel parameter marked
`nvvm.grid_constant` (CUDA's `const __grid_constant__ CUtensorMap`), so the kernel reads it in parameter
space through a generic address (`cvta.param`) with no copy.  ABI entry: `("tmap:ROWS:COLS", param, 0)`
(box rows, box columns in elements); these parameters follow the grid extents.

Pipeline (per loop, `S` stages, prefetch distance `S - 2` like the cp.async wgmma path): thread 0 initializes
one `full` barrier per stage (arrival count 1).  Issuing iteration `j` (prologue, then one refill per
iteration) is thread 0 alone: `mbarrier.arrive.expect_tx` with the stage's byte count, then the boxes;
iterations past the loop's end issue nothing, so no copy is in flight when the CTA leaves the loop.
Iteration `it` waits on barrier `it % S` with parity `(it / S) & 1`, then the CTA barrier that already
guards the refill of the stage read by iteration `it - 2`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import ForOp, Op
from safekernels.codegen.tile.layout import c64

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
MAP_BYTES = 128
MAX_BOX_ROWS = 256
ELEM_BYTES = {"f16": 2, "bf16": 2, "f8e4m3": 1, "f8e5m2": 1}
ENABLED = True  # False: every wgmma loop takes the cp.async path (tests compare the two)


@dataclass
class TmaOperand:
    """One operand load fed by the copy engine (or one store drained by it): its tensor map parameter and box
    geometry."""

    load: Op  # the load (or the `store`, codegen.tile.tma_store) whose parameter the map describes
    rows: int  # box rows = the tile's rows
    box_cols: int  # elements per 128-byte line
    blocks: int  # 128-byte column blocks of the tile
    arg: ir.Value | None = None

    @property
    def nbytes(self) -> int:
        return self.rows * 128 * self.blocks


def _operand(L: TileLowering, load: Op) -> TmaOperand | None:
    p = L.kir.params[load.attrs["param"]]
    es = ELEM_BYTES.get(p.dtype.name)
    if es is None or p.rank != 2 or not p.aligned or p.kind == "scalar":
        return None
    rows, cols = load.attrs["tile_shape"]
    if rows > MAX_BOX_ROWS or rows % 8 or (cols * es) % 128:
        return None
    return TmaOperand(load, rows, 128 // es, cols * es // 128)


def plan(L: TileLowering) -> None:
    """Choose the wgmma main loops whose operands come by TMA (`L.tma`: id(load op) -> TmaOperand)."""
    from safekernels.codegen.tile import mma

    if not ENABLED:
        return

    def walk(ops: list[Op]) -> None:
        for op in ops:
            if isinstance(op, ForOp):
                found = mma.pipelined_matmul(L, op)
                if found is not None and id(found[0]) in L.wgmma_ops:
                    operands = [_operand(L, found[1]), _operand(L, found[2])]
                    if all(o is not None for o in operands):
                        for o in operands:
                            assert o is not None
                            L.tma[id(o.load)] = o
                        if warpspec.eligible(L, op):
                            L.ws_loops.add(id(op))
                            L.ws_extra = warpspec.PRODUCER_THREADS
                walk(op.body)

    from safekernels.codegen.tile import warpspec

    walk(L.kir.body)


def _maps(L: TileLowering) -> list[TmaOperand]:
    """Every tensor map of the kernel: the operand loads', then the TMA stores' (codegen.tile.tma_store)."""
    return [*L.tma.values(), *L.tma_stores.values()]


def add_params(L: TileLowering, argtys: list[ir.Type]) -> None:
    """Append one by-value tensor-map parameter per TMA operand and store (after the grid extents)."""
    for o in _maps(L):
        argtys.append(ir.PointerType(so.I8))
        L.abi.append((f"tmap:{o.rows}:{o.box_cols}", int(o.load.attrs["param"]), 0))


def bind_params(L: TileLowering, args: list[ir.Value]) -> None:
    for o, a in zip(_maps(L), args, strict=True):
        a.name = f"tmap.{len(L.tma_names)}"
        L.tma_names.append(a.name)
        o.arg = a


def fix_text(L: TileLowering, text: str) -> str:
    """llvmlite cannot spell `byval(<ty>)` or string parameter attributes: add them in the module text."""
    for name in L.tma_names:
        for spelled in (f'ptr %"{name}"', f'i8* %"{name}"'):
            text = text.replace(
                spelled, f'{spelled.split(" ")[0]} byval([{MAP_BYTES} x i8]) align 64 "nvvm.grid_constant" %"{name}"', 1
            )
    return text


def uses_tma(L: TileLowering, loads: tuple[Op, Op]) -> bool:
    return all(id(ld) in L.tma for ld in loads)


def _asm(L: TileLowering, text: str, cons: str, args: list[ir.Value], ret: ir.Type | None = None) -> Any:
    fty = ir.FunctionType(ret or ir.VoidType(), [a.type for a in args])
    return L.b.call(ir.InlineAsm(fty, text, cons, side_effect=True), args)


def init_barriers(L: TileLowering, stages: int, count: int = 1, when: ir.Value | None = None) -> ir.Value:
    """`stages` mbarriers (8 bytes each) expecting `count` arrivals, initialized by thread 0 (only `when`, if
    given) and fenced; the caller's CTA barrier follows."""
    bars = L.alloc(8 * stages, 8)
    go = L.b.icmp_unsigned("==", L.tid, c64(0))
    with L.b.if_then(go if when is None else L.b.and_(go, when)):
        for s in range(stages):
            bar = L.b.gep(bars, [c64(8 * s)])
            _asm(L, f"mbarrier.init.shared::cta.b64 [$0], {count};", "r,~{memory}", [bar])
        _asm(L, "fence.mbarrier_init.release.cluster;", "~{memory}", [])
    return bars


def _bar(L: TileLowering, bars: ir.Value, stage: ir.Value) -> ir.Value:
    return L.b.gep(bars, [L.b.mul(stage, c64(8))])


def issue(
    L: TileLowering,
    loads: tuple[Op, Op],
    origins: list[list[ir.Value]],
    bases: tuple[ir.Value, ir.Value],
    bars: ir.Value,
    stage: ir.Value,
    live: ir.Value,
    leader: int = 0,
) -> None:
    """Thread `leader`, when `live` (the iteration is inside the loop): expect the stage's bytes, copy its
    boxes."""
    b = L.b
    ops = [L.tma[id(ld)] for ld in loads]
    total = sum(o.nbytes for o in ops)
    go = b.and_(b.icmp_unsigned("==", L.tid, c64(leader)), live)
    with b.if_then(go):
        if L.tma_stores:  # the stage may still be read by an epilogue's TMA store (codegen.tile.tma_store)
            _asm(L, "cp.async.bulk.wait_group.read 0;", "~{memory}", [])
        bar = _bar(L, bars, stage)
        _asm(L, f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], {total};", "r,~{memory}", [bar])
        for o, origin, base in zip(ops, origins, bases, strict=True):
            assert o.arg is not None
            tmap = b.ptrtoint(o.arg, I64)
            row = b.trunc(origin[0], I32)
            for blk in range(o.blocks):
                col = b.trunc(b.add(origin[1], c64(blk * o.box_cols)), I32)
                dst = b.gep(base, [c64(blk * o.rows * 128)])
                _asm(
                    L,
                    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
                    "[$0], [$1, {$2, $3}], [$4];",
                    "r,l,r,r,r,~{memory}",
                    [dst, tmap, col, row, bar],
                )


def wait(L: TileLowering, bars: ir.Value, stages: int, it: ir.Value, flip: bool = False) -> None:
    """Every thread waits until iteration `it`'s stage has landed (phase parity `(it / S) & 1`; `flip`: the
    other parity, a producer waiting for the release of the stage's previous use, which a fresh barrier
    reports as complete)."""
    b = L.b
    stage = b.urem(it, c64(stages))
    parity = b.trunc(b.and_(b.udiv(it, c64(stages)), c64(1)), I32)
    if flip:
        parity = b.xor(parity, ir.Constant(I32, 1))
    _asm(
        L,
        "{ .reg .pred p; TMA_WAIT${:uid}: mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1; "
        "@!p bra TMA_WAIT${:uid}; }",
        "r,r,~{memory}",
        [_bar(L, bars, stage), parity],
    )
