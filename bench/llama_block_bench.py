"""Tokens/s of one Llama-3-8B decoder layer (bf16) on one GPU: plain torch against the safekernels layer
(examples/llama_block/), each eagerly, under `torch.compile`, and replayed from a CUDA graph, in one process.

    PYTHONPATH=src:. python bench/llama_block_bench.py OUT_DIR [--quick]

Prefill: batch 4 x 2048 tokens (causal).  Decode step: batch 32, one new token at position 2048 (a KV cache of
2048 past tokens; the step writes row 2048 and attends to 2049 keys).  Every configuration's output is checked
against the plain torch layer (relative Frobenius error), and the safekernels layer under `torch.compile` is
traced with `torch._dynamo.explain` (graph and graph-break counts).  Timing: CUDA events around N back-to-back
calls (host cost included, as a serving loop sees it), the median over 5 rounds of the mean per call.  A
per-kernel breakdown of both layers (each kernel alone, back to back) and the decode step for each split-K
setting follow the table.  Writes `results.json`, `table.md` and `log.txt` to OUT_DIR.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from examples.llama_block import layer as L  # noqa: E402
from examples.llama_block.numpy_layer import Config  # noqa: E402

BATCH, SEQ = 4, 2048
DEC_BATCH, POS, MAX_POS = 32, 2048, 2176

_LOG: list[str] = []


def log(msg: str) -> None:
    print(msg, flush=True)
    _LOG.append(msg)


def time_calls(fn: Callable[[], Any], calls: int, rounds: int = 5) -> float:
    """Median over `rounds` of the mean time per call (seconds) of `calls` back-to-back calls."""
    fn()
    torch.cuda.synchronize()
    times: list[float] = []
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        times.append(float(start.elapsed_time(end)) / 1e3 / calls)
    return statistics.median(times)


def graphed(fn: Callable[[], Any]) -> tuple[Callable[[], Any], Any]:
    """Capture `fn` in a CUDA graph (after a warm-up on a side stream); returns (replay, captured output)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    return graph.replay, out


def explain(fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
    torch._dynamo.reset()
    e = torch._dynamo.explain(fn)(*args)
    return {"graphs": e.graph_count, "graph_breaks": e.graph_break_count, "reasons": [str(r) for r in e.break_reasons]}


def run_modes(
    name: str,
    tokens: int,
    calls: int,
    modes: list[tuple[str, Callable[[], Callable[[], Any]]]],
    want: torch.Tensor,
    results: dict[str, Any],
) -> None:
    """Each mode builds its callable (compiling / capturing as needed), is checked against `want`, then timed."""
    for label, build in modes:
        key = f"{name}: {label}"
        try:
            t0 = time.perf_counter()
            fn = build()
            out = fn()
            torch.cuda.synchronize()
            setup = time.perf_counter() - t0
            err = L.rel_err(out, want) if out is not None else None
            sec = time_calls(fn, calls)
            results[key] = {"s_per_call": sec, "tokens_per_s": tokens / sec, "rel_err": err, "setup_s": setup}
            err_s = "" if err is None else f", rel err {err:.2e}"
            log(f"{key}: {sec * 1e3:.3f} ms/call, {tokens / sec:,.0f} tokens/s{err_s} (setup {setup:.1f} s)")
        except Exception:
            results[key] = {"error": traceback.format_exc(limit=4)}
            log(f"{key}: FAILED\n{results[key]['error']}")


def kernel_breakdown(ref: L.TorchDecoderLayer, layer: L.SafeDecoderLayer, x: torch.Tensor) -> list[str]:
    """Each prefill kernel of both layers alone (ms), on the prefill's own shapes."""
    cfg = layer.cfg
    t = BATCH * SEQ
    x2 = x.reshape(t, cfg.hidden)
    n1 = L.rmsnorm(x2, layer.norm1, cfg.eps)
    qkv = L.gemm(n1, layer.w_qkv)
    qk = torch.empty((t, cfg.qk_width), dtype=x.dtype, device=x.device)
    L.rope_(qk, qkv, layer.cos, layer.sin, SEQ)
    att = L.attention(qk, qkv, SEQ, layer.scale)
    o = L.gemm(att, layer.w_o)
    h, n2 = L.add_rmsnorm(o, x2, layer.norm2, cfg.eps)
    gu_sk = L.gemm(n2, layer.w_gate_up)
    mlp = L.silu_mul(gu_sk)
    down = L.gemm(mlp, layer.w_down)
    q4 = torch.randn(BATCH, cfg.heads, SEQ, 128, device="cuda", dtype=torch.bfloat16)
    k4 = torch.randn(BATCH, cfg.kv_heads, SEQ, 128, device="cuda", dtype=torch.bfloat16)
    gate_up = torch.cat([ref.gate_proj.weight, ref.up_proj.weight])
    gu = F.linear(n1, gate_up)
    rows: list[tuple[str, Callable[[], Any] | None, Callable[[], Any] | None, float]] = [
        ("rmsnorm", lambda: L.rmsnorm(x2, layer.norm1, cfg.eps), lambda: ref._norm(x2, ref.norm1), 0.0),
        (
            "QKV GEMM 8192x4096 -> 6144",
            lambda: L.gemm(n1, layer.w_qkv),
            lambda: F.linear(n1, torch.cat([ref.q_proj.weight, ref.k_proj.weight, ref.v_proj.weight])),
            2 * t * 4096 * 6144,
        ),
        ("rope (Q and K)", lambda: L.rope_(qk, qkv, layer.cos, layer.sin, SEQ), None, 0.0),
        (
            "causal GQA attention",
            lambda: L.attention(qk, qkv, SEQ, layer.scale),
            lambda: F.scaled_dot_product_attention(q4, k4, k4, is_causal=True, enable_gqa=True),
            4 * BATCH * cfg.heads * SEQ * SEQ * 128 / 2,
        ),
        ("O GEMM 8192x4096 -> 4096", lambda: L.gemm(att, layer.w_o), lambda: ref.o_proj(att), 2 * t * 4096 * 4096),
        ("add + rmsnorm", lambda: L.add_rmsnorm(o, x2, layer.norm2, cfg.eps), None, 0.0),
        (
            "gate/up GEMM 8192x4096 -> 2x14336",
            lambda: L.gemm(n2, layer.w_gate_up),
            lambda: F.linear(n2, gate_up),
            2 * t * 4096 * 2 * 14336,
        ),
        ("SwiGLU (silu(g) * u)", lambda: L.silu_mul(gu_sk), lambda: F.silu(gu[:, :14336]) * gu[:, 14336:], 0.0),
        (
            "down GEMM 8192x14336 -> 4096",
            lambda: L.gemm(mlp, layer.w_down),
            lambda: ref.down_proj(mlp),
            2 * t * 14336 * 4096,
        ),
        ("residual add", lambda: L.residual_add(down, h), lambda: down + h, 0.0),
    ]
    out = ["| kernel | safekernels (ms) | torch (ms) | TFLOP/s safekernels / torch |", "| --- | --- | --- | --- |"]
    for name, ours, theirs, flop in rows:
        a = time_calls(ours, 10) * 1e3 if ours is not None else float("nan")
        b = time_calls(theirs, 10) * 1e3 if theirs is not None else float("nan")
        rate = f"{flop / a / 1e9:.0f} / {flop / b / 1e9:.0f}" if flop else ""
        out.append(f"| {name} | {a:.3f} | {b:.3f} | {rate} |")
        log(out[-1])
    return out


def decode_breakdown(
    ref: L.TorchDecoderLayer, layer: L.SafeDecoderLayer, xd: torch.Tensor, sk_k: torch.Tensor, sk_v: torch.Tensor
) -> list[str]:
    """Each decode kernel alone (µs, 50 back-to-back launches, so host cost shows in the eager column), and the
    whole step replayed from a CUDA graph for each split-K setting of the O and down projections."""
    cfg = layer.cfg
    b = xd.shape[0]
    n1 = L.rmsnorm(xd, layer.norm1, cfg.eps)
    qkv = L.dgemm(n1, layer.w_qkv)
    qk = torch.empty((b, cfg.qk_width), dtype=xd.dtype, device=xd.device)
    L.rope_decode_(qk, qkv, layer.cos, layer.sin, POS)
    kc, vc = sk_k.view(MAX_POS, -1), sk_v.view(MAX_POS, -1)
    att = L.decode_attention(qk, kc, vc, POS + 1, layer.scale)
    mlp = L.dgemm_swiglu(n1, layer.w_gate_up)
    parts = {s: torch.empty((s, b, cfg.hidden), dtype=torch.float32, device=xd.device) for s in (2, 4)}
    wqkv = torch.cat([ref.q_proj.weight, ref.k_proj.weight, ref.v_proj.weight])
    gate_up = torch.cat([ref.gate_proj.weight, ref.up_proj.weight])
    q4 = torch.randn(b, cfg.heads, 1, 128, device="cuda", dtype=torch.bfloat16)
    kt = torch.randn(b, cfg.kv_heads, POS + 1, 128, device="cuda", dtype=torch.bfloat16)
    vt = torch.randn(b, cfg.kv_heads, POS + 1, 128, device="cuda", dtype=torch.bfloat16)
    rows: list[tuple[str, Callable[[], Any] | None, Callable[[], Any] | None, float]] = [
        ("rmsnorm", lambda: L.rmsnorm(xd, layer.norm1, cfg.eps), lambda: ref._norm(xd, ref.norm1), 0),
        ("QKV GEMM (50 MB of weights)", lambda: L.dgemm(n1, layer.w_qkv), lambda: F.linear(n1, wqkv), 4096 * 6144 * 2),
        ("rope", lambda: L.rope_decode_(qk, qkv, layer.cos, layer.sin, POS), None, 0),
        ("KV append", lambda: L.kv_append_(sk_k[POS], sk_v[POS], qk, qkv), None, 0),
        (
            "decode attention (2049 keys, 269 MB of cache)",
            lambda: L.decode_attention(qk, kc, vc, POS + 1, layer.scale),
            lambda: F.scaled_dot_product_attention(q4, kt, vt, enable_gqa=True),
            b * 8 * (POS + 1) * 128 * 2 * 2,
        ),
        (
            "O GEMM + residual, one GEMM (34 MB)",
            lambda: L.dgemm_residual(att, layer.w_o, xd),
            lambda: ref.o_proj(att),
            4096 * 4096 * 2,
        ),
    ]
    for s in (2, 4):
        rows.append(
            (
                f"O GEMM split-K {s} (partials only)",
                partial(L.dgemm_splitk_, parts[s], att, layer.w_o),
                None,
                4096 * 4096 * 2,
            )
        )
    rows += [
        (
            "gate/up GEMM + SwiGLU (235 MB)",
            lambda: L.dgemm_swiglu(n1, layer.w_gate_up),
            lambda: F.linear(n1, gate_up),
            4096 * 14336 * 4,
        ),
        (
            "down GEMM + residual, one GEMM (117 MB)",
            lambda: L.dgemm_residual(mlp, layer.w_down, xd),
            lambda: ref.down_proj(mlp),
            4096 * 14336 * 2,
        ),
    ]
    for s in (2, 4):
        rows.append(
            (
                f"down GEMM split-K {s} (partials only)",
                partial(L.dgemm_splitk_, parts[s], mlp, layer.w_down),
                None,
                4096 * 14336 * 2,
            )
        )
    rows.append(("split-K 2 sum + residual", lambda: L.splitk_residual(parts[2], xd), None, 0))
    out = ["| decode kernel | safekernels (µs) | torch (µs) | GB/s safekernels / torch |", "| --- | --- | --- | --- |"]
    for name, ours, theirs, nbytes in rows:
        a = time_calls(ours, 50) * 1e6 if ours is not None else float("nan")
        t = time_calls(theirs, 50) * 1e6 if theirs is not None else float("nan")
        rate = f"{nbytes / a / 1e3:.0f} / {nbytes / t / 1e3:.0f}" if nbytes else ""
        out.append(f"| {name} | {a:.1f} | {t:.1f} | {rate} |")
        log(out[-1])
    out += ["", "| decode step, CUDA graph replay | µs | tokens/s |", "| --- | --- | --- |"]
    saved = layer.splits
    for s in (1, 2, 4):
        layer.splits = s
        replay = _replay_checked(lambda: layer.decode(xd, sk_k, sk_v, POS))
        sec = time_calls(replay, 50)
        out.append(f"| splits={s} | {sec * 1e6:.1f} | {b / sec:,.0f} |")
        log(out[-1])
    layer.splits = saved
    return out


def main() -> None:
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "llama_bench_out")
    out_dir.mkdir(parents=True, exist_ok=True)
    quick = "--quick" in sys.argv
    import triton

    cfg = Config.llama3_8b()
    log(f"GPU {torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}, {cfg}")
    t0 = time.perf_counter()
    ref, layer = L.make_layers(cfg, MAX_POS, "cuda")
    log(f"layers built in {time.perf_counter() - t0:.1f} s")
    results: dict[str, Any] = {}
    g = torch.Generator(device="cpu").manual_seed(7)

    # -- prefill ------------------------------------------------------------------------------------------------
    x = torch.randn(BATCH, SEQ, cfg.hidden, generator=g).to("cuda", torch.bfloat16)
    with torch.no_grad():
        want = ref(x)
        t0 = time.perf_counter()
        layer(x)
        torch.cuda.synchronize()
        log(f"safekernels prefill first call (compiles the kernels): {time.perf_counter() - t0:.1f} s")
        results["prefill: safekernels under torch.compile, dynamo"] = explain(layer, x)
        log(f"explain(prefill): {results['prefill: safekernels under torch.compile, dynamo']}")
        prefill_modes: list[tuple[str, Callable[[], Callable[[], Any]]]] = [
            ("torch eager", lambda: lambda: ref(x)),
            ("torch.compile (inductor)", lambda: (lambda c: lambda: c(x))(torch.compile(ref))),
            ("torch eager, CUDA graph", lambda: _replay_checked(lambda: ref(x))),
            ("safekernels eager", lambda: lambda: layer(x)),
            (
                "safekernels under torch.compile(fullgraph=True)",
                lambda: (lambda c: lambda: c(x))(torch.compile(layer, fullgraph=True)),
            ),
            ("safekernels, CUDA graph", lambda: _replay_checked(lambda: layer(x))),
        ]
        run_modes("prefill", BATCH * SEQ, 10, prefill_modes, want, results)
        save(out_dir, results)
        if not quick:
            guarded(results, "prefill kernels", lambda: kernel_breakdown(ref, layer, x))

        # -- decode ---------------------------------------------------------------------------------------------
        xd = torch.randn(DEC_BATCH, cfg.hidden, generator=g).to("cuda", torch.bfloat16)
        ref_k, ref_v, sk_k, sk_v = L.caches(cfg, DEC_BATCH, MAX_POS, POS, "cuda")
        for cache in (ref_k, ref_v, sk_k, sk_v):  # as a static KV cache does: CUDA-graph trees may mutate them
            torch._dynamo.mark_static_address(cache)
        want_d = ref.decode(xd, ref_k.clone(), ref_v.clone(), POS)
        results["decode: safekernels under torch.compile, dynamo"] = explain(
            layer.decode, xd, sk_k.clone(), sk_v.clone(), POS
        )
        log(f"explain(decode): {results['decode: safekernels under torch.compile, dynamo']}")
        decode_modes: list[tuple[str, Callable[[], Callable[[], Any]]]] = [
            ("torch eager", lambda: lambda: ref.decode(xd, ref_k, ref_v, POS)),
            (
                "torch.compile (inductor)",
                lambda: (lambda c: lambda: c(xd, ref_k, ref_v, POS))(torch.compile(ref.decode)),
            ),
            (
                "torch.compile (inductor, mode='reduce-overhead': CUDA graphs)",
                lambda: (lambda c: lambda: c(xd, ref_k, ref_v, POS).clone())(
                    torch.compile(ref.decode, mode="reduce-overhead")
                ),
            ),
            ("torch eager, CUDA graph", lambda: _replay_checked(lambda: ref.decode(xd, ref_k, ref_v, POS))),
            ("safekernels eager", lambda: lambda: layer.decode(xd, sk_k, sk_v, POS)),
            (
                "safekernels under torch.compile(fullgraph=True)",
                lambda: (lambda c: lambda: c(xd, sk_k, sk_v, POS))(torch.compile(layer.decode, fullgraph=True)),
            ),
            (
                "safekernels under torch.compile(mode='reduce-overhead')",
                lambda: (lambda c: lambda: c(xd, sk_k, sk_v, POS).clone())(
                    torch.compile(layer.decode, mode="reduce-overhead")
                ),
            ),
            ("safekernels, CUDA graph", lambda: _replay_checked(lambda: layer.decode(xd, sk_k, sk_v, POS))),
        ]
        run_modes("decode", DEC_BATCH, 50, decode_modes, want_d, results)
        save(out_dir, results)
        if not quick:
            guarded(results, "decode kernels", lambda: decode_breakdown(ref, layer, xd, sk_k, sk_v))
    save(out_dir, results)
    print(table(results))


def guarded(results: dict[str, Any], key: str, fn: Callable[[], list[str]]) -> None:
    """A breakdown that fails is logged and left out; the main table stands."""
    try:
        results[key] = fn()
    except Exception:
        log(f"{key}: FAILED\n{traceback.format_exc(limit=4)}")


def save(out_dir: Path, results: dict[str, Any]) -> None:
    (out_dir / "results.json").write_text(json.dumps(results, indent=2, default=str))
    extra = ["", *results.get("prefill kernels", []), "", *results.get("decode kernels", [])]
    (out_dir / "table.md").write_text(table(results) + "\n".join(extra) + "\n")
    (out_dir / "log.txt").write_text("\n".join(_LOG) + "\n")


def _replay_checked(fn: Callable[[], Any]) -> Callable[[], Any]:
    """A CUDA-graph replay that returns the captured output, so `run_modes` checks what the replay wrote."""
    replay, out = graphed(fn)

    def call() -> Any:
        replay()
        return out

    return call


def table(results: dict[str, Any]) -> str:
    lines = [
        "| step | configuration | ms / call | tokens/s | vs torch.compile | rel. err vs torch |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for step in ("prefill", "decode"):
        base = results.get(f"{step}: torch.compile (inductor)", {}).get("s_per_call")
        for key, r in results.items():
            if not key.startswith(f"{step}: ") or "s_per_call" not in r:
                continue
            ratio = f"{base / r['s_per_call']:.2f}x" if base else ""
            err = "" if r["rel_err"] is None else f"{r['rel_err']:.1e}"
            lines.append(
                f"| {step} | {key.split(': ', 1)[1]} | {r['s_per_call'] * 1e3:.3f} | "
                f"{r['tokens_per_s']:,.0f} | {ratio} | {err} |"
            )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
