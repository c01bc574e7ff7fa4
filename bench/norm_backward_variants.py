"""Which shape of the norm backward kernels is fastest on the GPU: variants of LayerNorm's dx kernel and of the
dw/db partial-sum kernel, timed next to torch's LayerNorm / RMSNorm backward and the default kernels of
examples/training/norms.py, each checked against a float32 torch reference.

    python bench/norm_backward_variants.py --out DIR      # on the GPU: DIR/norm_variants.json, one line a variant

Why these variants (issue 24, LayerNorm backward at 0.60x torch): the partial-sum kernel loaded the per-row
statistics as a (rows, 1) tile and broadcast it over the (rows, BC) step, which the compiler does through shared
memory (a layout change: two CTA barriers per statistic per step, each behind a dependent global load), and its
two 32x256 f32 accumulators took 156 registers (one 8-warp CTA per SM).  The variants change, one knob at a time:

- ``stats``: "broadcast" (the (S, 1) load, as before), "gather" (`tile.gather` at the row index of every
  element: each thread loads the statistics of the rows it holds, no shared memory, no barrier) or "ahead"
  (gathered one step early);
- ``prefetch``: the next step's x and dy tiles are loaded before the current ones are used (loop-carried);
- ``S``: rows per step of the partial kernel (32 or 16: half the accumulator registers);
- ``BC``: columns per tile block; ``part``: rows of x per partial row (the partial grid's height is
  rows / part); ``warps``: `num_warps`;
- for the dx kernel, ``rb`` rows per tile block and the same ``stats`` choice.

It ends with `backward_bench._norms` (the rows of the norm table).  The results are in docs/benchmarks-tile.md
("LayerNorm backward") and bench/results/norms/ (two H200 calls: the first ran an earlier version of this script,
which also timed RMSNorm's partial kernel with gathered statistics, before that became the default; the second ran
this one while the prefetching LayerNorm partial kernel was the default, so its "default ln partial" and
`_norms` LayerNorm rows time that form, not the one shipped).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import safekernels.torch as skt  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.dtypes import bf16, f32, i32  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

ROWS, N, EPS = 16384, 4096, 1e-5


def ln_partial(s: int, bc: int, stats: str, warps: int | None, prefetch: bool) -> Any:
    """LayerNorm's dw/db partial-sum kernel: `s` rows per step, `bc` columns per block, statistics by `stats`
    ("broadcast", "gather", or "ahead": gathered one step early like the tiles), the next step's x and dy
    tiles loaded before the current ones are used when `prefetch`."""
    deco = tile.kernel(num_warps=warps)  # None: the compiler's choice
    if stats == "broadcast":

        @deco
        def broadcast(
            dw_part: Annotated[Partition[f32], tile.Dims(1, bc)],
            db_part: Annotated[Partition[f32], tile.Dims(1, bc)],
            x: Tensor[bf16],
            dy: Tensor[bf16],
            mean: Tensor[f32],
            rstd: Tensor[f32],
        ) -> None:
            p = tile.bid(0)
            c = tile.bid(1)
            acc_w = tile.zeros((s, bc), f32)
            acc_b = tile.zeros((s, bc), f32)
            for row in range(p, (x.shape[0] + s - 1) // s, tile.num_blocks(0)):
                xt = x.load((row, c), (s, bc)).astype(f32)
                xh = (xt - mean.load((row, 0), (s, 1))) * rstd.load((row, 0), (s, 1))
                g = dy.load((row, c), (s, bc)).astype(f32)
                acc_w = acc_w + g * xh
                acc_b = acc_b + g
            dw_part.store(tile.sum(acc_w, axis=0, keepdims=True))
            db_part.store(tile.sum(acc_b, axis=0, keepdims=True))

        return broadcast

    if not prefetch:

        @deco
        def gather(
            dw_part: Annotated[Partition[f32], tile.Dims(1, bc)],
            db_part: Annotated[Partition[f32], tile.Dims(1, bc)],
            x: Tensor[bf16],
            dy: Tensor[bf16],
            mean: Tensor[f32],
            rstd: Tensor[f32],
        ) -> None:
            p = tile.bid(0)
            c = tile.bid(1)
            acc_w = tile.zeros((s, bc), f32)
            acc_b = tile.zeros((s, bc), f32)
            lane_rows = tile.broadcast_to(tile.reshape(tile.iota(s, i32), (s, 1)), (s, bc))
            for row in range(p, (x.shape[0] + s - 1) // s, tile.num_blocks(0)):
                rows = lane_rows + row * s
                g = dy.load((row, c), (s, bc)).astype(f32)
                xt = x.load((row, c), (s, bc)).astype(f32)
                xh = (xt - tile.gather(mean, (rows, 0))) * tile.gather(rstd, (rows, 0))
                acc_w = acc_w + g * xh
                acc_b = acc_b + g
            dw_part.store(tile.sum(acc_w, axis=0, keepdims=True))
            db_part.store(tile.sum(acc_b, axis=0, keepdims=True))

        return gather

    if stats == "gather":

        @deco
        def gather_prefetch(
            dw_part: Annotated[Partition[f32], tile.Dims(1, bc)],
            db_part: Annotated[Partition[f32], tile.Dims(1, bc)],
            x: Tensor[bf16],
            dy: Tensor[bf16],
            mean: Tensor[f32],
            rstd: Tensor[f32],
        ) -> None:
            p = tile.bid(0)
            c = tile.bid(1)
            steps = (x.shape[0] + s - 1) // s
            stride = tile.num_blocks(0)
            lanes = tile.broadcast_to(tile.reshape(tile.iota(s, i32), (s, 1)), (s, bc))
            acc_w = tile.zeros((s, bc), f32)
            acc_b = tile.zeros((s, bc), f32)
            x_next = x.load((min(p, steps - 1), c), (s, bc))
            dy_next = dy.load((min(p, steps - 1), c), (s, bc))
            for step in range(p, steps, stride):
                xt = x_next.astype(f32)
                g = dy_next.astype(f32)
                ahead = min(step + stride, steps - 1)
                x_next = x.load((ahead, c), (s, bc))
                dy_next = dy.load((ahead, c), (s, bc))
                rows = lanes + step * s
                xh = (xt - tile.gather(mean, (rows, 0))) * tile.gather(rstd, (rows, 0))
                acc_w = acc_w + g * xh
                acc_b = acc_b + g
            dw_part.store(tile.sum(acc_w, axis=0, keepdims=True))
            db_part.store(tile.sum(acc_b, axis=0, keepdims=True))

        return gather_prefetch

    @deco
    def ahead_prefetch(
        dw_part: Annotated[Partition[f32], tile.Dims(1, bc)],
        db_part: Annotated[Partition[f32], tile.Dims(1, bc)],
        x: Tensor[bf16],
        dy: Tensor[bf16],
        mean: Tensor[f32],
        rstd: Tensor[f32],
    ) -> None:
        p = tile.bid(0)
        c = tile.bid(1)
        steps = (x.shape[0] + s - 1) // s
        stride = tile.num_blocks(0)
        lanes = tile.broadcast_to(tile.reshape(tile.iota(s, i32), (s, 1)), (s, bc))
        acc_w = tile.zeros((s, bc), f32)
        acc_b = tile.zeros((s, bc), f32)
        first = min(p, steps - 1)
        x_next = x.load((first, c), (s, bc))
        dy_next = dy.load((first, c), (s, bc))
        m_next = tile.gather(mean, (lanes + first * s, 0))
        r_next = tile.gather(rstd, (lanes + first * s, 0))
        for step in range(p, steps, stride):
            xh = (x_next.astype(f32) - m_next) * r_next
            g = dy_next.astype(f32)
            ahead = min(step + stride, steps - 1)
            x_next = x.load((ahead, c), (s, bc))
            dy_next = dy.load((ahead, c), (s, bc))
            m_next = tile.gather(mean, (lanes + ahead * s, 0))
            r_next = tile.gather(rstd, (lanes + ahead * s, 0))
            acc_w = acc_w + g * xh
            acc_b = acc_b + g
        dw_part.store(tile.sum(acc_w, axis=0, keepdims=True))
        db_part.store(tile.sum(acc_b, axis=0, keepdims=True))

    return ahead_prefetch


def ln_dx(n: int, rb: int, stats: str, warps: int | None) -> Any:
    """LayerNorm's dx kernel with `rb` rows per block, statistics by `stats`."""
    deco = tile.kernel(num_warps=warps)  # None: the compiler's choice
    inv_n = 1.0 / n
    if stats == "broadcast":

        @deco
        def broadcast(
            dx: Annotated[Partition[bf16], tile.Dims(rb, n)],
            x: Tensor[bf16],
            dy: Tensor[bf16],
            w: Tensor[bf16],
            mean: Tensor[f32],
            rstd: Tensor[f32],
        ) -> None:
            i = tile.bid(0)
            r = rstd.load((i, 0), (rb, 1))
            xh = (tile.load_like(x, dx).astype(f32) - mean.load((i, 0), (rb, 1))) * r
            g = tile.load_like(dy, dx).astype(f32) * w.load((0,), (n,)).astype(f32)
            c1 = tile.sum(g, axis=1, keepdims=True) * inv_n
            c2 = tile.sum(g * xh, axis=1, keepdims=True) * inv_n
            dx.store((r * (g - c1 - xh * c2)).astype(bf16))

        return broadcast

    @deco
    def gather(
        dx: Annotated[Partition[bf16], tile.Dims(rb, n)],
        x: Tensor[bf16],
        dy: Tensor[bf16],
        w: Tensor[bf16],
        mean: Tensor[f32],
        rstd: Tensor[f32],
    ) -> None:
        rows = tile.broadcast_to(tile.reshape(tile.iota(rb, i32), (rb, 1)), (rb, n)) + tile.bid(0) * rb
        g = tile.load_like(dy, dx).astype(f32) * w.load((0,), (n,)).astype(f32)
        xt = tile.load_like(x, dx).astype(f32)
        r = tile.gather(rstd, (rows, 0))
        xh = (xt - tile.gather(mean, (rows, 0))) * r
        c1 = tile.sum(g, axis=1, keepdims=True) * inv_n
        c2 = tile.sum(g * xh, axis=1, keepdims=True) * inv_n
        dx.store((r * (g - c1 - xh * c2)).astype(bf16))

    return gather


def _rel(got: Any, ref: Any) -> float:
    return float((got.float() - ref.float()).norm() / ref.float().norm())


def measure(out: Path) -> None:
    import torch
    import torch.nn.functional as F
    from triton.testing import do_bench  # type: ignore[import-not-found]

    from bench import backward_bench
    from examples.training import norms, torch_ops

    def ms(fn: Callable[[], Any]) -> float:
        return float(do_bench(fn, warmup=20, rep=60, return_mode="median"))

    torch.manual_seed(1)
    x, dy = (torch.randn(ROWS, N, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    w = (1 + 0.5 * torch.randn(N, device="cuda")).to(torch.bfloat16)
    b = (0.5 * torch.randn(N, device="cuda")).to(torch.bfloat16)
    xf = x.float()
    mean = xf.mean(1, keepdim=True)
    rstd = torch.rsqrt(xf.var(1, unbiased=False, keepdim=True) + EPS)
    rms_rstd = torch.rsqrt((xf * xf).mean(1, keepdim=True) + EPS)
    xh = (xf - mean) * rstd
    ref_dw, ref_db = (dy.float() * xh).sum(0), dy.float().sum(0)
    g = dy.float() * w.float()
    ref_dx = rstd * (g - g.mean(1, keepdim=True) - xh * (g * xh).mean(1, keepdim=True))
    ref_rms_dw = (dy.float() * xf * rms_rstd).sum(0)
    rg = dy.float() * w.float()
    rxh = xf * rms_rstd
    ref_rms_dx = rms_rstd * (rg - rxh * (rg * rxh).mean(1, keepdim=True))
    lines: list[dict[str, Any]] = []

    def emit(row: dict[str, Any]) -> None:
        print(json.dumps(row), flush=True)
        lines.append(row)
        (out / "norm_variants.json").write_text("\n".join(json.dumps(r) for r in lines) + "\n")

    def timed(name: str, run: Callable[[], Any], check: Callable[[Any], dict[str, float]]) -> None:
        try:
            emit({"variant": name, "ms": ms(run), **check(run())})
        except Exception as e:  # a variant that fails to compile or run is a row, not the end of the run
            emit({"variant": name, "error": f"{type(e).__name__}: {str(e)[:300]}"})

    def autograd(name: str, forward: Callable[..., Any], inputs: list[Any], refs: tuple[Any, ...]) -> None:
        leaves = [t.detach().clone().requires_grad_() for t in inputs]
        y = forward(*leaves)
        grads = torch.autograd.grad(y, leaves, dy, retain_graph=True)
        emit(
            {
                "variant": name,
                "ms": ms(lambda: torch.autograd.grad(y, leaves, dy, retain_graph=True)),
                "err": [_rel(gr, r) for gr, r in zip(grads, refs, strict=True)],
            }
        )

    refs_ln = (ref_dx, ref_dw, ref_db)
    refs_rms = (ref_rms_dx, ref_rms_dw)
    autograd(
        "torch LayerNorm backward (autograd)", lambda x, w, b: F.layer_norm(x, (N,), w, b, EPS), [x, w, b], refs_ln
    )
    autograd(
        "default layer_norm backward (autograd)", lambda x, w, b: torch_ops.layer_norm(x, w, b, EPS), [x, w, b], refs_ln
    )
    autograd("torch RMSNorm backward (autograd)", lambda x, w: F.rms_norm(x, (N,), w, EPS), [x, w], refs_rms)
    autograd("default rms_norm backward (autograd)", lambda x, w: torch_ops.rms_norm(x, w, EPS), [x, w], refs_rms)

    ops = torch_ops.norm_ops(N)
    p_rows = norms.partial_rows(ROWS)
    timed("default ln dx", lambda: ops.ln_bwd_dx(x, dy, w, mean, rstd), lambda d: {"err_dx": _rel(d, ref_dx)})
    timed(
        f"default ln partial (P={p_rows})",
        lambda: ops.ln_bwd_partial(x, dy, mean, rstd),
        lambda pr: {"err_dw": _rel(pr[0].sum(0), ref_dw), "err_db": _rel(pr[1].sum(0), ref_db)},
    )
    parts = ops.ln_bwd_partial(x, dy, mean, rstd)
    timed("default finish_pair", lambda: ops.finish_pair(*parts), lambda r: {"err_dw": _rel(r[0], ref_dw)})
    timed("default rms dx", lambda: ops.rms_bwd_dx(x, dy, w, rms_rstd), lambda d: {"err_dx": _rel(d, ref_rms_dx)})
    timed(
        "default rms partial",
        lambda: ops.rms_bwd_partial(x, dy, rms_rstd),
        lambda pr: {"err_dw": _rel(pr.sum(0), ref_rms_dw)},
    )
    rms_part = ops.rms_bwd_partial(x, dy, rms_rstd)
    timed("default finish", lambda: ops.finish(rms_part), lambda r: {"err_dw": _rel(r, ref_rms_dw)})

    for i, (s, bc, stats, warps, part, prefetch) in enumerate(
        [
            (32, 256, "broadcast", None, 512, False),  # the kernel before this change
            (16, 256, "gather", None, 512, False),  # the default's form
            (16, 256, "gather", None, 512, True),
            (16, 256, "ahead", None, 512, True),
            (16, 256, "gather", None, 1024, True),
            (16, 256, "gather", None, 256, True),
            (8, 256, "gather", 4, 256, True),
            (8, 256, "ahead", 4, 256, True),
            (8, 512, "gather", None, 512, True),
            (32, 256, "gather", None, 512, True),
        ]
    ):
        rows_p = -(-ROWS // part)
        try:
            op = skt.custom_op(
                f"sk_norm_variants::ln_partial_{i}",
                ln_partial(s, bc, stats, warps, prefetch),
                outputs={"dw_part": (rows_p, N), "db_part": (rows_p, N)},
            )
        except Exception as e:
            emit({"variant": f"ln partial {i}", "error": f"{type(e).__name__}: {str(e)[:300]}"})
            continue
        timed(
            f"ln partial S={s} BC={bc} {stats} warps={warps} part={part} prefetch={prefetch}",
            functools.partial(op, x, dy, mean, rstd),
            lambda pr: {"err_dw": _rel(pr[0].sum(0), ref_dw), "err_db": _rel(pr[1].sum(0), ref_db)},
        )

    for i, (rb, stats, warps) in enumerate(
        [
            (2, "broadcast", None),  # the kernel before this change
            (1, "gather", 4),  # the default's form
            (1, "gather", 2),
            (2, "gather", 4),
        ]
    ):
        try:
            op = skt.custom_op(f"sk_norm_variants::ln_dx_{i}", ln_dx(N, rb, stats, warps), outputs={"dx": "x"})
        except Exception as e:
            emit({"variant": f"ln dx {i}", "error": f"{type(e).__name__}: {str(e)[:300]}"})
            continue
        timed(
            f"ln dx rb={rb} {stats} warps={warps}",
            functools.partial(op, x, dy, w, mean, rstd),
            lambda d: {"err_dx": _rel(d, ref_dx)},
        )

    for row in backward_bench._norms(ROWS, N):  # the rows of docs/benchmarks-tile.md's norm table
        emit({"variant": "backward_bench._norms", **row})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    measure(args.out)


if __name__ == "__main__":
    main()
