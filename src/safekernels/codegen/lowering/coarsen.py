"""Thread coarsening of elementwise SIMT kernels: several logical threads per hardware thread, 16-byte accesses.

A SIMT kernel is written for one element per thread, and compiled that way it cannot reach the copy bandwidth:
each thread has one 4-byte load per input in flight, so an SM holds too few bytes in flight to cover the
memory latency (nvcc -O3 compiles the same kernel to the same ~0.8x of a copy).  torch and Triton issue 16-byte
accesses from threads that own several elements.  The source language already carries the facts that make that
rewrite sound, facts a C++ compiler cannot assume:

* a `DisjointSlice` element is reached only through `get_mut(idx)` with the thread's own witness, so logical
  thread `i` is the only writer of `c[i]`, and the buffers cannot overlap (checker + launcher);
* a `Slice` is read-only for the whole launch, so reading `a[i .. i+F)` early (or when the program would not)
  has no effect beyond its value.

`plan_coarsening` decides, from the typed IR alone, whether a kernel is such an elementwise kernel: it observes
no hardware coordinate (only `thread.index_1d()`), uses no shared memory, barrier, warp operation, atomic,
print or assert (an assert records block and thread coordinates), and its element handles come only from
`get_mut(idx)` of a parameter and are used only to `set`/`get`/test.  Then `CoarsenedLowering` emits a second
entry point in the same module, where hardware thread `t` runs logical threads `base .. base+F-1` with
`base = F * (ctaid.x * ntid.x + tid.x)`; the launcher uses it when the grid is a multiple of F (so the logical
threads are exactly those of the launch) and the block is one-dimensional (`simt.gpu_launch`):

    entry:  base = F * global thread id
            fast = for every vector buffer p: base + F <= len(p) and p's address is aligned
      fast ─▶ one <F x T> load per Slice read at the thread's index (ld.global.nc.v4), the body F times
              with `a[i]` taken from the vector and `out.set(v)` kept in registers, then one <F x T> store
              per DisjointSlice when every logical thread stored (else one store per storing thread)
      slow ─▶ the body F times as written (every bounds check and trap), for the partial tail and
              misaligned bases

Each logical thread executes exactly its own operations in its own order, so results are bit-identical to the
one-element-per-thread kernel; the checks are skipped only where `base + F <= len(p)` proved them.  Deferring
the owned stores to the end is unobservable: no other thread reads those elements, this thread's own reads of
them (`out.get()`) see the kept value, and a trap ends the context, after which memory is not defined anyway.
`SAFEKERNELS_SIMT_VECTOR_BYTES=0` turns the rewrite off (16 is the default width per buffer and thread;
`codegen.pipeline.vector_bytes_default`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from llvmlite import ir

from safekernels.codegen.ir import nodes as n
from safekernels.codegen.ir.types import ElemMutTy, IndexTy, SliceTy
from safekernels.codegen.lowering import nvvm
from safekernels.codegen.lowering.function import FunctionLowering
from safekernels.codegen.lowering.llvm_types import ELEM, F32, I1, I64, INDEX, storage_type
from safekernels.dtypes import DType

DEFAULT_VECTOR_BYTES = 16
MAX_FACTOR = 8

# Operations that observe the hardware thread, need threads to run together, or are ordered side effects.
_HARDWARE_INTRINSICS = frozenset(
    {"index_2d", "lane_id", "sync_threads", "shared_ref"}
    | {f"{reg}_{axis}" for reg in ("thread_idx", "block_idx", "block_dim", "grid_dim") for axis in "xyz"}
)
_FORBIDDEN_NODES = (n.Atomic, n.CompareExchange, n.Store, n.Print, n.Assert)


@dataclass(frozen=True)
class CoarsenPlan:
    """How a kernel is coarsened: `factor` logical threads per hardware thread; the Slice parameters read at
    the thread's index (`vector_reads`), the DisjointSlice parameters written through `get_mut(idx)`
    (`owned`, with `owned_read` those whose elements are also read back), and the element handles' locals."""

    factor: int
    vector_reads: tuple[str, ...]
    owned: tuple[str, ...]
    owned_read: frozenset[str]
    elem_locals: dict[str, str]
    witness_locals: frozenset[str]
    index_locals: frozenset[str]
    dtypes: dict[str, DType]

    @property
    def vector_params(self) -> tuple[str, ...]:
        return self.vector_reads + self.owned

    def alignment(self, name: str) -> int:
        """The byte alignment of parameter `name`'s vector access (its F elements, at most 16 bytes)."""
        return min(16, self.factor * self.dtypes[name].itemsize)


def _walk_stmts(body: list[n.Stmt]) -> Iterator[n.Stmt]:
    for s in body:
        yield s
        for child in (getattr(s, "body", None), getattr(s, "orelse", None)):
            if child:
                yield from _walk_stmts(child)


def _stmt_exprs(s: n.Stmt) -> Iterator[n.Expr]:
    for f in dataclasses.fields(s):
        value = getattr(s, f.name)
        if isinstance(value, n.Expr):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, n.Expr))


def _children(e: n.Expr) -> Iterator[n.Expr]:
    for f in dataclasses.fields(e):
        value = getattr(e, f.name)
        if isinstance(value, n.Expr):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, n.Expr))


def _walk_expr(e: n.Expr) -> Iterator[n.Expr]:
    yield e
    for child in _children(e):
        yield from _walk_expr(child)


def _assigned_names(body: list[n.Stmt]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for s in _walk_stmts(body):
        if isinstance(s, n.Assign):
            counts[s.name] = counts.get(s.name, 0) + 1
        elif isinstance(s, n.ForRange):
            counts[s.var] = counts.get(s.var, 0) + 2  # assigned every iteration
        for root in _stmt_exprs(s):
            for e in _walk_expr(root):
                if isinstance(e, n.Walrus):
                    counts[e.name] = counts.get(e.name, 0) + 1
    return counts


def _passes_ownership(e: n.CallHelper) -> bool:
    """Whether a helper call receives a witness, an element handle or a DisjointSlice: the helper could then
    store to the thread's own elements behind the kept values of the fast path."""
    for arg in e.args:
        if isinstance(arg.ty, (IndexTy, ElemMutTy)):
            return True
        if isinstance(arg.ty, SliceTy) and arg.ty.mode != "slice":
            return True
    return False


def _uses_hardware(func: n.Function) -> bool:
    for s in _walk_stmts(func.body):
        if isinstance(s, _FORBIDDEN_NODES):
            return True
        for root in _stmt_exprs(s):
            for e in _walk_expr(root):
                if isinstance(e, (n.Atomic, n.CompareExchange)):
                    return True
                if isinstance(e, n.CallHelper) and _passes_ownership(e):
                    return True
                if isinstance(e, n.Intrinsic) and (
                    e.name in _HARDWARE_INTRINSICS or e.name.startswith(("shfl_", "reduce_"))
                ):
                    return True
    return False


def plan_coarsening(mod: n.Module, vector_bytes: int = DEFAULT_VECTOR_BYTES) -> CoarsenPlan | None:
    """The coarsening of `mod`'s kernel, or None when the kernel is not provably elementwise (or the rewrite is
    off: `vector_bytes == 0`)."""
    if vector_bytes <= 0 or mod.shared:
        return None
    kernel = mod.kernel
    if _uses_hardware(kernel) or any(_uses_hardware(h) for h in mod.helpers):
        return None
    kinds = {name: kind for name, kind, _ in mod.abi}
    dtypes = {name: ty.elem for name, ty in kernel.params if isinstance(ty, SliceTy)}
    counts = _assigned_names(kernel.body)
    if any(name in counts for name in kinds):
        return None  # a parameter name rebound: its accesses no longer name the parameter
    witnesses: set[str] = set()
    indices: set[str] = set()
    for s in kernel.body:  # top level, in order: each assignment dominates what follows it
        if not isinstance(s, n.Assign) or counts.get(s.name) != 1:
            continue
        if isinstance(s.value, n.Intrinsic) and s.value.name == "index_1d":
            witnesses.add(s.name)
        elif _is_index_value(s.value, witnesses):
            indices.add(s.name)
    if not witnesses and not _mentions_index_1d(kernel.body):
        return None
    reads: list[str] = []
    owned: list[str] = []
    owned_read: set[str] = set()
    elem_locals: dict[str, str] = {}
    allowed_elem_uses: set[int] = set()
    for s in _walk_stmts(kernel.body):
        roots = list(_stmt_exprs(s))
        if isinstance(s, n.ElemSet):
            allowed_elem_uses.add(id(s.elem))
        for root in roots:
            for e in _walk_expr(root):
                if isinstance(e, n.ElemGet):
                    allowed_elem_uses.add(id(e.elem))
                elif isinstance(e, n.Intrinsic) and e.name == "is_some":
                    allowed_elem_uses.update(id(a) for a in e.args)
                elif isinstance(e, n.Walrus) and isinstance(e.ty, ElemMutTy):
                    allowed_elem_uses.add(id(e.value))
        if isinstance(s, n.Assign) and isinstance(s.value, n.GetMut):
            allowed_elem_uses.add(id(s.value))
    for s in _walk_stmts(kernel.body):
        if isinstance(s, n.Assign) and isinstance(s.value, n.GetMut):
            param = _owned_param(s.value, kinds, witnesses)
            if param is None or counts.get(s.name) != 1:
                return None
            elem_locals[s.name] = param
        for root in _stmt_exprs(s):
            for e in _walk_expr(root):
                if isinstance(e, n.Walrus) and isinstance(e.value, n.GetMut):
                    param = _owned_param(e.value, kinds, witnesses)
                    if param is None or counts.get(e.name) != 1:
                        return None
                    elem_locals[e.name] = param
    for s in _walk_stmts(kernel.body):
        for root in _stmt_exprs(s):
            for e in _walk_expr(root):
                if isinstance(e.ty, ElemMutTy):
                    if id(e) not in allowed_elem_uses and not isinstance(e, n.Walrus):
                        return None
                    if isinstance(e, n.Var) and e.name not in elem_locals:
                        return None
                    if isinstance(e, n.GetMut):
                        param = _owned_param(e, kinds, witnesses)
                        if param is None:
                            return None
                        if param not in owned:
                            owned.append(param)
                if isinstance(e, n.ElemGet):
                    param = _elem_param(e.elem, elem_locals, kinds, witnesses)
                    if param is None:
                        return None
                    owned_read.add(param)
                if isinstance(e, n.Load) and isinstance(e.array, n.Var) and kinds.get(e.array.name) == "slice":
                    if _is_at_index(e.index, witnesses, indices) and e.array.name not in reads:
                        reads.append(e.array.name)
    if not reads and not owned:
        return None
    smallest = min(dtypes[p].itemsize for p in (*reads, *owned))
    factor = min(MAX_FACTOR, vector_bytes // smallest)
    if factor < 2:
        return None
    return CoarsenPlan(
        factor=factor,
        vector_reads=tuple(reads),
        owned=tuple(owned),
        owned_read=frozenset(owned_read),
        elem_locals=elem_locals,
        witness_locals=frozenset(witnesses),
        index_locals=frozenset(indices),
        dtypes=dtypes,
    )


def _mentions_index_1d(body: list[n.Stmt]) -> bool:
    return any(
        isinstance(e, n.Intrinsic) and e.name == "index_1d"
        for s in _walk_stmts(body)
        for root in _stmt_exprs(s)
        for e in _walk_expr(root)
    )


def _is_witness(e: n.Expr, witnesses: set[str] | frozenset[str]) -> bool:
    if isinstance(e, n.Intrinsic):
        return e.name == "index_1d"
    return isinstance(e, n.Var) and isinstance(e.ty, IndexTy) and e.name in witnesses


def _is_index_value(e: n.Expr, witnesses: set[str] | frozenset[str]) -> bool:
    return isinstance(e, n.Intrinsic) and e.name == "index_value" and _is_witness(e.args[0], witnesses)


def _is_at_index(e: n.Expr, witnesses: set[str] | frozenset[str], indices: set[str] | frozenset[str]) -> bool:
    return _is_index_value(e, witnesses) or (isinstance(e, n.Var) and e.name in indices)


def _owned_param(e: n.GetMut, kinds: dict[str, str], witnesses: set[str]) -> str | None:
    """The DisjointSlice parameter of a checked `get_mut(idx)` at the thread's own witness, else None."""
    if not e.checked or not isinstance(e.array, n.Var) or kinds.get(e.array.name) != "disjoint":
        return None
    return e.array.name if _is_witness(e.index, witnesses) else None


def _elem_param(e: n.Expr, elem_locals: dict[str, str], kinds: dict[str, str], witnesses: set[str]) -> str | None:
    if isinstance(e, n.Var):
        return elem_locals.get(e.name)
    if isinstance(e, n.GetMut):
        return _owned_param(e, kinds, witnesses)
    if isinstance(e, n.Walrus) and isinstance(e.value, n.GetMut):
        return _owned_param(e.value, kinds, witnesses)
    return None


class CoarsenedLowering(FunctionLowering):
    """The kernel body lowered once per logical thread of a hardware thread (see the module docstring)."""

    plan: CoarsenPlan

    def configure(self, plan: CoarsenPlan) -> None:
        self.plan = plan
        self.fast = False
        self.lane = 0
        self.logical: ir.Value = ir.Constant(I64, 0)
        self.live_witnesses: set[str] = set()
        self.live_indices: set[str] = set()
        self.vectors: dict[str, ir.Value] = {}
        self.owned_values: dict[tuple[str, int], ir.Value] = {}
        self.owned_flags: dict[tuple[str, int], ir.Value] = {}
        self.param_slices: dict[str, ir.Value] = {}
        self.base: ir.Value = ir.Constant(I64, 0)

    # -- the entry point -------------------------------------------------------------------------------------
    def lower(self, param_values: list[ir.Value]) -> None:
        plan, b, f = self.plan, self.b, self.plan.factor
        for (name, ty), value in zip(self.func.params, param_values, strict=True):
            b.store(value, self.slot(name, ty))
            if isinstance(ty, SliceTy):
                self.param_slices[name] = value
        for name, ty in self.func.locals.items():
            self.slot(name, ty)
        gid = b.add(b.mul(nvvm.sreg(b, "ctaid.x"), nvvm.sreg(b, "ntid.x")), nvvm.sreg(b, "tid.x"))
        self.base = b.mul(gid, ir.Constant(I64, f), flags=["nuw"])
        end = b.add(self.base, ir.Constant(I64, f), flags=["nuw"])
        fast_ok: ir.Value = ir.Constant(I1, 1)
        for name in plan.vector_params:
            base_ptr, length = (b.extract_value(self.param_slices[name], i) for i in (0, 1))
            mask = ir.Constant(I64, plan.alignment(name) - 1)
            aligned = b.icmp_unsigned("==", b.and_(b.ptrtoint(base_ptr, I64), mask), ir.Constant(I64, 0))
            fast_ok = b.and_(fast_ok, b.and_(b.icmp_unsigned("<=", end, length), aligned))
        fast_bb = self.fn.append_basic_block("coarse.fast")
        slow_bb = self.fn.append_basic_block("coarse.slow")
        b.cbranch(fast_ok, fast_bb, slow_bb)
        b.position_at_end(fast_bb)
        self.lower_fast()
        b.position_at_end(slow_bb)
        self.lower_slow()
        self.alloca_builder.branch(self._body)

    def _vector_type(self, name: str) -> ir.VectorType:
        return ir.VectorType(storage_type(self.plan.dtypes[name]), self.plan.factor)

    def _vector_ptr(self, name: str) -> ir.Value:
        base_ptr = self.b.extract_value(self.param_slices[name], 0)
        return self.b.gep(base_ptr, [self.base], inbounds=True, source_etype=storage_type(self.plan.dtypes[name]))

    def lower_fast(self) -> None:
        """Every logical thread in bounds and every buffer aligned: vector loads, F bodies, vector stores."""
        plan, b = self.plan, self.b
        self.fast = True
        for name in (*plan.vector_reads, *sorted(plan.owned_read)):
            load = b.load(self._vector_ptr(name), typ=self._vector_type(name), align=plan.alignment(name))
            self.vectors[name] = load
        for name in plan.owned:
            dt = self.plan.dtypes[name]
            value_ty = F32 if dt.name in ("f16", "bf16") else I1 if dt.kind == "b" else storage_type(dt)
            for k in range(plan.factor):
                value_slot = self.alloca_builder.alloca(value_ty, name=f"{name}.own{k}")
                flag_slot = self.alloca_builder.alloca(I1, name=f"{name}.set{k}")
                b.store(ir.Constant(I1, 0), flag_slot)
                if name in plan.owned_read:
                    b.store(self.from_storage(b.extract_element(self.vectors[name], ir.Constant(I64, k)), dt),
                            value_slot)
                self.owned_values[(name, k)] = value_slot
                self.owned_flags[(name, k)] = flag_slot
        for k in range(plan.factor):
            self.lane = k
            self.logical = b.add(self.base, ir.Constant(I64, k), flags=["nuw"])
            self._lower_one_logical_thread(f"coarse.fast{k}.end")
            b = self.b
        for name in plan.owned:
            self._flush_owned(name)
        self.b.ret_void()
        self.fast = False

    def _flush_owned(self, name: str) -> None:
        plan, b = self.plan, self.b
        dt = plan.dtypes[name]
        flags = [b.load(self.owned_flags[(name, k)]) for k in range(plan.factor)]
        every = flags[0]
        for flag in flags[1:]:
            every = b.and_(every, flag)
        with b.if_else(every) as (all_stored, some_stored):
            with all_stored:
                vector: ir.Value = ir.Constant(self._vector_type(name), ir.Undefined)
                for k in range(plan.factor):
                    raw = self.to_storage(b.load(self.owned_values[(name, k)]), dt)
                    vector = b.insert_element(vector, raw, ir.Constant(I64, k))
                b.store(vector, self._vector_ptr(name), align=plan.alignment(name))
            with some_stored:
                base_ptr = b.extract_value(self.param_slices[name], 0)
                for k in range(plan.factor):
                    with b.if_then(flags[k]):
                        index = b.add(self.base, ir.Constant(I64, k), flags=["nuw"])
                        ptr = b.gep(base_ptr, [index], inbounds=True, source_etype=storage_type(dt))
                        self.store_elem(ptr, dt, b.load(self.owned_values[(name, k)]))

    def lower_slow(self) -> None:
        """A partial tail or a misaligned buffer: the body as written, once per logical thread, every check."""
        b = self.b
        for k in range(self.plan.factor):
            self.logical = b.add(self.base, ir.Constant(I64, k), flags=["nuw"])
            self._lower_one_logical_thread(f"coarse.slow{k}.end")
            b = self.b
        b.ret_void()

    def _lower_one_logical_thread(self, label: str) -> None:
        done = self.fn.append_basic_block(label)
        self.return_block = done
        self.live_witnesses = set()
        self.live_indices = set()
        self.stmts(self.func.body)
        if not self.b.block.is_terminated:
            self.b.branch(done)
        self.b.position_at_end(done)
        self.return_block = None

    # -- what changes per logical thread ---------------------------------------------------------------------
    def stmt(self, s: n.Stmt) -> None:
        if self.fast and isinstance(s, n.ElemSet):
            param = _elem_param(s.elem, self.plan.elem_locals, {}, set())
            if param is None and isinstance(s.elem, (n.GetMut, n.Walrus)):
                param = self._param_of(s.elem)
            if param is not None:
                elem = self.expr(s.elem)
                value = self.expr(s.value)
                assert isinstance(s.elem.ty, ElemMutTy)
                if s.elem.ty.optional:
                    self.trap_if_not(self.b.extract_value(elem, 0))
                self.b.store(value, self.owned_values[(param, self.lane)])
                self.b.store(ir.Constant(I1, 1), self.owned_flags[(param, self.lane)])
                return
        super().stmt(s)
        if isinstance(s, n.Assign) and any(s is top for top in self.func.body):
            if s.name in self.plan.witness_locals:
                self.live_witnesses.add(s.name)
            elif s.name in self.plan.index_locals:
                self.live_indices.add(s.name)

    def _param_of(self, e: n.Expr) -> str | None:
        if isinstance(e, n.Walrus):
            e = e.value
        if isinstance(e, n.GetMut) and isinstance(e.array, n.Var) and e.array.name in self.plan.owned:
            return e.array.name
        return None

    def e_ElemGet(self, e: n.ElemGet) -> ir.Value:
        if self.fast:
            param = _elem_param(e.elem, self.plan.elem_locals, {}, set()) or self._param_of(e.elem)
            if param is not None:
                elem = self.expr(e.elem)
                assert isinstance(e.elem.ty, ElemMutTy)
                if e.elem.ty.optional:
                    self.trap_if_not(self.b.extract_value(elem, 0))
                return self.b.load(self.owned_values[(param, self.lane)])
        return super().e_ElemGet(e)

    def e_GetMut(self, e: n.GetMut) -> ir.Value:
        name = self._param_of(e)
        if self.fast and name is not None and _is_witness(e.index, self.live_witnesses):
            b = self.b  # in bounds: base + F <= len(c) was tested on entry to the fast path
            ptr = b.gep(b.extract_value(self.param_slices[name], 0), [self.logical],
                        source_etype=storage_type(self.plan.dtypes[name]))
            out = b.insert_value(ir.Constant(ELEM, ir.Undefined), ir.Constant(I1, 1), 0)
            return b.insert_value(out, ptr, 1)
        return super().e_GetMut(e)

    def e_Load(self, e: n.Load) -> ir.Value:
        if (
            self.fast
            and isinstance(e.array, n.Var)
            and e.array.name in self.vectors
            and e.array.name in self.plan.vector_reads
            and _is_at_index(e.index, self.live_witnesses, self.live_indices)
        ):
            raw = self.b.extract_element(self.vectors[e.array.name], ir.Constant(I64, self.lane))
            return self.from_storage(raw, self.plan.dtypes[e.array.name])
        return super().e_Load(e)

    def e_Intrinsic(self, e: n.Intrinsic) -> ir.Value:
        if e.name == "index_1d":
            return self.b.insert_value(ir.Constant(INDEX, [ir.Constant(I1, 1), ir.Constant(I64, 0)]), self.logical, 1)
        return super().e_Intrinsic(e)
