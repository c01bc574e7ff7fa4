"""A generator over the kernel language, built from the product's own tables, for the parity rule.

Tile kernels come from the op table (`safekernels.tile.ops.OPS`): every op x every dtype x tile shapes from the
smallest legal one up (a ragged edge, 16-row tiles) x warp counts; matmuls over their dtypes and shapes; one
out-of-range tile index for each load form; the scalar forms of `SCALAR_FORMS` (bool arithmetic, `min`, `max`,
`abs`), numbers carried by loops (`LOOP_FORMS`) and `z.tile_shape`.  SIMT kernels come from the statement forms
below (arithmetic, `math.*`, casts, warp collectives) x every scalar dtype x block sizes that are not multiples of
32 (a partial last warp).  Each generated kernel is one small module file (the compilers read kernels' source):

    @tile.kernel(num_warps=1)                        @simt.kernel
    def generated(z: Partition[Any],                 @simt.launch_contract(block=80)
                  x: Tensor[Any], y: Tensor[Any]):   def generated(a: Slice[i8], b: Slice[i8], c: DisjointSlice[i8]):
        a = tile.load_like(x, z)                         idx = thread.index_1d()
        b = tile.load_like(y, z)                         i = idx.get()
        z.store(a // b)                                  x = a[i]; y = b[i]
                                                         if (o := c.get_mut(idx)) is not None:
                                                             o.set(warp.shfl_down(x, 1))

What the table says is recorded with each case (`expect`: the op table's typing rule accepts or refuses the
operands), and each case knows how its values compare (`exact`, or a float bound in ulp of its dtype; see
docs/numerics.md).  `tile_cases()` / `simt_cases()` list everything; `sample()` picks a deterministic subset that
still touches every op (CI), and `SAFEKERNELS_PARITY_LONG=1` asks for all of it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from safekernels.dtypes import ALL_DTYPES, DType, dtype_of
from safekernels.errors import ShapeError
from safekernels.tile.ops import OPS, SCAN_OPS, TileType

LONG = os.environ.get("SAFEKERNELS_PARITY_LONG", "") not in ("", "0")

#: Every dtype the language has, by name (tile tensors take all of them; SIMT slices all but fp8).
DTYPES: tuple[str, ...] = tuple(dtype_of(c).name for c in ALL_DTYPES)
FP8 = ("f8e4m3", "f8e5m2")
SIMT_DTYPES: tuple[str, ...] = tuple(d for d in DTYPES if d not in FP8)


@dataclass(frozen=True)
class TileShape:
    """A tensor shape and the partition's tile shape (the output's; inputs are whole tensors)."""

    label: str
    shape: tuple[int, ...]
    tile: tuple[int, ...]


#: Smallest legal tiles, a ragged last tile, 16-row tiles, a square one for transposes.
TILE_SHAPES: tuple[TileShape, ...] = (
    TileShape("16", (16,), (16,)),
    TileShape("200/64", (200,), (64,)),
    TileShape("16x16", (16, 16), (16, 16)),
    TileShape("40x48/16x32", (40, 48), (16, 32)),
)
WARPS: tuple[int | None, ...] = (None, 1, 4)


@dataclass(frozen=True)
class Case:
    """One generated kernel."""

    track: str  # "tile" | "simt"
    op: str  # the op-table entry or statement form
    dtype: str  # operand dtype ("src->dst" for astype)
    shape: str  # TileShape label, matmul MxNxK, or "block=80" for SIMT
    warps: int | None
    source: str
    args: tuple[Any, ...]  # tile: per parameter (shape, tile shape | None, dtype name); simt: (n, block)
    grid_rank: int
    expect: str  # "accept" | "reject": what the op table's typing rule says
    compare: str  # "exact", "ulp:N" (ulp of the result dtype), "sum:N" (N-term sum, f32 rounding)
    trap: bool = False  # the program must trap (out-of-range tile index)

    @property
    def cell(self) -> tuple[str, str, str]:
        return (self.op, self.dtype, self.shape)

    @property
    def name(self) -> str:
        w = "" if self.warps is None else f" w{self.warps}"
        return f"{self.track}:{self.op}[{self.dtype}]@{self.shape}{w}"


# -- tile forms -------------------------------------------------------------------------------------------------

_OPERATOR = {
    "add": "a + b", "sub": "a - b", "mul": "a * b", "truediv": "a / b", "floordiv": "a // b", "mod": "a % b",
    "bitand": "a & b", "bitor": "a | b", "bitxor": "a ^ b", "lshift": "a << b", "rshift": "a >> b",
    "lt": "a < b", "le": "a <= b", "gt": "a > b", "ge": "a >= b", "eq": "a == b", "ne": "a != b",
    "neg": "-a", "invert": "~a",
}  # fmt: skip
_MATH = ("exp", "exp2", "log", "sqrt", "rsqrt", "tanh", "sin", "cos")


def _t(shape: tuple[int, ...], dt: str) -> TileType:
    return TileType(shape, dtype_of(dt))


def _forms(ts: TileShape, dt: str) -> Iterator[tuple[str, str, str, Any]]:
    """(op, dtype label, expression, a thunk giving the result TileType or raising the table's refusal)."""
    t = _t(ts.tile, dt)
    shp = ts.tile
    rank = len(shp)
    for op, text in _OPERATOR.items():
        unary = op in ("neg", "invert")
        yield op, dt, text, (lambda spec=OPS[op], unary=unary: spec.infer(t) if unary else spec.infer(t, t))
    for op in ("maximum", "minimum"):
        yield op, dt, f"tile.{op}(a, b)", (lambda op=op: OPS[op].infer(t, t))
    yield "where", dt, "tile.where(a < b, a, b)", (lambda: OPS["where"].infer(OPS["lt"].infer(t, t), t, t))
    for op in _MATH:
        yield op, dt, f"tile.{op}(a)", (lambda op=op: OPS[op].infer(t))
    for dst in DTYPES:
        cast = OPS["astype"].infer
        yield "astype", f"{dt}->{dst}", f"a.astype({dst})", (lambda dst=dst, cast=cast: cast(t, dtype=dtype_of(dst)))
    for ax in range(rank):
        for op in ("sum", "max", "min", "argmax", "argmin"):
            expr = f"tile.broadcast_to(tile.{op}(a, axis={ax}, keepdims=True), {shp})"
            yield op, dt, expr, (lambda op=op, ax=ax: OPS[op].infer(t, axis=ax, keepdims=True))
        for sop in SCAN_OPS:
            scan = OPS["scan"].infer
            expr = f"tile.scan(a, axis={ax}, op={sop!r})"
            yield "scan", dt, expr, (lambda ax=ax, sop=sop, scan=scan: scan(t, axis=ax, op=sop))
    flat = (int(np.prod(shp)),)
    yield "reshape", dt, f"tile.reshape(tile.reshape(a, {flat}), {shp})", (lambda: OPS["reshape"].infer(t, shape=flat))
    if rank == 2 and shp[0] == shp[1]:
        yield "transpose", dt, "tile.transpose(a)", (lambda: OPS["transpose"].infer(t))
    one = (1,) * rank
    bcast = OPS["broadcast_to"].infer
    expr = f"tile.broadcast_to(x.load({(0,) * rank}, {one}), {shp})"  # element 0 of x everywhere
    yield "broadcast_to", dt, expr, (lambda: bcast(_t(one, dt), shape=shp))
    add, full, iota, zeros = OPS["add"].infer, OPS["full"].infer, OPS["iota"].infer, OPS["zeros"].infer
    yield "zeros", dt, f"tile.zeros({shp}, {dt}) + a", (lambda: add(zeros(shape=shp, dtype=dtype_of(dt)), t))
    yield "full", dt, f"tile.full({shp}, 3, {dt}) + a", (lambda: add(full(shape=shp, dtype=dtype_of(dt), value=3), t))
    if rank == 1:
        yield "iota", dt, f"tile.iota({shp[0]}, {dt}) + a", (lambda: add(iota(n=shp[0], dtype=dtype_of(dt)), t))


def _float_bound(op: str, dt: str, result: DType, ts: TileShape) -> str:
    if not result.is_float or op in ("astype", "reshape", "transpose", "where", "maximum", "minimum", "neg"):
        return "exact"
    if op in _MATH:
        return "ulp:4" if result.name in ("f32", "f64") else "ulp:1"
    if op in ("sum", "scan"):
        return f"sum:{max(ts.tile)}"
    if dt in FP8 or result.name in FP8:
        return "ulp:1"
    return "exact"  # + - * / full iota: correctly rounded on both (f16/bf16: f32 then one rounding)


_TILE_HEADER = """from typing import Any

from safekernels import tile
from safekernels.dtypes import *  # noqa: F403
from safekernels.tile import AtomicTensor, Partition, Tensor
"""


def _tile_source(warps: int | None, params: str, body: list[str]) -> str:
    deco = "@tile.kernel" if warps is None else f"@tile.kernel(num_warps={warps})"
    return _TILE_HEADER + f"\n\n{deco}\ndef generated({params}) -> None:\n" + "".join(f"    {b}\n" for b in body)


def tile_cases() -> list[Case]:
    out: list[Case] = []
    n = 0
    for ts in TILE_SHAPES:
        rank = len(ts.shape)
        for dt in DTYPES:
            for op, label, expr, result_of in _forms(ts, dt):
                try:
                    result: DType = result_of().dtype
                    expect = "accept"
                except (TypeError, ShapeError, ValueError, KeyError):
                    result, expect = dtype_of(dt), "reject"
                warps = WARPS[n % len(WARPS)]
                n += 1
                source = _tile_source(
                    warps,
                    "z: Partition[Any], x: Tensor[Any], y: Tensor[Any]",
                    ["a = tile.load_like(x, z)", "b = tile.load_like(y, z)", f"z.store({expr})"],
                )
                args = ((ts.shape, ts.tile, result.name), (ts.shape, None, dt), (ts.shape, None, dt))
                compare = _float_bound(op, dt, result, ts) if expect == "accept" else "exact"
                out.append(Case("tile", op, label, ts.label, warps, source, args, rank, expect, compare))
    out.extend(_matmul_cases())
    out.extend(_trap_cases())
    out.extend(_scalar_cases())
    return out


#: Scalar forms (docs/numerics.md "Scalars"): family -> form -> (expression of `n = x.shape[0]`, `b = tile.bid(0)`
#: and literals, "int" | "float" | "reject").  Float forms stay on dyadic values, so f32 on the GPU and Python's
#: f64 on the CPU round to the same stored value.
SCALAR_FORMS: dict[str, dict[str, tuple[str, str]]] = {
    "scalar-bool": {
        "bool*int": ("(n > b * 50) * (n - b) + (b >= 1)", "int"),
        "bool&|^bool": ("((b > 0) & (n > 100)) * 7 + ((b < 2) | (n < 20)) - ((b == 1) ^ (n > 30))", "int"),
        "bool*float": ("(b > 1) * 2.5 + (n > 30) / 4", "float"),
        "int(bool)": ("int(b > 0) * 3 + int(n == 16)", "int"),
        "bool+bool": ("(b > 0) + (n > 1)", "reject"),
        "-bool": ("-(b > 0)", "reject"),
    },
    "scalar-minmax": {
        "min": ("min(n, b * 70 + 3, 150)", "int"),
        "max": ("max(b - 2, -n, 1 - b * 3)", "int"),
        "abs": ("abs(b - 2) * 10 + abs(n - 100)", "int"),
        "min(float)": ("min(b * 0.75, n / 64, 1.5)", "float"),
        "max(float)": ("max(b * -0.5, 1 - b, n * 0.25)", "float"),
        "abs(float)": ("abs(b * -1.25 + 0.5)", "float"),
        "min(bool)": ("min(b > 0, n)", "reject"),
    },
}
_SCALAR_DTYPES = {"int": ("i32", "i64", "f32"), "float": ("f32", "f64", "f16"), "reject": ("i32",)}
#: Numbers carried by a `for` loop (bound before it, reassigned in it): statements leaving the result in `v`.
LOOP_FORMS: dict[str, tuple[tuple[str, ...], str]] = {
    "counter": (("v = 0", "for k in range(n // 8):", "    v = v + 1"), "int"),
    "uses the index": (("v = 1", "for k in range(b + 2):", "    v = v * 2 + k"), "int"),
    "float": (("v = 0.5", "for k in range(3):", "    v = v * 1.5 + b"), "float"),
    "two carried": (("u = 0", "w = 1", "for k in range(4):", "    u = u + w", "    w = w * 3", "v = u - w"), "int"),
    "zero trips": (("v = 7", "for k in range(b - b):", "    v = 0"), "int"),
    "nested": (("v = 0", "for i in range(b + 1):", "    for j in range(3):", "        v = v + i * j"), "int"),
    # the loop variable keeps its last value after the loop, and the value bound before it on zero trips
    "loop variable after": (("v = 5", "for v in range(b + 2):", "    pass"), "int"),
    "loop variable, zero trips": (("v = 7", "for v in range(b - b):", "    pass"), "int"),
    # a tuple bound before the loop is carried element by element (pair swaps and unpacked pairs)
    "tuple carried": (("p = (0, 1)", "for k in range(b + 3):", "    p = (p[1], p[0] + p[1])", "v = p[0]"), "int"),
    "pair unpacked": (("a, c = 0.5, 1.0", "for k in range(3):", "    a, c = c, a + c * b", "v = a"), "float"),
    # Python's range with a negative step (literal and run-time), as the CPU executor runs it
    "negative step": (("v = 0", "for k in range(b + 9, -1, -3):", "    v = v * 2 + k"), "int"),
    "run-time negative step": (("v = 0", "for k in range(b + 5, -4, b - n):", "    v = v * 2 + k"), "int"),
}


def _scalar_cases() -> Iterator[Case]:
    """Each scalar form stored as a `tile.full` of the output's tile, per block (so `b` varies), and
    `z.tile_shape` as a load's shape and a number, for every dtype."""
    for ts in TILE_SHAPES:
        rank = len(ts.shape)
        for family, forms in SCALAR_FORMS.items():
            for form, (expr, kind) in forms.items():
                for dt in _SCALAR_DTYPES[kind]:
                    body = ["n = x.shape[0]", "b = tile.bid(0)", f"z.store(tile.full({ts.tile}, {expr}, {dt}))"]
                    source = _tile_source(None, "z: Partition[Any], x: Tensor[Any]", body)
                    args = ((ts.shape, ts.tile, dt), (ts.shape, None, dt))
                    expect = "reject" if kind == "reject" else "accept"
                    yield Case("tile", family, dt, f"{ts.label} {form}", None, source, args, rank, expect, "exact")
        for form, (statements, kind) in LOOP_FORMS.items():
            for dt in _SCALAR_DTYPES[kind]:
                body = ["n = x.shape[0]", "b = tile.bid(0)", *statements, f"z.store(tile.full({ts.tile}, v, {dt}))"]
                source = _tile_source(None, "z: Partition[Any], x: Tensor[Any]", body)
                args = ((ts.shape, ts.tile, dt), (ts.shape, None, dt))
                yield Case("tile", "scalar-loop", dt, f"{ts.label} {form}", None, source, args, rank, "accept", "exact")
        index = "(" + ", ".join(f"tile.bid({i})" for i in range(rank)) + ",)"
        for dt in DTYPES:
            t = _t(ts.tile, dt)
            try:
                OPS["add"].infer(t, t)
                expect = "accept"
            except (TypeError, ShapeError):
                expect = "reject"
            body = [f"z.store(x.load({index}, z.tile_shape) + z.tile_shape[{rank - 1}] % 3)"]
            source = _tile_source(None, "z: Partition[Any], x: Tensor[Any]", body)
            args = ((ts.shape, ts.tile, dt), (ts.shape, None, dt))
            yield Case("tile", "tile_shape", dt, ts.label, None, source, args, rank, expect, "exact")


#: The last shape is no multiple of 16: f16/bf16 run it on the FMA units, as f32 (not the tensor cores).
_MATMUL_SHAPES = (((16, 16, 16), None), ((32, 32, 16), None), ((64, 64, 32), 4), ((16, 32, 32), 1), ((8, 24, 8), None))
#: `input_precision="tf32"` (f32 only): the tensor-core shapes above and one they cannot tile (the FMA path).
_TF32_SHAPES = (*_MATMUL_SHAPES, ((8, 24, 12), None))


def _matmul_cases() -> Iterator[Case]:
    for dt in ("f16", "bf16", "f32", *FP8, "i8", "f64"):
        for precision in ("ieee", "tf32") if dt == "f32" else ("ieee",):
            for (m, n, k), warps in _TF32_SHAPES if precision == "tf32" else _MATMUL_SHAPES:
                try:
                    OPS["matmul"].infer(
                        _t((m, k), dt), _t((k, n), dt), _t((m, n), "f32"), input_precision=precision
                    )
                    # a target rule of the front end (docs/numerics.md): fp8 matmuls run in the warpgroup form only
                    expect = "reject" if dt in FP8 else "accept"
                except (TypeError, ShapeError):
                    expect = "reject"
                keyword = ', input_precision="tf32"' if precision == "tf32" else ""
                source = _tile_source(
                    warps,
                    "z: Partition[Any], x: Tensor[Any], y: Tensor[Any]",
                    [
                        f"acc = tile.zeros(({m}, {n}), f32)",
                        f"a = x.load((tile.bid(0), 0), ({m}, {k}))",
                        f"b = y.load((0, tile.bid(1)), ({k}, {n}))",
                        f"z.store(tile.matmul(a, b, acc{keyword}))",
                    ],
                )
                args = (((2 * m, 2 * n), (m, n), "f32"), ((2 * m, k), None, dt), ((k, 2 * n), None, dt))
                label = f"{m}x{n}x{k}" + ("/tf32" if precision == "tf32" else "")
                yield Case("tile", "matmul", dt, label, warps, source, args, 2, expect, f"sum:{k}")
    yield from _fp8_main_loop_cases()


def _fp8_main_loop_cases() -> Iterator[Case]:
    """fp8 matmuls in the warpgroup GEMM main-loop form (B K-major, BM 64 per warpgroup, BK 128): accepted with
    the compiler's warps or 4, refused (a target rule) with 1 warp.  Values within the fp8 accumulation bound."""
    m, n, k, bk = 64, 64, 256, 128
    for dt in FP8:
        for warps in (None, 4, 1):
            source = _tile_source(
                warps,
                "z: Partition[Any], x: Tensor[Any], y: Tensor[Any]",
                [
                    f"acc = tile.zeros(({m}, {n}), f32)",
                    f"for k in range(x.shape[1] // {bk}):",
                    f"    a = x.load((tile.bid(0), k), ({m}, {bk}))",
                    f"    b = tile.transpose(y.load((tile.bid(1), k), ({n}, {bk})))",
                    "    acc = tile.matmul(a, b, acc)",
                    "z.store(acc)",
                ],
            )
            args = (((2 * m, 2 * n), (m, n), "f32"), ((2 * m, k), None, dt), ((2 * n, k), None, dt))
            expect = "reject" if warps == 1 else "accept"
            yield Case("tile", "matmul", dt, f"{m}x{n}x{k}/main-loop", warps, source, args, 2, expect, f"fp8sum:{k}")


#: Every load form with a tile index one past the last tile: must trap on both executors.
_TRAP_FORMS = {
    "x.load": "x.load((tile.bid(0) + 1,), (64,))",
    "x.partition.load": "x.partition((64,)).load((tile.bid(0) + 1,))",
    "x.load(negative)": "x.load((tile.bid(0) - 1,), (64,))",
    "load_like(short x)": "tile.load_like(x, z)",
}


def _trap_cases() -> Iterator[Case]:
    for form, expr in _TRAP_FORMS.items():
        short = form == "load_like(short x)"
        source = _tile_source(None, "z: Partition[f32], x: Tensor[f32]", [f"z.store({expr})"])
        if short:  # without the opt-out the launch refuses the shorter `x` (ShapeError) before any tile runs
            source = source.replace("@tile.kernel\n", '@tile.kernel(independent_shapes=("x",))\n')
        x_shape = (64,) if short else (128,)
        args = (((128,), (64,), "f32"), (x_shape, None, "f32"))
        yield Case("tile", "trap", "f32", form, None, source, args, 1, "accept", "exact", trap=True)


# -- SIMT forms -------------------------------------------------------------------------------------------------

#: Statement form -> the value stored (x = a[i], y = b[i], both of the case's dtype).
SIMT_FORMS: dict[str, str] = {
    "add": "x + y", "sub": "x - y", "mul": "x * y", "truediv": "x / y", "floordiv": "x // y", "mod": "x % y",
    "bitand": "x & y", "bitor": "x | y", "bitxor": "x ^ y", "lshift": "x << 3", "rshift": "x >> 1",
    "neg": "-x", "min": "min(x, y)", "max": "max(x, y)", "abs": "abs(x)",
    "select": "x if x < y else y", "cast_f32": "DT(f32(x))", "cast_i32": "DT(i32(x))",
    "math.sqrt": "math.sqrt(x)", "math.exp": "math.exp(x)", "math.sin": "math.sin(x)",
    "shfl_down": "warp.shfl_down(x, 1)", "shfl_up": "warp.shfl_up(x, 3)", "shfl_xor": "warp.shfl_xor(x, 5)",
    "shfl_idx": "warp.shfl_idx(x, 7)", "reduce_sum": "warp.reduce_sum(x)", "reduce_max": "warp.reduce_max(x)",
    "reduce_min": "warp.reduce_min(x)",
    # amounts past the width (0, or the sign fill) and division by -1 (MIN wraps): undefined in LLVM, so a
    # constant operand once let it delete the store
    "shift past width": "(x << DT(70)) | (x >> DT(70))", "floordiv(-1)": "x // DT(-1) + x % DT(-1)",
}  # fmt: skip
SIMT_BLOCKS: tuple[int, ...] = (32, 80, 100, 33)

_SIMT_HEADER = """import math

from safekernels import simt
from safekernels.dtypes import *  # noqa: F403
from safekernels.simt import DisjointSlice, Slice, thread, warp
"""


def simt_cases() -> list[Case]:
    out: list[Case] = []
    for form, expr in SIMT_FORMS.items():
        for dt in SIMT_DTYPES:
            for b in SIMT_BLOCKS:
                body = expr.replace("DT", dt)
                source = (
                    _SIMT_HEADER
                    + f"\n\n@simt.kernel\n@simt.launch_contract(block={b})\n"
                    + f"def generated(a: Slice[{dt}], b: Slice[{dt}], c: DisjointSlice[{dt}]) -> None:\n"
                    + "    idx = thread.index_1d()\n    i = idx.get()\n    x = a[i]\n    y = b[i]\n"
                    + f"    if (o := c.get_mut(idx)) is not None:\n        o.set({body})\n"
                )
                compare = "ulp:4" if form.startswith("math.") else "exact"
                out.append(Case("simt", form, dt, f"block={b}", None, source, (2 * b, b), 1, "unknown", compare))
    return out


# -- files, data, sampling -------------------------------------------------------------------------------------


def write(case: Case) -> Path:
    """The case's module file (named by its content, so a re-run reuses it)."""
    folder = Path(tempfile.gettempdir()) / "safekernels_language_parity"
    folder.mkdir(exist_ok=True)
    path = folder / f"gen_{hashlib.sha256(case.source.encode()).hexdigest()[:16]}.py"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(case.source)
        tmp.replace(path)
    return path


def load(case: Case) -> Any:
    """The generated kernel object."""
    path = write(case)
    name = f"sk_language_parity_{path.stem}"
    module: ModuleType | None = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module.generated


def data(shape: tuple[int, ...], dt: DType, role: str, seed: int) -> np.ndarray:
    """Host values for an input: `x` spans both signs (floats in [-2, 2]), `y` never holds an integer 0 (it is a
    divisor) and small shift amounts; floats come back as f32 for bf16/fp8 (stored rounded)."""
    rng = np.random.default_rng(seed + (0 if role == "x" else 1))
    if dt.name == "bool":
        return rng.random(shape) < 0.5
    if dt.is_float:
        lo, hi = (-2.0, 2.0) if role == "x" else (0.25, 2.0)
        values = rng.uniform(lo, hi, shape) * np.where(rng.random(shape) < 0.3, -1, 1)
        return values.astype(np.float32 if dt.storage.kind != "f" or dt.name == "bf16" else dt.storage)
    info = np.iinfo(dt.storage)
    if role == "x":
        return rng.integers(max(info.min, -100), min(info.max, 100), shape).astype(dt.storage)
    small = rng.integers(1, 8, shape)
    sign = np.where((rng.random(shape) < 0.3) & (info.min < 0), -1, 1)
    return (small * sign).astype(dt.storage)


def sample(cases: Sequence[Case], per_op: int, seed: int = 21) -> list[Case]:
    """A deterministic subset touching every op: up to `per_op` cases of each op (every case when LONG)."""
    if LONG:
        return list(cases)
    by_op: dict[str, list[Case]] = {}
    for c in cases:
        by_op.setdefault(c.op, []).append(c)
    out: list[Case] = []
    for op in sorted(by_op):
        group = by_op[op]
        step = max(1, len(group) // per_op)
        offset = int(hashlib.sha256(f"{seed}{op}".encode()).hexdigest(), 16) % step
        out.extend(group[offset::step][:per_op])
    return out


def coverage(cases: Sequence[Case]) -> dict[str, int]:
    """Counts for the docs: kernels, distinct op x dtype x shape cells, ops, and the accepted/refused split."""
    return {
        "kernels": len(cases),
        "cells": len({c.cell for c in cases}),
        "ops": len({c.op for c in cases}),
        "dtypes": len({c.dtype.split("->")[0] for c in cases}),
        "table_accepts": sum(c.expect == "accept" for c in cases),
        "table_refuses": sum(c.expect == "reject" for c in cases),
    }
