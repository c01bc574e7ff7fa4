"""The loop split at a mask's all-true range (`codegen.tile.loop_split`), checked without a GPU.

The split point the pass inserts before the loop is evaluated here with the IR's scalar semantics (typed integer
arithmetic, Python floor division) for many grid positions, sequence lengths and both values of `causal`, and
compared with the mask itself evaluated by numpy: every iteration before the point must have an all-true mask,
and for the causal attention mask the point is the diagonal exactly (no masked-free iteration is given up).  The
mask-free copy of the body has no compare or select left; the PTX of the plain attention program has two loop
bodies whose per-score compares and selects are those of one; it assembles for sm_90a (and the example for
sm_80); a mask that could wrap its i32 arithmetic, one that depends on loaded data, and a bound that only
holds on a suffix are left masked.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pytest

from safekernels import tile
from safekernels.codegen.tile import loop_split
from safekernels.codegen.tile.frontend import build_tile_ir
from safekernels.codegen.tile.ir import ForOp, Op, ScalarType, TileKernelIR, Value
from safekernels.codegen.tile.loop_split import LoopSplit, split_loops
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.rewrites import rewrite_tile_ir
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f32, i32
from safekernels.tile import Partition, Tensor

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "examples")]

import attention_tile  # type: ignore[import-not-found,unused-ignore]  # noqa: E402

from bench.kernels import attention_plain as P  # noqa: E402

F32, BF16, I32 = dtype_of("f32"), dtype_of("bf16"), dtype_of("i32")


def _window(out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], n: i32, shift: i32, flag: i32) -> None:
    rows = tile.reshape(tile.iota(16, i32), (16, 1)) + shift
    cols = tile.reshape(tile.iota(32, i32), (1, 32))
    acc = tile.zeros((16, 32), f32)
    xt = x.load((tile.bid(0), 0), (16, 32))
    for j in range(n):
        acc = acc + tile.where((cols + j * 32 <= rows) | (flag == 0), xt, 0.0)
    out.store(acc)


def _data_mask(out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], n: i32) -> None:
    acc = tile.zeros((16, 32), f32)
    xt = x.load((tile.bid(0), 0), (16, 32))
    for j in range(n):
        acc = acc + tile.where(xt > j * 1.0, xt, 0.0)
    out.store(acc)


def _suffix(out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], n: i32) -> None:
    cols = tile.reshape(tile.iota(32, i32), (1, 32))
    acc = tile.zeros((16, 32), f32)
    xt = x.load((tile.bid(0), 0), (16, 32))
    for j in range(n):
        acc = acc + tile.where(cols <= j * 32, xt, 0.0)  # all-true from some j on: a suffix, not split
    out.store(acc)


def _wide(out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], n: i32) -> None:
    cols = tile.reshape(tile.iota(32, i32), (1, 32))
    limit = tile.bid(0) * 2147483648 + 100  # an index (i64) scalar, compared in the tile's i32
    acc = tile.zeros((16, 32), f32)
    xt = x.load((tile.bid(0), 0), (16, 32))
    for _ in range(n):
        acc = acc + tile.where(cols <= limit, xt, 0.0)
    out.store(acc)


window = tile.kernel(num_warps=4)(_window)
wide = tile.kernel(num_warps=4)(_wide)
data_mask = tile.kernel(num_warps=4)(_data_mask)
suffix = tile.kernel(num_warps=4)(_suffix)


def _attention_params(d: int, bm: int, rows: int = 4096) -> list[Any]:
    return (
        [param_info("out", "partition", BF16, (rows, d), (bm, d))]
        + [param_info(n, "tensor", BF16, (rows, d)) for n in "qkv"]
        + [param_info("seq", "scalar", I32), param_info("scale", "scalar", F32), param_info("causal", "scalar", I32)]
    )


def _small_params(*scalars: str) -> list[Any]:
    return [param_info("out", "partition", F32, (64, 32), (16, 32)), param_info("x", "tensor", F32, (64, 32))] + [
        param_info(s, "scalar", I32) for s in scalars
    ]


def _ir(
    fn: Any, params: list[Any], fast_math: bool = False, rewrite: bool = True
) -> tuple[TileKernelIR, loop_split.SplitCounts]:
    kir = build_tile_ir(fn, params, 1)
    if rewrite:  # the compiler's order: the mask becomes one compare against `where(flag, MAX, rows)` first
        rewrite_tile_ir(kir, fast_math=fast_math)
    return kir, split_loops(kir)


def _loop(kir: TileKernelIR) -> ForOp:
    return next(op for op in kir.body if isinstance(op, ForOp))


def _wrap(v: int, ty: Any) -> int:
    dt = ty.dtype
    if dt is None or dt.kind not in "iu" or dt.name == "bool":
        return v
    m = 1 << dt.bits
    v %= m
    return v - m if dt.kind == "i" and v >= m >> 1 else v


def _eval(ops: list[Op], env: dict[int, Any], params: list[Any], bid: int) -> None:
    """The top-level scalar ops, as the lowering computes them (floor division, wrapping to the result type)."""
    for op in ops:
        if isinstance(op, ForOp) or op.result is None or not isinstance(op.result.type, ScalarType):
            continue
        a: list[Any] = [env.get(x.id) for x in op.args]
        if op.kind == "const":
            r = op.attrs["value"]
        elif op.kind == "param":
            r = params[op.attrs["index"]]
        elif op.kind == "bid":
            r = bid
        elif op.kind in ("to_index", "scalar_cast"):
            r = int(a[0])
        elif op.kind == "scalar":
            sym = op.attrs["op"]
            ops2: dict[str, Callable[[int, int], Any]] = {
                "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
                "//": lambda x, y: x // y, "%": lambda x, y: x % y, "min": min, "max": max,
                "==": lambda x, y: x == y, ">=": lambda x, y: x >= y,
            }  # fmt: skip
            r = ops2[sym](a[0], a[1])
        else:
            continue
        env[op.result.id] = _wrap(int(r), op.result.type) if not isinstance(r, bool) else r


def _split_point(kir: TileKernelIR, params: list[Any], bid: int) -> tuple[int, int, int]:
    env: dict[int, Any] = {}
    _eval(kir.body, env, params, bid)
    loop = _loop(kir)
    split = loop.attrs["split"]
    assert isinstance(split, LoopSplit)
    start, stop = env[loop.args[0].id], env[loop.args[1].id]
    return start, stop, env[split.point.id]


@pytest.mark.parametrize(("bm", "bn"), [(128, 128), (128, 64), (64, 128)])
def test_split_point_is_the_diagonal_of_the_causal_mask(bm: int, bn: int) -> None:
    kern = P.make_attention_plain(bm, bn, 64)
    kir, counts = _ir(kern.fn, _attention_params(64, bm, rows=2048), fast_math=True)
    assert (counts.loops, counts.masks) == (1, 1)
    for seq in (bm * bn // 32, 1024):
        q_blocks = seq // bm
        for causal in (0, 1):
            for bid in range(0, 3 * q_blocks, max(1, q_blocks // 5)):
                start, stop, point = _split_point(kir, [None] * 4 + [seq, 0.5, causal], bid)
                qb = bid % q_blocks
                rows = np.arange(bm)[:, None] + qb * bm
                cols = np.arange(bn)[None, :]
                free = [bool(((cols + j * bn <= rows) | (causal == 0)).all()) for j in range(start, stop)]
                assert start <= point <= stop
                assert all(free[: point - start])  # proved: the mask keeps every score before the point
                assert point - start == [*free, False].index(False)  # and the point is the diagonal itself
                assert point == stop or causal  # not causal: every block mask-free (the loop unswitched)


def test_mask_free_body_has_no_compare_or_select() -> None:
    kir, _ = _ir(P.attention_plain_fast.fn, _attention_params(128, 128), fast_math=True)
    loop = _loop(kir)
    split = loop.attrs["split"]
    kinds = [op.kind for op in split.free_body]
    masked = [op.kind for op in loop.body]
    assert {"le", "where", "bitor"} & set(masked)
    assert not {"le", "lt", "ge", "gt", "where", "bitor", "bitand"} & set(kinds)
    assert kinds.count("copy") == 1 and kinds.count("matmul") == 2 and kinds.count("exp2") == 2
    carried = {c.update.id for c in loop.carried if c.update is not None}
    defined = {op.result.id for op in split.free_body if op.result is not None}
    assert carried <= defined  # m, den and acc are computed by the mask-free body too


def test_plain_attention_ptx_has_one_masked_and_one_mask_free_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    params = _attention_params(128, 128)
    built = {}
    for on in (False, True):
        monkeypatch.setattr(loop_split, "ENABLED", on)
        built[on] = compile_tile(P.attention_plain_fast.fn, params, 2, arch="sm_90a", num_warps=8, use_cache=False,
                                 fast_math=True)  # fmt: skip
    before, after = built[False].ptx, built[True].ptx
    assert built[True].cubin[:4] == b"\x7fELF"  # nvJitLink assembles it for sm_90a
    assert after.count("wgmma.mma_async") == 2 * before.count("wgmma.mma_async")  # two loop bodies
    assert after.count("ex2.approx.ftz.f32") == 2 * before.count("ex2.approx.ftz.f32")
    compares = [len(re.findall(r"setp\.\w+\.s32", ptx)) for ptx in (before, after)]
    selects = [ptx.count("selp.f32") for ptx in (before, after)]
    assert selects[0] >= 64 and selects == [selects[0]] * 2  # the 64 per-score selects: in one body only
    assert compares[0] >= 64 and compares[1] <= compares[0] + 8  # the compares too (the point: a few once)


def test_switch_off_leaves_the_loop_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_split, "ENABLED", False)
    kir, counts = _ir(P.attention_plain_fast.fn, _attention_params(128, 128), fast_math=True)
    assert (counts.loops, counts.masks) == (0, 0) and "split" not in _loop(kir).attrs


@pytest.mark.parametrize("rewrite", [True, False])
def test_wrapping_i32_mask_keeps_every_iteration_masked(rewrite: bool) -> None:
    params = _small_params("n", "shift", "flag")
    kir, counts = _ir(window.fn, params, rewrite=rewrite)  # without the rewrite: `(A <= B) | u` as written
    assert counts.loops == 1
    cases = [(4, 100, 1), (8, 2**31 - 5, 1), (8, 2**31 - 40, 1), (3, 2**31 - 1, 0), (5, -(2**31), 1), (6, 70, 0)]
    for n, shift, flag in cases:
        start, _, point = _split_point(kir, [None, None, n, shift, flag], 1)
        rows = np.arange(16, dtype=np.int64)[:, None] + shift
        cols = np.arange(32, dtype=np.int64)[None, :]
        for j in range(start, point):  # in the kernel's i32: the mask must be all-true there
            lhs = (cols + j * 32).astype(np.int32)
            rhs = rows.astype(np.int32)
            assert bool(((lhs <= rhs) | (flag == 0)).all())
            assert rows.max() <= 2**31 - 1 or flag == 0
    # shift = 2^31 - 5: `cols + j * 32 <= rows` holds in the integers for the first iterations, but the top rows
    # of `iota + shift` wrap to negative in i32, where the mask is false: the guard keeps every iteration masked
    assert _split_point(kir, [None, None, 8, 2**31 - 5, 1], 1)[2] == 0
    assert _split_point(kir, [None, None, 8, 2**31 - 40, 1], 1)[2] == 8  # no wrap: every iteration mask-free
    assert _split_point(kir, [None, None, 3, 2**31 - 5, 0], 1)[2] == 3  # the flag alone: unswitched
    assert _split_point(kir, [None, None, 8, 100, 1], 1)[2] == 3  # 32 j + 31 <= 100: j <= 2


def test_scalar_compared_in_a_narrower_dtype_must_fit_it() -> None:
    """`cols <= limit` with `limit` an i64 index: at bid 0 (limit 100) every iteration is mask-free; at bid 1
    the limit, 2^31 + 100, wraps to a negative i32 in the compare and the mask is false: nothing is split."""
    kir, counts = _ir(wide.fn, _small_params("n"))
    assert counts.loops == 1
    assert _split_point(kir, [None, None, 5], 0) == (0, 5, 5)
    assert _split_point(kir, [None, None, 5], 1) == (0, 5, 0)


@pytest.mark.parametrize("kernel", [data_mask, suffix])
def test_unprovable_masks_are_left_alone(kernel: Any) -> None:
    kir, counts = _ir(kernel.fn, _small_params("n"))
    assert (counts.loops, counts.masks) == (0, 0) and "split" not in _loop(kir).attrs


def test_split_kernels_assemble_for_sm_80_and_sm_90a() -> None:
    params = _small_params("n", "shift", "flag")
    for arch in ("sm_80", "sm_90"):
        assert compile_tile(window.fn, params, 1, arch=arch, use_cache=False).cubin[:4] == b"\x7fELF"
    example = _attention_params(attention_tile.D, attention_tile.BM, rows=512)
    for arch in ("sm_80", "sm_90a"):
        compiled = compile_tile(attention_tile.attention.fn, example, 2, arch=arch, use_cache=False)
        assert compiled.cubin[:4] == b"\x7fELF"
        assert compiled.ptx.count("mma") > 0


def test_values_are_not_shared_between_the_two_bodies() -> None:
    """The mask-free body reuses the body's ops (same ids) except the `where`s it drops; the pre-loop ops it
    adds define fresh Values only."""
    kir, _ = _ir(P.attention_plain_fast.fn, _attention_params(128, 128), fast_math=True)
    seen: dict[int, Value] = {}
    for op in kir.body:
        if op.result is not None:
            assert op.result.id not in seen
            seen[op.result.id] = op.result
    body_ids = {op.result.id for op in _loop(kir).body if op.result is not None}
    assert not body_ids & set(seen)
