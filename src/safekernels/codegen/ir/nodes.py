"""Nodes of the typed kernel IR (expressions and statements).

The IR is a structured tree (no CFG): lowering maps `If`/`While`/`ForRange` straight onto LLVM blocks.  Every
expression carries `ty`; implicit conversions the front end decided on are explicit `Convert` nodes, so
lowering
is a mechanical translation.  `loc` is `(line, column)` in the kernel's file, kept for debugging output.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from safekernels.codegen.ir.types import Ty

Loc = tuple[int, int]


@dataclass
class Expr:
    ty: Ty


@dataclass
class Const(Expr):
    value: int | float | bool


@dataclass
class Var(Expr):
    name: str


@dataclass
class Param(Expr):
    """A kernel or helper parameter by position (slices expand to pointer + length in lowering)."""

    name: str


@dataclass
class Convert(Expr):
    """Numeric conversion of `value` to `ty` (int<->float, width changes, to/from bool, f16/bf16 rounding)."""

    value: Expr
    round_to: str | None = None  # "f16"/"bf16": round an f32 through that storage type (casts `f16(x)`)


@dataclass
class BinOp(Expr):
    op: str  # + - * / // % ** & | ^ << >>
    left: Expr
    right: Expr


@dataclass
class UnaryOp(Expr):
    op: str  # - ~ not
    operand: Expr


@dataclass
class Compare(Expr):
    op: str  # < <= > >= == !=
    left: Expr
    right: Expr


@dataclass
class BoolOp(Expr):
    op: str  # and / or (short-circuit)
    values: list[Expr]


@dataclass
class Select(Expr):
    cond: Expr
    if_true: Expr
    if_false: Expr


@dataclass
class Intrinsic(Expr):
    """A fixed operation by name: special registers, min/max/abs, warp ops, math functions, is-none tests.

    `name` is a key of `codegen.lowering.intrinsics`; args are already converted to the types it expects.
    """

    name: str
    args: list[Expr] = field(default_factory=list)


@dataclass
class Len(Expr):
    array: Expr


@dataclass
class Load(Expr):
    """`array[index]` of a parameter slice or a shared array; `checked` adds the trap on out-of-bounds."""

    array: Expr
    index: Expr
    checked: bool


@dataclass
class GetMut(Expr):
    """`DisjointSlice.get_mut(witness)` (optional result) or `get_unchecked_mut(i)` (checked=False)."""

    array: Expr
    index: Expr
    checked: bool


@dataclass
class ElemGet(Expr):
    elem: Expr


@dataclass
class Atomic(Expr):
    op: str  # add max min exchange and or xor
    array: Expr
    index: Expr
    value: Expr
    order: str = "relaxed"  # relaxed acquire release acq_rel seq_cst
    scope: str = "device"  # block device system


@dataclass
class CompareExchange(Expr):
    """`AtomicSlice.compare_exchange(i, expected, desired)`: returns the old value (stored iff it equalled
    `expected`)."""

    array: Expr
    index: Expr
    expected: Expr
    desired: Expr
    order: str = "relaxed"
    scope: str = "device"


@dataclass
class Walrus(Expr):
    name: str
    value: Expr


@dataclass
class CallHelper(Expr):
    helper: str  # mangled helper name
    args: list[Expr]


@dataclass
class Stmt:
    loc: Loc


@dataclass
class Assign(Stmt):
    name: str
    value: Expr


@dataclass
class ExprStmt(Stmt):
    value: Expr


@dataclass
class ElemSet(Stmt):
    elem: Expr
    value: Expr


@dataclass
class Store(Stmt):
    """`shared[index] = value` (shared arrays, under `unsafe`)."""

    array: Expr
    index: Expr
    value: Expr
    checked: bool


@dataclass
class Print(Stmt):
    """Device `print`: `vprintf(format, args)`; `format` is the rewritten C format (`ll` on integer
    conversions, newline appended), args already widened to i64 / f64."""

    format: str
    args: list[Expr]


@dataclass
class Assert(Stmt):
    """`assert cond, "msg"`: when `cond` is false, record assert `index` and trap (`__assertfail`)."""

    cond: Expr
    index: int
    message: str


@dataclass
class If(Stmt):
    cond: Expr
    body: list[Stmt]
    orelse: list[Stmt]


@dataclass
class While(Stmt):
    cond: Expr
    body: list[Stmt]


@dataclass
class ForRange(Stmt):
    var: str
    start: Expr
    stop: Expr
    step: Expr
    body: list[Stmt]


@dataclass
class Break(Stmt):
    pass


@dataclass
class Continue(Stmt):
    pass


@dataclass
class Return(Stmt):
    value: Expr | None


@dataclass
class SharedDecl:
    symbol: str
    elem: str  # dtype name
    length: int


@dataclass
class Function:
    """A kernel or a monomorphized `@simt.device` helper."""

    name: str
    params: list[tuple[str, Ty]]
    locals: dict[str, Ty]
    body: list[Stmt]
    return_ty: Ty | None  # None for kernels and helpers that return nothing
    is_kernel: bool
    path: str = ""  # source file and `def` line, for line info
    line: int = 0


@dataclass
class Module:
    kernel: Function
    helpers: list[Function]
    shared: list[SharedDecl]
    block: tuple[int, int, int] | None  # exact contract block -> .reqntid
    uses_math: bool
    abi: list[tuple[str, str, str]] = field(default_factory=list)  # kernel params: (name, kind, dtype name)
    asserts: list[tuple[str, int, int, str]] = field(default_factory=list)  # (path, line, column, message)
    path: str = ""  # the kernel's source file (line info)
    first_line: int = 0  # the kernel's `def` line
    #: (path, line, column) of each value converted where Python keeps its own type (a conditional expression
    #: whose arms differ, an assignment to a local of a wider joined type, a typed accumulator under `+=`) -> the
    #: dtype name (None where helper instantiations disagree): what the CPU executor converts it to
    site_types: dict[tuple[str, int, int], str | None] = field(default_factory=dict)
