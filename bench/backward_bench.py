"""Backward-pass benchmark on the GPU: the training kernels of examples/training/ against torch.

    python bench/backward_bench.py --out DIR          # on the GPU: measure, write DIR/backward.json and .md
    python bench/backward_bench.py --render DIR/backward.json --doc docs/benchmarks-tile.md --notes NOTES.md
                                                      # anywhere: put the "Backward" section into the page,
                                                      # followed by the analysis in NOTES.md

Attention (bf16; 4x32x4096 d=128 and 8x16x2048 d=64; causal and not): the backward pass of safekernels'
`flash_attention` (examples/training/torch_ops.py: FlashAttention-2's form, dQ by atomics in the dK/dV kernel, or
the dq kernel then the dkdv kernel) against SDPA's cuDNN and
FlashAttention-2 backends.  Every row is timed the same way: one forward with the graph kept, then
`torch.autograd.grad(out, (q, k, v), dout, retain_graph=True)` per call, the median of
`triton.testing.do_bench`; TFLOP/s counts 2.5x the forward's matmul work (4 * b * h * s^2 * d, half when
causal), FlashAttention's convention.  "kernels only" times the two backward operators called directly (no
autograd), and the block-size variants of the d=64 kernels are timed that way too.  Accuracy: the relative
error of each gradient against cuDNN's.

Norms (bf16, 16384 x 4096): RMSNorm and LayerNorm forward and backward against torch's (`F.rms_norm`,
`F.layer_norm`), timed the same way; GB/s counts x, dy (and w) read once and dx written once.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import platform
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ATTENTION_SHAPES = [(4, 32, 4096, 128), (8, 16, 2048, 64)]
NORM_SHAPE = (16384, 4096)
TARGET = 0.9  # of cuDNN SDPA's backward


def _median_ms(fn: Any) -> float:
    from triton.testing import do_bench  # type: ignore[import-not-found]

    return float(do_bench(fn, warmup=20, rep=60, return_mode="median"))


def _rel(got: Any, ref: Any) -> float:
    return float((got.float() - ref.float()).norm() / ref.float().norm())


def _autograd_ms(forward: Any, inputs: list[Any], dout: Any) -> tuple[float, list[Any]]:
    """Median time of the backward pass of `forward(*inputs)` for `dout`, and its gradients."""
    import torch

    leaves = [x.detach().clone().requires_grad_() for x in inputs]
    out = forward(*leaves)
    grads = list(torch.autograd.grad(out, leaves, dout, retain_graph=True))
    ms = _median_ms(lambda: torch.autograd.grad(out, leaves, dout, retain_graph=True))
    return ms, grads


def _attention(b: int, h: int, s: int, d: int, causal: bool) -> dict[str, Any]:
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.nn.functional import scaled_dot_product_attention as sdpa

    from examples.training import torch_ops

    torch.manual_seed(0)
    q, k, v, dout = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(4))
    flops = 2.5 * 4 * b * h * s * s * d / (2 if causal else 1)
    row: dict[str, Any] = {"shape": f"{b}x{h}x{s}, d={d}", "causal": causal, "flops": flops}

    ms, ours = _autograd_ms(lambda q, k, v: torch_ops.flash_attention(q, k, v, causal), [q, k, v], dout)
    row["safekernels_ms"] = ms
    refs: dict[str, list[Any]] = {}
    for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("fa2", SDPBackend.FLASH_ATTENTION)):
        try:
            with sdpa_kernel(backend):
                row[f"{name}_ms"], refs[name] = _autograd_ms(
                    lambda q, k, v: sdpa(q, k, v, is_causal=causal), [q, k, v], dout
                )
        except Exception as exc:  # a backend this build or shape lacks
            row[f"{name}_ms"] = None
            row[f"{name}_error"] = f"{type(exc).__name__}: {exc}"[:200]
    ref = refs.get("cudnn") or refs.get("fa2")
    if ref is not None:
        row["rel_err"] = {n: _rel(g, r) for n, g, r in zip(("dq", "dk", "dv"), ours, ref, strict=True)}

    # the two backward operators alone, for the default blocks and (d=64) the variants
    row["kernels_ms"] = {}
    flat = [x.reshape(-1, d).contiguous() for x in (q, k, v, dout)]
    for blocks, fused in _variants(d):
        name = ",".join(map(str, blocks)) + (" fused" if fused else " pair")
        try:
            row["kernels_ms"][name] = _kernels_ms(flat, s, d, causal, blocks, fused)
        except Exception as exc:
            row["kernels_ms"][name] = f"{type(exc).__name__}: {exc}"[:300]
    print(json.dumps(row), flush=True)
    return row


def _variants(d: int) -> list[tuple[tuple[int, int, int, int], bool]]:
    """The default (blocks (dq_bm, dq_bn, kv_bn, kv_bm), fused) first, then alternatives: FlashAttention-2's
    fused form (dQ by atomics; its key block is d rows), and at d=128 the pair with 64-key dq steps."""
    from examples.training import attention

    blocks = attention.BLOCKS[d]
    default = (blocks, attention.flash_kernels(d).fused)
    if d == 64:
        extra = [((128, 128, 64, 64), True), ((128, 128, 64, 128), True)]
    else:
        extra = [((128, 128, 128, 64), True), ((128, 64, 128, 64), False)]
    return [default, *[v for v in extra if v != default]]


_VARIANT_OPS: dict[tuple[int, ...], Any] = {}


def _kernels_ms(
    flat: list[Any], s: int, d: int, causal: bool, blocks: tuple[int, int, int, int], fused: bool
) -> dict[str, float]:
    """Median ms of the dq kernel, the dkdv kernel and both, called as operators (no autograd); for the fused
    backward "dq" is the D and dQ-conversion kernels together and "dkdv" the fused kernel (dQ by atomics)."""
    import safekernels.torch as skt
    from examples.training import attention

    key = (d, *blocks)
    if key not in _VARIANT_OPS:
        ks = attention.flash_kernels(d, blocks)
        lse = lambda **t: attention.lse_shape(int(t["q"].shape[0]))  # noqa: E731
        tag = "_".join(map(str, key))
        _VARIANT_OPS[key] = (
            skt.custom_op(f"bench_backward::fwd_{tag}", ks.forward, outputs={"out": "q", "lse": lse}),
            skt.custom_op(f"bench_backward::dq_{tag}", ks.bwd_dq, outputs={"dq": "q", "delta": lse}),
            skt.custom_op(f"bench_backward::dkdv_{tag}", ks.bwd_dkdv, outputs={"dk": "k", "dv": "v"}),
            skt.custom_op(
                f"bench_backward::delta_{tag}",
                ks.bwd_delta,
                outputs={"delta": lambda **t: attention.lse_shape(int(t["o"].shape[0]))},
            ),
            skt.custom_op(
                f"bench_backward::fused_{tag}",
                ks.bwd_fused,
                outputs={"dk": "k", "dv": "v", "dq_acc": lambda **t: tuple(t["q"].shape)},
            ),
            skt.custom_op(f"bench_backward::convert_{tag}", ks.bwd_dq_convert, outputs={"dq": "dq_acc"}),
        )
    fwd, dq_op, dkdv_op, delta_op, fused_op, convert_op = _VARIANT_OPS[key]
    q, k, v, do = flat
    scalars = (s, 1.0 / math.sqrt(d), int(causal))
    out, lse = fwd(q, k, v, *scalars)
    if fused:
        delta = delta_op(out, do)
        _dk, _dv, dq_acc = fused_op(q, k, v, do, lse, delta, *scalars)

        def fused_backward() -> None:
            delta = delta_op(out, do)
            _dk, _dv, dq_acc = fused_op(q, k, v, do, lse, delta, *scalars)
            convert_op(dq_acc)

        def side() -> None:
            delta_op(out, do)
            convert_op(dq_acc)

        return {
            "dq": _median_ms(side),
            "dkdv": _median_ms(lambda: fused_op(q, k, v, do, lse, delta, *scalars)),
            "total": _median_ms(fused_backward),
        }
    _dq, delta = dq_op(q, k, v, out, do, lse, *scalars)

    def backward() -> None:
        _dq, delta = dq_op(q, k, v, out, do, lse, *scalars)
        dkdv_op(q, k, v, do, lse, delta, *scalars)

    return {
        "dq": _median_ms(lambda: dq_op(q, k, v, out, do, lse, *scalars)),
        "dkdv": _median_ms(lambda: dkdv_op(q, k, v, do, lse, delta, *scalars)),
        "total": _median_ms(backward),
    }


def _norms(rows: int, n: int) -> list[dict[str, Any]]:
    import torch
    import torch.nn.functional as F

    from examples.training import torch_ops

    torch.manual_seed(1)
    x, dy = (torch.randn(rows, n, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    w = (1 + 0.5 * torch.randn(n, device="cuda")).to(torch.bfloat16)
    b = (0.5 * torch.randn(n, device="cuda")).to(torch.bfloat16)
    io = rows * n * 2
    cases = [
        ("RMSNorm", torch_ops.rms_norm, lambda x, w: F.rms_norm(x, (n,), w, 1e-6), [x, w], 1e-6),
        ("LayerNorm", torch_ops.layer_norm, lambda x, w, b: F.layer_norm(x, (n,), w, b, 1e-5), [x, w, b], 1e-5),
    ]
    out = []
    for name, ours, theirs, inputs, eps in cases:

        def mine(*a: Any, ours: Any = ours, eps: float = eps) -> Any:
            return ours(*a, eps)

        row: dict[str, Any] = {"name": name, "shape": f"{rows}x{n}"}
        row["fwd_bytes"], row["bwd_bytes"] = 2 * io, 3 * io  # x in, y out; x and dy in, dx out
        with torch.no_grad():
            row["safekernels_fwd_ms"] = _median_ms(lambda mine=mine, inputs=inputs: mine(*inputs))
            row["torch_fwd_ms"] = _median_ms(lambda theirs=theirs, inputs=inputs: theirs(*inputs))
        row["safekernels_bwd_ms"], g_ours = _autograd_ms(mine, inputs, dy)
        row["torch_bwd_ms"], g_torch = _autograd_ms(theirs, inputs, dy)
        _, g_f32 = _autograd_ms(theirs, [t.float() for t in inputs], dy.float())
        row.update(_norm_kernels_ms(name, inputs, dy, eps))
        pairs = zip("xwb", g_ours, g_torch, g_f32, strict=False)  # RMSNorm has no bias
        row["rel_err"] = {f"d{i}": [_rel(a, r), _rel(t, r)] for i, a, t, r in pairs}
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


def _norm_kernels_ms(name: str, inputs: list[Any], dy: Any, eps: float) -> dict[str, float]:
    """The backward operators alone: the dx kernel, and the partial-sum + finish kernels of dw (and db: one
    finishing launch for both)."""
    from examples.training import torch_ops

    ops = torch_ops.norm_ops(int(inputs[0].shape[-1]))
    x, w = inputs[0], inputs[1]
    if name == "RMSNorm":
        _y, rstd = ops.rms_forward(x, w, eps)
        return {
            "dx_ms": _median_ms(lambda: ops.rms_bwd_dx(x, dy, w, rstd)),
            "dw_ms": _median_ms(lambda: ops.finish(ops.rms_bwd_partial(x, dy, rstd))),
        }
    _y, mean, rstd = ops.ln_forward(x, w, inputs[2], eps)

    def dw_db() -> None:
        dw_part, db_part = ops.ln_bwd_partial(x, dy, mean, rstd)
        ops.finish_pair(dw_part, db_part)

    return {"dx_ms": _median_ms(lambda: ops.ln_bwd_dx(x, dy, w, mean, rstd)), "dw_ms": _median_ms(dw_db)}


def measure(norms: bool = True) -> dict[str, Any]:
    import torch
    import triton  # type: ignore[import-not-found]

    import safekernels

    result: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "gpu": torch.cuda.get_device_name(),
        "versions": f"torch {torch.__version__}, triton {triton.__version__}, cuDNN {torch.backends.cudnn.version()}, "
        f"safekernels {getattr(safekernels, '__version__', '?')} (this tree), python {platform.python_version()}",
        "attention": [],
        "norms": [],
    }
    for b, h, s, d in ATTENTION_SHAPES:
        for causal in (False, True):
            result["attention"].append(_attention(b, h, s, d, causal))
    result["norms"] = _norms(*NORM_SHAPE) if norms else []
    return result


def _tflops(row: dict[str, Any], key: str) -> str:
    ms = row.get(key)
    return f"{row['flops'] / ms / 1e9:.0f}" if isinstance(ms, float) else "n/a"


def render(result: dict[str, Any]) -> str:
    """The "Backward" section of docs/benchmarks-tile.md, from a result of `measure`."""
    lines = [
        f"## Backward (training) kernels ({result['date']})",
        "",
        f"GPU: {result['gpu']}; {result['versions']}.  `bench/backward_bench.py`, medians of "
        "`triton.testing.do_bench`; every backward timed as `torch.autograd.grad(out, inputs, dout, "
        'retain_graph=True)` after one forward.  Kernels: examples/training/ (docs/torch.md, "Autograd").',
        "",
        "**Flash attention backward** (bf16; TFLOP/s = 2.5x the forward's 4·b·h·s²·d, halved when causal; "
        f"target >= {TARGET}x cuDNN):",
        "",
        "| shape | causal | safekernels | cuDNN SDPA | FA2 SDPA | vs cuDNN | kernels only "
        "| rel. err vs cuDNN (dq, dk, dv) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in result["attention"]:
        ratio = row["cudnn_ms"] / row["safekernels_ms"] if isinstance(row.get("cudnn_ms"), float) else None
        default = next(iter(row["kernels_ms"].values()))
        kernels = f"{row['flops'] / default['total'] / 1e9:.0f}" if isinstance(default, dict) else "n/a"
        errs = ", ".join(f"{e:.1e}" for e in row.get("rel_err", {}).values()) or "n/a"
        lines.append(
            f"| {row['shape']} | {'yes' if row['causal'] else 'no'} | {_tflops(row, 'safekernels_ms')} | "
            f"{_tflops(row, 'cudnn_ms')} | {_tflops(row, 'fa2_ms')} | "
            f"{'n/a' if ratio is None else f'{ratio:.2f}x'} | {kernels} | {errs} |"
        )
    variants = [(row, k, v) for row in result["attention"] for k, v in row["kernels_ms"].items()]
    lines += [
        "",
        "Block sizes (dq_bm, dq_bn, kv_bn, kv_bm) and form, the backward operators alone (first row of each "
        "shape: the default).  *pair*: the dq kernel, then the dkdv kernel; *fused*: FlashAttention-2's form, "
        "the D kernel and the dQ conversion (first column) around one kernel computing dK, dV and dQ by atomics "
        "(second column).  TFLOP/s of the whole backward:",
        "",
        "| shape | causal | blocks | dq kernel (fused: D + convert) ms | dkdv (fused: dK, dV, dQ) ms | all ms "
        "| TFLOP/s |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for row, k, v in variants:
        if isinstance(v, dict):
            cells = f"{v['dq']:.3f} | {v['dkdv']:.3f} | {v['total']:.3f} | {row['flops'] / v['total'] / 1e9:.0f}"
        else:
            cells = f"{str(v)[:80]} | | |"
        lines.append(f"| {row['shape']} | {'yes' if row['causal'] else 'no'} | ({k}) | {cells} |")
    if not result["norms"]:  # --skip-norms: the notes carry the last norm table
        return "\n".join(lines) + "\n"
    lines += [
        "",
        "**RMSNorm / LayerNorm** (bf16; GB/s: forward x read and y written, backward x and dy read and dx "
        "written, each once; rel. err of each gradient vs torch in float32, safekernels / torch bf16):",
        "",
        "| op | shape | fwd safekernels | fwd torch | bwd safekernels | bwd torch | bwd vs torch | "
        "bwd kernels: dx / dw(+db) ms | rel. err |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]

    def gb(nbytes: int, ms: float) -> str:
        return f"{nbytes / ms / 1e6:.0f}"

    for row in result["norms"]:
        errs = "; ".join(f"{k} {a:.1e} / {t:.1e}" for k, (a, t) in row["rel_err"].items())
        lines.append(
            f"| {row['name']} | {row['shape']} | {gb(row['fwd_bytes'], row['safekernels_fwd_ms'])} | "
            f"{gb(row['fwd_bytes'], row['torch_fwd_ms'])} | {gb(row['bwd_bytes'], row['safekernels_bwd_ms'])} | "
            f"{gb(row['bwd_bytes'], row['torch_bwd_ms'])} | {row['torch_bwd_ms'] / row['safekernels_bwd_ms']:.2f}x | "
            f"{row['dx_ms']:.3f} / {row['dw_ms']:.3f} | {errs} |"
        )
    return "\n".join(lines) + "\n"


def write_section(doc: Path, section: str, notes: str = "") -> None:
    """Replace (or append) the page's "## Backward" section; `notes` (hand-written analysis) follows the tables."""
    text = doc.read_text()
    start = text.find("\n## Backward")
    body = section + ("\n" + notes.strip() + "\n" if notes.strip() else "")
    if start < 0:
        doc.write_text(text.rstrip("\n") + "\n\n" + body)
        return
    end = text.find("\n## ", start + 1)
    doc.write_text(text[: start + 1] + body + (text[end:] if end >= 0 else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="measure on the GPU, write backward.json and backward.md here")
    parser.add_argument("--render", type=Path, help="a backward.json to render instead of measuring")
    parser.add_argument("--doc", type=Path, help="write the rendered section into this page (its ## Backward)")
    parser.add_argument("--notes", type=Path, help="a markdown file appended to the section (the analysis)")
    parser.add_argument("--skip-norms", action="store_true", help="time the attention backward only")
    args = parser.parse_args()
    if args.render:
        result = json.loads(args.render.read_text())
    else:
        result = measure(norms=not args.skip_norms)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "backward.json").write_text(json.dumps(result, indent=1))
    section = render(result)
    if args.out and not args.render:
        (args.out / "backward.md").write_text(section)
    if args.doc:
        write_section(args.doc, section, args.notes.read_text() if args.notes else "")
    print(section)


if __name__ == "__main__":
    main()
