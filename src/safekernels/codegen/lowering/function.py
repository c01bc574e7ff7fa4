"""Lowering of one IR function (kernel or helper) to an LLVM function.

Locals live in entry-block allocas (mem2reg/SROA turn them into SSA values), structured control flow maps to
blocks, and every check the language promises is explicit here: `Slice` reads and atomics compare the index
against the length (unsigned, so negative indices fail too) and branch to the function's one trap block, which
calls `llvm.trap`.  `//` and `%` follow Python (floor) semantics; integer division by zero traps.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir

from safekernels.codegen.ir import nodes as n
from safekernels.codegen.ir.types import (
    BOOL,
    ElemMutTy,
    ScalarTy,
    SharedArrayTy,
    SliceTy,
    Ty,
    WeakTy,
    concrete,
)
from safekernels.codegen.lowering import nvvm
from safekernels.codegen.lowering.atomics import emit_cas, emit_rmw
from safekernels.codegen.lowering.device_io import emit_assert_failure, emit_print
from safekernels.codegen.lowering.line_info import LineInfo
from safekernels.codegen.lowering.llvm_types import (
    ELEM,
    F32,
    I1,
    I8,
    I32,
    I64,
    INDEX,
    round_to_narrow_float,
    storage_type,
    value_type,
    widen_narrow_float,
)
from safekernels.codegen.lowering.math_lowering import NeedsLibdevice, emit_math
from safekernels.dtypes import DType, dtype_of

_ICMP_SIGNED = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}


def _is_float(ty: Ty) -> bool:
    c = concrete(ty)
    return isinstance(c, ScalarTy) and c.is_float


def _is_signed(ty: Ty) -> bool:
    c = concrete(ty)
    return isinstance(c, ScalarTy) and c.dtype.kind == "i"


class FunctionLowering:
    def __init__(
        self,
        module: ir.Module,
        func: n.Function,
        llfunc: ir.Function,
        helpers: dict[str, ir.Function],
        shared: dict[str, ir.GlobalVariable],
        *,
        approx_math: bool,
        have_libdevice: bool,
        asserts: list[tuple[str, int, int, str]] | None = None,
        line_info: LineInfo | None = None,
    ) -> None:
        self.module = module
        self.asserts = asserts or []
        self.line_info = line_info
        self.func = func
        self.fn = llfunc
        self.helpers = helpers
        self.shared = shared
        self.approx = approx_math
        self.have_libdevice = have_libdevice
        entry = llfunc.append_basic_block("entry")
        self.alloca_builder = ir.IRBuilder(entry)
        body = llfunc.append_basic_block("body")
        self.b = ir.IRBuilder(body)
        self.slots: dict[str, ir.Value] = {}
        self.loops: list[tuple[ir.Block, ir.Block]] = []
        self.trap_block: ir.Block | None = None
        # where a kernel's `return` goes: None = `ret void`; a coarsened kernel runs the body once per logical
        # thread, so there `return` ends only the current one (lowering.coarsen)
        self.return_block: ir.Block | None = None
        self._entry = entry
        self._body = body
        self.scope = line_info.subprogram(llfunc, func.path, func.line) if line_info is not None else None
        if self.scope is not None and line_info is not None:
            self.alloca_builder.debug_metadata = line_info.location(func.line, 0, self.scope)

    # -- setup ----------------------------------------------------------------------------------------------
    def slot(self, name: str, ty: Ty) -> ir.Value:
        if name not in self.slots:
            self.slots[name] = self.alloca_builder.alloca(value_type(ty), name=name)
        return self.slots[name]

    def lower(self, param_values: list[ir.Value]) -> None:
        for (name, ty), value in zip(self.func.params, param_values, strict=True):
            self.b.store(value, self.slot(name, ty))
        for name, ty in self.func.locals.items():
            self.slot(name, ty)
        self.stmts(self.func.body)
        if not self.b.block.is_terminated:
            if self.func.return_ty is None:
                self.b.ret_void()
            else:
                nvvm.trap(self.b)  # a value-returning helper fell off its end
        self.alloca_builder.branch(self._body)

    def trap_if_not(self, ok: ir.Value) -> None:
        if self.trap_block is None:
            self.trap_block = self.fn.append_basic_block("trap")
            tb = ir.IRBuilder(self.trap_block)
            tb.debug_metadata = self.b.debug_metadata
            nvvm.trap(tb)
        cont = self.fn.append_basic_block("ok")
        self.b.cbranch(ok, cont, self.trap_block)
        self.b.position_at_end(cont)

    def dead_block(self) -> None:
        self.b.position_at_end(self.fn.append_basic_block("dead"))

    # -- statements -----------------------------------------------------------------------------------------
    def stmts(self, body: list[n.Stmt]) -> None:
        for s in body:
            if self.b.block.is_terminated:
                self.dead_block()
            self.stmt(s)

    def stmt(self, s: n.Stmt) -> None:
        if self.line_info is not None and self.scope is not None:
            self.b.debug_metadata = self.line_info.location(s.loc[0], s.loc[1], self.scope)
        b = self.b
        if isinstance(s, n.Assign):
            value = self.expr(s.value)
            b.store(value, self.slot(s.name, self.func.locals.get(s.name) or dict(self.func.params)[s.name]))
        elif isinstance(s, n.ExprStmt):
            self.expr(s.value)
        elif isinstance(s, n.ElemSet):
            elem = self.expr(s.elem)
            value = self.expr(s.value)
            assert isinstance(s.elem.ty, ElemMutTy)
            if s.elem.ty.optional:
                self.trap_if_not(b.extract_value(elem, 0))
            self.store_elem(b.extract_value(elem, 1), s.elem.ty.elem, value)
        elif isinstance(s, n.Store):
            base = self.expr(s.array)
            index = self.expr(s.index)
            assert isinstance(s.array.ty, SharedArrayTy)
            if s.checked:
                self.trap_if_not(b.icmp_unsigned("<", index, ir.Constant(I64, s.array.ty.length)))
            ptr = b.gep(base, [index], source_etype=storage_type(s.array.ty.elem))
            self.store_elem(ptr, s.array.ty.elem, self.expr(s.value))
        elif isinstance(s, n.Print):
            emit_print(b, self.alloca_builder, s.format, [self.expr(a) for a in s.args])
        elif isinstance(s, n.Assert):
            self.assert_stmt(s)
        elif isinstance(s, n.If):
            self.if_stmt(s)
        elif isinstance(s, n.While):
            self.while_stmt(s)
        elif isinstance(s, n.ForRange):
            self.for_stmt(s)
        elif isinstance(s, n.Break):
            b.branch(self.loops[-1][1])
        elif isinstance(s, n.Continue):
            b.branch(self.loops[-1][0])
        elif isinstance(s, n.Return):
            if s.value is None:
                if self.return_block is not None:
                    b.branch(self.return_block)
                else:
                    b.ret_void()
            else:
                b.ret(self.expr(s.value))
        else:
            raise TypeError(f"unknown statement {s!r}")

    def assert_stmt(self, s: n.Assert) -> None:
        ok = self.expr(s.cond)
        fail_bb = self.fn.append_basic_block("assert.fail")
        cont = self.fn.append_basic_block("assert.ok")
        self.b.cbranch(ok, cont, fail_bb)
        self.b.position_at_end(fail_bb)
        path, line, _, message = self.asserts[s.index]
        emit_assert_failure(self.b, self.fn, s.index, message, path, line, self.func.name)
        self.b.position_at_end(cont)

    def if_stmt(self, s: n.If) -> None:
        cond = self.expr(s.cond)
        then_bb = self.fn.append_basic_block("then")
        else_bb = self.fn.append_basic_block("else") if s.orelse else None
        end_bb = self.fn.append_basic_block("endif")
        self.b.cbranch(cond, then_bb, else_bb or end_bb)
        self.b.position_at_end(then_bb)
        self.stmts(s.body)
        if not self.b.block.is_terminated:
            self.b.branch(end_bb)
        if else_bb is not None:
            self.b.position_at_end(else_bb)
            self.stmts(s.orelse)
            if not self.b.block.is_terminated:
                self.b.branch(end_bb)
        self.b.position_at_end(end_bb)

    def while_stmt(self, s: n.While) -> None:
        head = self.fn.append_basic_block("while.head")
        body = self.fn.append_basic_block("while.body")
        end = self.fn.append_basic_block("while.end")
        self.b.branch(head)
        self.b.position_at_end(head)
        self.b.cbranch(self.expr(s.cond), body, end)
        self.b.position_at_end(body)
        self.loops.append((head, end))
        self.stmts(s.body)
        self.loops.pop()
        if not self.b.block.is_terminated:
            self.b.branch(head)
        self.b.position_at_end(end)

    def for_stmt(self, s: n.ForRange) -> None:
        """`for v in range(start, stop, step)`: Python's iteration count, any sign of step, stop read once."""
        b = self.b
        ty = s.start.ty
        signed = _is_signed(ty)
        start, stop, step = self.expr(s.start), self.expr(s.stop), self.expr(s.step)
        if not isinstance(s.step, n.Const):
            self.trap_if_not(b.icmp_unsigned("!=", step, ir.Constant(step.type, 0)))  # range() step 0 raises
            b = self.b
        counter = self.alloca_builder.alloca(start.type, name=f"{s.var}.next")
        b.store(start, counter)
        head = self.fn.append_basic_block("for.head")
        body = self.fn.append_basic_block("for.body")
        latch = self.fn.append_basic_block("for.latch")
        end = self.fn.append_basic_block("for.end")
        b.branch(head)
        b.position_at_end(head)
        cur = b.load(counter)
        zero = ir.Constant(start.type, 0)
        if isinstance(s.step, n.Const) and isinstance(s.step.value, int):
            up = s.step.value > 0
            cond = (
                (b.icmp_signed("<", cur, stop) if up else b.icmp_signed(">", cur, stop))
                if signed
                else (b.icmp_unsigned("<", cur, stop) if up else b.icmp_unsigned(">", cur, stop))
            )
        else:
            b.position_at_end(head)
            if signed:
                positive = b.icmp_signed(">", step, zero)
                cond = b.select(positive, b.icmp_signed("<", cur, stop), b.icmp_signed(">", cur, stop))
            else:
                cond = b.icmp_unsigned("<", cur, stop)
        b.cbranch(cond, body, end)
        b.position_at_end(body)
        b.store(cur, self.slot(s.var, self.func.locals[s.var]))
        b.store(b.add(cur, step), counter)
        self.loops.append((latch, end))
        self.stmts(s.body)
        self.loops.pop()
        if not self.b.block.is_terminated:
            self.b.branch(latch)
        self.b.position_at_end(latch)
        self.b.branch(head)
        self.b.position_at_end(end)

    # -- memory ---------------------------------------------------------------------------------------------
    def load_elem(self, ptr: ir.Value, dt: DType, *, invariant: bool = False) -> ir.Value:
        return self.from_storage(self.b.load(ptr, typ=storage_type(dt), align=dt.itemsize), dt)

    def store_elem(self, ptr: ir.Value, dt: DType, value: ir.Value) -> None:
        self.b.store(self.to_storage(value, dt), ptr, align=dt.itemsize)

    def from_storage(self, raw: ir.Value, dt: DType) -> ir.Value:
        """An element as loaded (its storage type) -> its value type (f16/bf16 widened, bool as i1)."""
        if dt.name in ("f16", "bf16"):
            return widen_narrow_float(self.b, raw, dt, F32)
        if dt.kind == "b":
            return self.b.icmp_unsigned("!=", raw, ir.Constant(I8, 0))
        return raw

    def to_storage(self, value: ir.Value, dt: DType) -> ir.Value:
        """A value -> the element's storage type (f16/bf16 rounded to nearest even, bool as a byte)."""
        if dt.name in ("f16", "bf16"):
            return round_to_narrow_float(self.b, value, dt)
        if dt.kind == "b":
            return self.b.zext(value, I8)
        return value

    # -- expressions ----------------------------------------------------------------------------------------
    def expr(self, e: n.Expr) -> ir.Value:
        method: Callable[[n.Expr], ir.Value] | None = getattr(self, f"e_{type(e).__name__}", None)
        if method is None:
            raise TypeError(f"unknown expression {e!r}")
        return method(e)

    def e_Const(self, e: n.Const) -> ir.Value:
        lt = value_type(e.ty)
        if isinstance(lt, ir.IntType):
            return ir.Constant(lt, int(e.value) & ((1 << lt.width) - 1))
        return ir.Constant(lt, float(e.value))

    def e_Var(self, e: n.Var) -> ir.Value:
        return self.b.load(self.slots[e.name])

    e_Param = e_Var

    def e_Walrus(self, e: n.Walrus) -> ir.Value:
        value = self.expr(e.value)
        self.b.store(value, self.slot(e.name, e.ty))
        return value

    def e_Convert(self, e: n.Convert) -> ir.Value:
        return self.convert(self.expr(e.value), e.value.ty, e.ty, e.round_to)

    def convert(self, v: ir.Value, src: Ty, dst: Ty, round_to: str | None = None) -> ir.Value:
        b = self.b
        st, dt = value_type(src), value_type(dst)
        if round_to is not None:
            narrow = dtype_of(round_to)
            v = self.convert(v, src, dst) if st != dt else v
            return widen_narrow_float(b, round_to_narrow_float(b, v, narrow), narrow, dt)
        if st == dt:
            return v
        src_float, dst_float = _is_float(src), _is_float(dst)
        if dst == BOOL:
            if src_float:
                return b.fcmp_unordered("!=", v, ir.Constant(st, 0.0))
            return b.icmp_unsigned("!=", v, ir.Constant(st, 0))
        if src_float and dst_float:
            return b.fpext(v, dt) if _bits(st) < _bits(dt) else b.fptrunc(v, dt)
        if src_float:  # saturating, NaN giving 0 (PTX `cvt.rzi`): a plain fptosi of an out-of-range constant is
            # poison, and LLVM deleted the store it fed (`i32(f32(3e9))` left the output unwritten)
            sign = "s" if _is_signed(dst) else "u"
            suffix = "f64" if st == ir.DoubleType() else "f32"
            name = f"llvm.fpto{sign}i.sat.i{dt.width}.{suffix}"
            return b.call(nvvm.declare(self.module, name, dt, [st]), [v])
        if dst_float:
            if src == BOOL or not _is_signed(src):
                return b.uitofp(v, dt)
            return b.sitofp(v, dt)
        if st.width > dt.width:
            return b.trunc(v, dt)
        if src == BOOL or not _is_signed(src):
            return b.zext(v, dt)
        return b.sext(v, dt)

    def e_BinOp(self, e: n.BinOp) -> ir.Value:
        b = self.b
        lhs, rhs = self.expr(e.left), self.expr(e.right)
        ty = e.ty
        if _is_float(ty):
            if e.op == "+":
                return b.fadd(lhs, rhs)
            if e.op == "-":
                return b.fsub(lhs, rhs)
            if e.op == "*":
                return b.fmul(lhs, rhs)
            if e.op == "/":
                return b.fdiv(lhs, rhs)
            if e.op == "//":
                return self.float_call("floor", [b.fdiv(lhs, rhs)])
            if e.op == "%":
                return self.float_mod(lhs, rhs)
            if e.op == "**":
                return emit_math(b, "pow", [lhs, rhs], approx=False, have_libdevice=self.have_libdevice)
            raise TypeError(e.op)
        signed = _is_signed(ty) or isinstance(ty, WeakTy)
        if e.op == "+":
            return b.add(lhs, rhs)
        if e.op == "-":
            return b.sub(lhs, rhs)
        if e.op == "*":
            return b.mul(lhs, rhs)
        if e.op in ("//", "%"):
            self.trap_if_not(b.icmp_unsigned("!=", rhs, ir.Constant(rhs.type, 0)))
            if not signed:
                return b.udiv(lhs, rhs) if e.op == "//" else b.urem(lhs, rhs)
            return self.floor_divmod(lhs, rhs, e.op)
        if e.op == "**":
            assert isinstance(e.right, n.Const) and isinstance(e.right.value, int)
            return self.int_pow(lhs, e.right.value)
        if e.op == "&":
            return b.and_(lhs, rhs)
        if e.op == "|":
            return b.or_(lhs, rhs)
        if e.op == "^":
            return b.xor(lhs, rhs)
        if e.op in ("<<", ">>"):
            return self.shift(lhs, rhs, e.op, signed)
        raise TypeError(e.op)

    def shift(self, x: ir.Value, amount: ir.Value, op: str, signed: bool) -> ir.Value:
        """`<<` / `>>` with the amount taken as unsigned (docs/numerics.md): an amount of at least the width gives
        0, or the sign fill for a signed `>>`.  LLVM's shifts are poison there: folded from constants, the
        store of such a value was deleted (the GPU left the output unwritten where the CPU executor gave -1)."""
        b = self.b
        assert isinstance(x.type, ir.IntType)
        width = ir.Constant(amount.type, x.type.width)
        top = ir.Constant(amount.type, x.type.width - 1)
        past = b.icmp_unsigned(">=", amount, width)
        if op == ">>" and signed:
            return b.ashr(x, b.select(past, top, amount))
        safe = b.select(past, ir.Constant(amount.type, 0), amount)
        shifted = b.shl(x, safe) if op == "<<" else b.lshr(x, safe)
        return b.select(past, ir.Constant(x.type, 0), shifted)

    def floor_divmod(self, a: ir.Value, d: ir.Value, op: str) -> ir.Value:
        """Python's `//` / `%`: truncating division corrected when the remainder's sign differs from d's."""
        b = self.b
        zero = ir.Constant(a.type, 0)
        # `MIN // -1` wraps to MIN (docs/numerics.md); LLVM's sdiv/srem of MIN by -1 are undefined (folded from
        # constants, the store was deleted), so divide by -1 as a negation.
        by_minus_one = b.icmp_signed("==", d, ir.Constant(d.type, -1))
        safe = b.select(by_minus_one, ir.Constant(d.type, 1), d)
        q = b.select(by_minus_one, b.sub(zero, a), b.sdiv(a, safe))
        r = b.select(by_minus_one, zero, b.srem(a, safe))
        fix = b.and_(b.icmp_signed("!=", r, zero), b.icmp_signed("<", b.xor(r, d), zero))
        if op == "//":
            return b.sub(q, b.zext(fix, a.type))
        return b.select(fix, b.add(r, d), r)

    def float_mod(self, a: ir.Value, d: ir.Value) -> ir.Value:
        """Python's float `%`: the exact `fmod` corrected to the divisor's sign.  libdevice's `fmod` is exact;
        LLVM's `frem` is not on NVPTX (it lowers to `a - trunc(a / b) * b`, wrong by thousands for a large
        quotient, while the CPU executor and LLVM's constant folding compute the exact remainder)."""
        b = self.b
        if isinstance(a, ir.Constant) and isinstance(d, ir.Constant):
            r = b.frem(a, d)  # LLVM folds it exactly
        elif not self.have_libdevice:
            raise NeedsLibdevice("fmod (a float `%`)")
        else:
            r = self.float_call("fmod", [a, d])
        zero = ir.Constant(a.type, 0.0)
        nonzero = b.fcmp_ordered("!=", r, zero)
        differ = b.xor(b.fcmp_ordered("<", r, zero), b.fcmp_ordered("<", d, zero))
        return b.select(b.and_(nonzero, differ), b.fadd(r, d), r)

    def int_pow(self, base: ir.Value, exp: int) -> ir.Value:
        result: ir.Value = ir.Constant(base.type, 1)
        square = base
        while exp:
            if exp & 1:
                result = self.b.mul(result, square)
            exp >>= 1
            if exp:
                square = self.b.mul(square, square)
        return result

    def float_call(self, name: str, args: list[ir.Value]) -> ir.Value:
        return emit_math(self.b, name, args, approx=self.approx, have_libdevice=self.have_libdevice)

    def e_UnaryOp(self, e: n.UnaryOp) -> ir.Value:
        v = self.expr(e.operand)
        if e.op == "not":
            return self.b.xor(v, ir.Constant(I1, 1))
        if e.op == "~":
            return self.b.xor(v, ir.Constant(v.type, -1))
        if _is_float(e.ty):
            return self.b.fneg(v)
        return self.b.neg(v)

    def e_Compare(self, e: n.Compare) -> ir.Value:
        lhs, rhs = self.expr(e.left), self.expr(e.right)
        ty = e.left.ty
        if _is_float(ty):
            if e.op == "!=":
                return self.b.fcmp_unordered("!=", lhs, rhs)
            return self.b.fcmp_ordered(e.op, lhs, rhs)
        if _is_signed(ty) or isinstance(ty, WeakTy):
            return self.b.icmp_signed(_ICMP_SIGNED[e.op], lhs, rhs)
        return self.b.icmp_unsigned(e.op, lhs, rhs)

    def e_BoolOp(self, e: n.BoolOp) -> ir.Value:
        end = self.fn.append_basic_block(f"{e.op}.end")
        incoming: list[tuple[ir.Value, ir.Block]] = []
        short = ir.Constant(I1, 0 if e.op == "and" else 1)
        for value in e.values[:-1]:
            v = self.expr(value)
            nxt = self.fn.append_basic_block(f"{e.op}.next")
            incoming.append((short, self.b.block))
            if e.op == "and":
                self.b.cbranch(v, nxt, end)
            else:
                self.b.cbranch(v, end, nxt)
            self.b.position_at_end(nxt)
        last = self.expr(e.values[-1])
        incoming.append((last, self.b.block))
        self.b.branch(end)
        self.b.position_at_end(end)
        phi = self.b.phi(I1)
        for v, bb in incoming:
            phi.add_incoming(v, bb)
        return phi

    def e_Select(self, e: n.Select) -> ir.Value:
        cond = self.expr(e.cond)
        t_bb = self.fn.append_basic_block("sel.true")
        f_bb = self.fn.append_basic_block("sel.false")
        end = self.fn.append_basic_block("sel.end")
        self.b.cbranch(cond, t_bb, f_bb)
        self.b.position_at_end(t_bb)
        tv = self.expr(e.if_true)
        t_end = self.b.block
        self.b.branch(end)
        self.b.position_at_end(f_bb)
        fv = self.expr(e.if_false)
        f_end = self.b.block
        self.b.branch(end)
        self.b.position_at_end(end)
        phi = self.b.phi(tv.type)
        phi.add_incoming(tv, t_end)
        phi.add_incoming(fv, f_end)
        return phi

    def e_Len(self, e: n.Len) -> ir.Value:
        return self.b.extract_value(self.expr(e.array), 1)

    def e_Load(self, e: n.Load) -> ir.Value:
        b = self.b
        array = self.expr(e.array)
        index = self.expr(e.index)
        ty = e.array.ty
        if isinstance(ty, SharedArrayTy):
            if e.checked:
                self.trap_if_not(b.icmp_unsigned("<", index, ir.Constant(I64, ty.length)))
            ptr = b.gep(array, [index], source_etype=storage_type(ty.elem))
            return self.load_elem(ptr, ty.elem)
        assert isinstance(ty, SliceTy)
        base, length = b.extract_value(array, 0), b.extract_value(array, 1)
        if e.checked:
            self.trap_if_not(b.icmp_unsigned("<", index, length))
        ptr = b.gep(base, [index], inbounds=True, source_etype=storage_type(ty.elem))
        return self.load_elem(ptr, ty.elem)

    def e_GetMut(self, e: n.GetMut) -> ir.Value:
        b = self.b
        array = self.expr(e.array)
        assert isinstance(e.array.ty, SliceTy)
        base, length = b.extract_value(array, 0), b.extract_value(array, 1)
        if e.checked:
            witness = self.expr(e.index)
            index = b.extract_value(witness, 1)
            valid = b.and_(b.extract_value(witness, 0), b.icmp_unsigned("<", index, length))
        else:
            index = self.expr(e.index)
            valid = ir.Constant(I1, 1)
        ptr = b.gep(base, [index], source_etype=storage_type(e.array.ty.elem))
        out = b.insert_value(ir.Constant(ELEM, ir.Undefined), valid, 0)
        return b.insert_value(out, ptr, 1)

    def e_ElemGet(self, e: n.ElemGet) -> ir.Value:
        elem = self.expr(e.elem)
        assert isinstance(e.elem.ty, ElemMutTy)
        if e.elem.ty.optional:
            self.trap_if_not(self.b.extract_value(elem, 0))
        return self.load_elem(self.b.extract_value(elem, 1), e.elem.ty.elem)

    def e_Atomic(self, e: n.Atomic) -> ir.Value:
        b = self.b
        array = self.expr(e.array)
        index = self.expr(e.index)
        value = self.expr(e.value)
        assert isinstance(e.array.ty, SliceTy)
        base, length = b.extract_value(array, 0), b.extract_value(array, 1)
        self.trap_if_not(b.icmp_unsigned("<", index, length))
        b = self.b
        ptr = b.gep(base, [index], inbounds=True, source_etype=storage_type(e.array.ty.elem))
        return emit_rmw(b, e.op, ptr, value, e.array.ty.elem, e.order, e.scope)

    def e_CompareExchange(self, e: n.CompareExchange) -> ir.Value:
        b = self.b
        array = self.expr(e.array)
        index = self.expr(e.index)
        expected = self.expr(e.expected)
        desired = self.expr(e.desired)
        assert isinstance(e.array.ty, SliceTy)
        base, length = b.extract_value(array, 0), b.extract_value(array, 1)
        self.trap_if_not(b.icmp_unsigned("<", index, length))
        b = self.b
        ptr = b.gep(base, [index], inbounds=True, source_etype=storage_type(e.array.ty.elem))
        return emit_cas(b, ptr, expected, desired, e.array.ty.elem, e.order, e.scope)

    def e_CallHelper(self, e: n.CallHelper) -> ir.Value:
        fn = self.helpers[e.helper]
        args = [self.expr(a) for a in e.args]
        return self.b.call(fn, args)

    def e_Intrinsic(self, e: n.Intrinsic) -> ir.Value:
        b = self.b
        name = e.name
        if name == "index_1d":
            gid = b.add(b.mul(nvvm.sreg(b, "ctaid.x"), nvvm.sreg(b, "ntid.x")), nvvm.sreg(b, "tid.x"))
            return b.insert_value(ir.Constant(INDEX, [ir.Constant(I1, 1), ir.Constant(I64, 0)]), gid, 1)
        if name == "index_2d":
            stride = self.expr(e.args[0])
            col = b.add(b.mul(nvvm.sreg(b, "ctaid.x"), nvvm.sreg(b, "ntid.x")), nvvm.sreg(b, "tid.x"))
            row = b.add(b.mul(nvvm.sreg(b, "ctaid.y"), nvvm.sreg(b, "ntid.y")), nvvm.sreg(b, "tid.y"))
            valid = b.icmp_signed("<", col, stride)
            out = b.insert_value(ir.Constant(INDEX, ir.Undefined), valid, 0)
            return b.insert_value(out, b.add(b.mul(row, stride), col), 1)
        if name in ("is_some",):
            return b.extract_value(self.expr(e.args[0]), 0)
        if name == "index_value":
            return b.extract_value(self.expr(e.args[0]), 1)
        if name[:-2] in ("thread_idx", "block_idx", "block_dim", "grid_dim"):
            reg = {"thread_idx": "tid", "block_idx": "ctaid", "block_dim": "ntid", "grid_dim": "nctaid"}[name[:-2]]
            return nvvm.sreg(b, f"{reg}.{name[-1]}")
        if name == "lane_id":
            return nvvm.sreg(b, "laneid")
        if name == "sync_threads":
            nvvm.barrier(b)
            return ir.Constant(I1, 0)
        if name == "shared_ref":
            assert isinstance(e.ty, SharedArrayTy)
            return self.shared[e.ty.symbol]
        if name.startswith("shfl_"):
            value, lane = (self.expr(a) for a in e.args)
            return self.warp_shuffle(name, value, lane, e.ty)
        if name.startswith("reduce_"):
            return self.warp_reduce(name.removeprefix("reduce_"), self.expr(e.args[0]), e.ty)
        if name in ("min", "max"):
            a, c = (self.expr(x) for x in e.args)
            return self.minmax(name, a, c, e.ty)
        if name == "abs":
            v = self.expr(e.args[0])
            if _is_float(e.ty):
                return self.float_call("fabs", [v])
            if not (_is_signed(e.ty) or isinstance(e.ty, WeakTy)):
                return v
            return b.select(b.icmp_signed("<", v, ir.Constant(v.type, 0)), b.neg(v), v)
        if name.startswith("math."):
            return self.float_call(name.removeprefix("math."), [self.expr(a) for a in e.args])
        raise TypeError(f"unknown intrinsic {name}")

    def minmax(self, name: str, a: ir.Value, c: ir.Value, ty: Ty) -> ir.Value:
        """Python's `min(a, c)` is `c if c < a else a` (first wins on ties and NaN); `max` likewise with
        `>`."""
        b = self.b
        op = "<" if name == "min" else ">"
        if _is_float(ty):
            pick = b.fcmp_ordered(op, c, a)
        elif _is_signed(ty) or isinstance(ty, WeakTy):
            pick = b.icmp_signed(op, c, a)
        else:
            pick = b.icmp_unsigned(op, c, a)
        return b.select(pick, c, a)

    def warp_shuffle(self, name: str, value: ir.Value, arg: ir.Value, ty: Ty) -> ir.Value:
        """`warp.shfl_*` among the lanes present: the source lane is computed here and replaced by the
        lane's own when it lies outside the warp or is absent (partial last warp, exited lane), so that lane
        gets its own value, as the CPU executor and the docs say."""
        b = self.b
        mask = nvvm.active_mask(b)
        lane = nvvm.lane_id(b)
        if name == "shfl_down":
            src = b.add(lane, arg)
        elif name == "shfl_up":
            src = b.sub(lane, arg)
        elif name == "shfl_xor":
            src = b.xor(lane, arg)
        else:  # shfl_idx: Python's `src_lane % 32`
            src = b.and_(arg, ir.Constant(I32, 31))
        src = b.select(nvvm.lane_present(b, mask, src), src, lane)
        return nvvm.shuffle(b, "shfl_idx", value, src, signed=_is_signed(ty), mask=mask)

    def warp_reduce(self, op: str, v: ir.Value, ty: Ty) -> ir.Value:
        """Butterfly over offsets 16, 8, 4, 2, 1 among the lanes present.

        A full warp (the common case) takes the plain `shfl.sync.bfly` path.  Otherwise each step reads the
        partner's value from any present lane of the partner's butterfly group (after the steps so far, every
        lane of a group holds the same value) and an absent group counts as the identity (0 for sums, nothing
        for min/max): exactly the CPU executor's butterfly over 32 lanes with absent lanes filled by 0."""
        b = self.b
        signed = _is_signed(ty)
        mask = nvvm.active_mask(b)
        full = b.icmp_unsigned("==", mask, ir.Constant(I32, nvvm.FULL_MASK))
        entry = b.block
        full_bb = self.fn.append_basic_block("warp.full")
        part_bb = self.fn.append_basic_block("warp.partial")
        join_bb = self.fn.append_basic_block("warp.join")
        b.cbranch(full, full_bb, part_bb)
        b.position_at_end(full_bb)
        w = v
        for offset in (16, 8, 4, 2, 1):
            other = nvvm.shuffle(b, "shfl_xor", w, ir.Constant(I32, offset), signed=signed)
            w = self.warp_combine(op, w, other, ty)
        full_end = b.block
        b.branch(join_bb)
        b.position_at_end(part_bb)
        lane = nvvm.lane_id(b)
        p = v
        for offset, stride in ((16, 0x1), (8, 0x00010001), (4, 0x01010101), (2, 0x11111111), (1, 0x55555555)):
            group = b.and_(b.xor(lane, ir.Constant(I32, offset)), ir.Constant(I32, 2 * offset - 1))
            members = b.and_(mask, b.shl(ir.Constant(I32, stride), group))
            present = b.icmp_unsigned("!=", members, ir.Constant(I32, 0))
            src = b.select(present, nvvm.lowest_lane(b, members), lane)
            other = nvvm.shuffle(b, "shfl_idx", p, src, signed=signed, mask=mask)
            if op == "sum":
                zero = ir.Constant(p.type, 0.0 if _is_float(ty) else 0)
                p = self.warp_combine(op, p, b.select(present, other, zero), ty)
            else:
                p = b.select(present, self.warp_combine(op, p, other, ty), p)
        part_end = b.block
        b.branch(join_bb)
        b.position_at_end(join_bb)
        out = b.phi(v.type)
        out.add_incoming(w, full_end)
        out.add_incoming(p, part_end)
        _ = entry
        return out

    def warp_combine(self, op: str, v: ir.Value, other: ir.Value, ty: Ty) -> ir.Value:
        """One butterfly step, as the CPU executor's: `v + other`; max/min prefer a number over NaN."""
        b = self.b
        if op == "sum":
            return b.fadd(v, other) if _is_float(ty) else b.add(v, other)
        if not _is_float(ty):
            return self.minmax(op, v, other, ty)
        better = b.fcmp_ordered(">" if op == "max" else "<", other, v)
        return b.select(b.or_(better, b.fcmp_unordered("uno", v, v)), other, v)


def _bits(t: ir.Type) -> int:
    if isinstance(t, ir.HalfType) or type(t).__name__ == "BFloatType":  # not every llvmlite has BFloatType
        return 16
    if isinstance(t, ir.FloatType):
        return 32
    return 64
