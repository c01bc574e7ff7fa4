"""Issue 24's whole table in one process and one H200 call: every row measured, checked against torch, rendered.

    PYTHONPATH=src:. python3 bench/issue24_table.py --out table.md --json table.json [--quick]
        [--only attention,gemm,simt,backward,norms,sass] [--match TEXT] [--row-timeout S] [--budget S]

Rows (medians of `triton.testing.do_bench`, each result checked against torch; `--quick`: tiny sizes, to prove the
script runs):

- **attention forward**, bf16, d = 64 and 128, causal and not, at 4x32x4096 and 8x16x2048: the tuned bench program
  (`bench/kernels/tensor_core_kernels.py::attention`, d = 128 only) and the plain program
  (`bench/kernels/attention_plain.py`, examples/attention_tile.py's body: with and without `fast_math`), next to
  SDPA's cuDNN and FlashAttention-2 backends and Triton's fused-attention tutorial
  (`bench/kernels/triton_attention.py`);
- **GEMM**, f16 / bf16, 4096^3 and 4096x4096x256: the user path (a GEMM under `@tile.autotune(matmul_configs())`,
  `bench/tile_gemm_tune.py`), `examples/matmul_tile.py` as written (64x64x32) and its `matmul_tuned`, the
  hand-picked 128x256x64 kernel, next to cuBLAS and Triton's matmul tutorial (`bench/kernels/triton_matmul.py`);
- **SIMT** vecadd, 2^28 f32 (`examples/vecadd_simt.py`), next to torch, Triton (tutorial 01) and the
  device-to-device copy;
- **flash attention backward** (`examples/training/torch_ops.py`), d = 128 and 64, causal and not, next to SDPA's
  cuDNN and FlashAttention-2 backward, each gradient checked against cuDNN's;
- **RMSNorm / LayerNorm backward** next to torch (`bench/backward_bench.py`'s norms) and, for LayerNorm, Triton's
  layer-norm tutorial (`bench/kernels/triton_layernorm.py`);
- **SASS facts** (registers, stack, spills, instruction mix) of the attention and GEMM kernels timed above.

Each safekernels row gives its public path -- tile kernels: eager `kernel(...).sync_on(stream)` per call and a
`graph_on` replay; SIMT: the safe `kernel.launch`; training kernels: `torch.autograd.grad` through the custom op --
and, labelled, the kernel-only harness number (`bench/tile_harness.py`, a raw `cuLaunchKernel`, or the backward
operators called without autograd).  The target is judged on the public path (graph replay where there is one).
Each case runs under a timeout and inside a try/except: a broken case is a row "failed: <reason>", never a lost
table; the markdown and JSON are rewritten after every case, so even a killed run leaves what it measured.
`--budget` (seconds) skips the cases left once it is spent.  The measuring code is the existing bench modules'
(imported); this file orders the cases, checks, and renders.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import platform
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT, ROOT / "examples"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

Row = dict[str, Any]

SECTIONS = ("attention", "gemm", "simt", "backward", "norms", "sass")

#: the column titles of the three safekernels paths, per section ("" = the path is not measured there)
PATHS: dict[str, dict[str, str]] = {
    "attention": {"eager": "eager `sync_on`", "graph": "`graph_on` replay", "harness": "kernel only (harness)"},
    "gemm": {"eager": "eager `sync_on`", "graph": "`graph_on` replay", "harness": "kernel only (harness)"},
    "simt": {"eager": "safe `kernel.launch`", "graph": "", "harness": "kernel only (raw `cuLaunchKernel`)"},
    "backward": {"eager": "`torch.autograd.grad` (eager)", "graph": "", "harness": "backward ops only (no autograd)"},
    "norms": {"eager": "`torch.autograd.grad` (eager)", "graph": "", "harness": "dx + dw kernels (sum of medians)"},
}
TITLES = {
    "attention": "Flash attention forward, bf16",
    "gemm": "GEMM, f32 accumulation",
    "simt": "SIMT vecadd, f32",
    "backward": "Flash attention backward, bf16 (TFLOP/s: 2.5x the forward's 4·b·h·s²·d, halved when causal)",
    "norms": "RMSNorm / LayerNorm backward, bf16 (GB/s: x and dy read, dx written, once each)",
    "sass": "SASS facts (cuobjdump) of the kernels timed above",
}
#: why a target is missed, from the analyses already on the pages; shown next to a missed target
LIMITS: dict[str, str] = {
    "attention-cudnn": "of FA3's pieces the pair ping-pong and the carried `p @ v` are on; the producer warpgroup "
    "(`setmaxnreg` honoured by the whole-program route) measured no faster and is off, and is not combined with the "
    "pair; the next block's scores under this block's softmax measured slower (in-order wgmma completion, "
    "registers); at d = 64 one 8-warp CTA per SM (docs/tile-compiler.md, 'Flash attention')",
    "plain-tuned": "without `fast_math`, `exp` keeps libdevice's accuracy: no `exp2` + FMA rewrite "
    "(docs/tile-compiler.md 'Rewrites')",
    "plain-fm-tuned": "the plain program takes its running max on the scaled scores, one more multiply per score "
    "than the tuned one; moving it to the raw scores is exact only for `scale > 0`, which the compiler is not told "
    "(docs/benchmarks-tile.md 'No cliffs for plain programs')",
    "gemm-cublas": "see 'No cliffs for plain programs' in docs/benchmarks-tile.md (cuBLAS moves 2-4% between calls)",
    "gemm-short-k": "4 k-steps per 128x256 tile: the pipeline's prologue and the 64 KB TMA-store epilogue are a large "
    "share of each tile, 3.9 waves on 132 SMs; stream-K / split-K not built (docs/benchmarks-tile.md)",
    "simt-copy": "see docs/simt-compiler.md (coarsened entry) and docs/benchmarks.md 'Reading the SIMT numbers'",
    "backward-cudnn": "dQ by a second kernel (or atomics in the fused form) where cuDNN / FA3 accumulate it in "
    "shared memory; docs/benchmarks-tile.md 'Backward (training) kernels'",
}


# -- sizes and options ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sizes:
    """The problems one run measures: full size (issue 24's table) or `--quick` (tiny, to prove the script)."""

    attention: tuple[tuple[int, int, int], ...]  # (batch, heads, seq)
    heads: tuple[int, ...]  # head dims
    gemm: tuple[tuple[int, int, int], ...]  # (M, N, K)
    simt_n: int
    backward: tuple[tuple[int, int, int, int], ...]  # (batch, heads, seq, d)
    norms: tuple[int, int]  # (rows, n)
    warmup_ms: int
    rep_ms: int


FULL = Sizes(
    attention=((4, 32, 4096), (8, 16, 2048)),
    heads=(128, 64),
    gemm=((4096, 4096, 4096), (4096, 4096, 256)),
    simt_n=1 << 28,
    backward=((4, 32, 4096, 128), (8, 16, 2048, 64)),
    norms=(16384, 4096),
    warmup_ms=25,
    rep_ms=100,
)
QUICK = Sizes(
    attention=((1, 4, 512), (2, 2, 256)),
    heads=(128, 64),
    gemm=((512, 512, 512), (512, 512, 256)),
    simt_n=1 << 22,
    backward=((1, 2, 512, 128), (1, 2, 256, 64)),
    norms=(1024, 4096),
    warmup_ms=2,
    rep_ms=10,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, help="write the markdown table here")
    parser.add_argument("--json", type=Path, help="write every row (and the SASS facts) as JSON here")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: proves the script, measures nothing")
    parser.add_argument("--render", type=Path, help="re-render a --json file as markdown (to --out or stdout); no GPU")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated sections of {SECTIONS}")
    parser.add_argument("--match", default="", help="only the cases whose name contains this text")
    parser.add_argument("--row-timeout", type=float, default=150.0, help="seconds one case may take")
    parser.add_argument("--budget", type=float, default=340.0, help="seconds after which later cases are skipped")
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        parser.error(f"--only: unknown section(s) {unknown}; choose from {SECTIONS}")
    args.only = only
    return args


# -- targets and rendering (no torch, no GPU) ----------------------------------------------------------------


def public_value(row: Row) -> tuple[str, float | None]:
    """The public path a row's target is judged on: the graph replay where measured, else the eager call."""
    values = row.get("values", {})
    for path in ("graph", "eager"):
        if isinstance(values.get(path), (int, float)):
            return path, float(values[path])
    return "", None


def judge(row: Row) -> str:
    """'met: 1.03x ...' or 'missed: 0.82x, short by 0.18x ...' for each of a row's targets, from its public path."""
    return "; ".join(judge_one(row, target) for target in row.get("targets") or [])


def judge_one(row: Row, target: dict[str, Any]) -> str:
    peer = row.get("peers", {}).get(target["peer"])
    path, mine = public_value(row)
    if mine is None or not isinstance(peer, (int, float)) or peer <= 0:
        return "not judged (a value is missing)"
    ratio = mine / peer
    harness = row.get("values", {}).get("harness")
    extra = f"; kernel only {harness / peer:.2f}x" if isinstance(harness, (int, float)) else ""
    if ratio >= target["min"]:
        return f"met: {ratio:.2f}x ({path}{extra})"
    why = f"; limit: `{target['limit']}`" if target.get("limit") in LIMITS else ""
    places = 3 if target["min"] - ratio < 0.01 else 2  # 0.946 against 0.95 is not "short by 0.00"
    return f"**missed: {ratio:.{places}f}x, short by {target['min'] - ratio:.{places}f}x** ({path}{extra}){why}"


def missed_limits(rows: list[Row]) -> list[str]:
    """The known limits named by the section's missed targets, once each, in order (the table names them by key)."""
    keys: list[str] = []
    for row in rows:
        for target in row.get("targets") or []:
            key = target.get("limit", "")
            if key in LIMITS and key not in keys and judge_one(row, target).startswith("**missed"):
                keys.append(key)
    return keys


def _cell(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.0f}" if abs(value) >= 10 else f"{value:.2f}"
    return str(value)


def _target_text(row: Row) -> str:
    return "; ".join(f">= {t['min']:.2f}x {t['peer']}" for t in row.get("targets") or [])


def render_section(section: str, rows: list[Row]) -> list[str]:
    """One markdown table: a column per safekernels path measured in the section, one per peer seen in it."""
    if section == "sass":
        return render_sass(rows)
    paths = [(key, title) for key, title in PATHS[section].items() if title]
    peers: list[str] = []
    for row in rows:
        peers += [p for p in row.get("peers", {}) if p not in peers]
    unit = next((row["unit"] for row in rows if row.get("unit")), "")
    head = ["program", "case", *[t for _, t in paths], *peers, "target", "result", "check vs torch", "status"]
    lines = [f"### {TITLES[section]} ({unit})", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row.get("program", ""), row.get("case", "")]
        cells += [_cell(row.get("values", {}).get(key)) for key, _ in paths]
        cells += [_cell(row.get("peers", {}).get(p)) for p in peers]
        cells += [_target_text(row), judge(row), row.get("check", ""), row.get("status", "ok")]
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |")
    notes = [f"- {row['case']} {row.get('program', '')}: {row['notes']}" for row in rows if row.get("notes")]
    limits = [f"- `{key}`: {LIMITS[key]}" for key in missed_limits(rows)]
    return (
        lines
        + (["", *notes] if notes else [])
        + (["", "What limits the missed targets:", "", *limits] if limits else [])
    )


SASS_KEYS = ("regs", "stack", "LDL", "STL", "instructions", "HGMMA loop", "HGMMA", "MUFU", "FFMA", "FMUL", "FADD",
             "BAR", "UTMALDG", "USETMAXREG", "WARPSYNC")  # fmt: skip


def render_sass(rows: list[Row]) -> list[str]:
    head = ["kernel", "specialization", *SASS_KEYS, "status"]
    lines = [f"### {TITLES['sass']}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        facts = row.get("facts", {})
        cells = [row.get("program", ""), row.get("case", ""), *[_cell(facts.get(k)) for k in SASS_KEYS]]
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in [*cells, row.get("status", "ok")]) + " |")
    lines += ["", "regs / stack: `cuobjdump -res-usage`; LDL / STL: local-memory loads and stores (spills); the rest: "
              "instruction counts in the SASS (`cuobjdump -sass`); HGMMA loop: the instructions of the first loop "
              "around HGMMA (the key-block loop of attention, the first of two when the loop is split at the "
              "diagonal; GEMM's K loop)."]  # fmt: skip
    return lines


def render(result: dict[str, Any]) -> str:
    """The whole page section from a result (`measure`'s, or a JSON file's)."""
    meta = result.get("meta", {})
    lines = [
        f"## Issue 24, one run ({meta.get('date', '?')}{', --quick' if meta.get('quick') else ''})",
        "",
        f"{meta.get('gpu', '?')}; {meta.get('versions', '')}.  `bench/issue24_table.py`, one process, "
        f"{meta.get('elapsed_s', 0):.0f} s; medians of `triton.testing.do_bench` (warmup "
        f"{meta.get('warmup_ms', '?')} ms, rep {meta.get('rep_ms', '?')} ms); every result checked against torch.",
        "",
    ]
    rows = result.get("rows", [])
    for section in SECTIONS:
        mine = [r for r in rows if r.get("section") == section]
        if mine:
            lines += [*render_section(section, mine), ""]
    elapsed = meta.get("section_s", {})
    if elapsed:
        lines.append("Seconds per section: " + ", ".join(f"{k} {v:.0f}" for k, v in elapsed.items()) + ".")
    return "\n".join(lines) + "\n"


# -- running cases -------------------------------------------------------------------------------------------


class CaseTimeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise `CaseTimeout` in the main thread after `seconds` (at the next Python bytecode: a hang inside one C call
    is not interrupted; the outer `timeout` of the device call is the backstop)."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"timed out after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Table:
    """The rows so far, written to disk after every case."""

    args: argparse.Namespace
    sizes: Sizes
    meta: dict[str, Any] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    def result(self) -> dict[str, Any]:
        self.meta["elapsed_s"] = time.monotonic() - self.started
        return {"meta": self.meta, "rows": self.rows}

    def save(self) -> None:
        result = self.result()
        if self.args.json:
            self.args.json.write_text(json.dumps(result, indent=1, default=str))
        if self.args.out:
            self.args.out.write_text(render(result))

    def run(self, section: str, name: str, case: Callable[[], list[Row]], always: bool = False) -> None:
        """Run one case (it returns its rows); a failure, a timeout or a spent budget becomes one row saying so.
        `always`: run it even when the budget is spent (the SASS facts: no GPU time, and the only record of the
        kernels' registers and spills)."""
        if self.args.match and self.args.match not in f"{section} {name}" and not always:
            return
        spent = time.monotonic() - self.started
        if spent > self.args.budget and not always:
            self.rows.append(
                {"section": section, "case": name, "status": f"skipped: budget of {self.args.budget:.0f} s spent"}
            )
            self.save()
            return
        t0 = time.monotonic()
        try:
            with time_limit(
                self.args.row_timeout
                if always
                else min(self.args.row_timeout, max(self.args.budget - spent, 1.0) + 30.0)
            ):
                rows = case()
        except Exception as exc:  # one broken case reports itself; the table goes on
            traceback.print_exc()
            rows = [{"section": section, "case": name, "status": f"failed: {type(exc).__name__}: {str(exc)[:300]}"}]
        for row in rows:
            row.setdefault("section", section)
            row.setdefault("case", name)
            row.setdefault("status", "ok")
            row["seconds"] = round(time.monotonic() - t0, 1)
            print(json.dumps(row, default=str), flush=True)
        self.rows += rows
        self.save()


def check_text(errs: dict[str, float], limit: float) -> str:
    """'ok (max rel err 3e-04)' or '**FAILED**: eager 0.5 > 1e-02'; a failed check keeps the timing."""
    bad = {k: v for k, v in errs.items() if not (v <= limit)}  # NaN fails too
    if bad:
        return "**FAILED**: " + ", ".join(f"{k} {v:.1e}" for k, v in bad.items()) + f" > {limit:.0e}"
    return f"ok (max rel err {max(errs.values()):.1e})" if errs else ""


# -- the GPU part ---------------------------------------------------------------------------------------------


class Gpu:
    """What every case shares: torch, the device, the stream, the timers (imported only here: the rendering above
    runs without torch)."""

    def __init__(self, sizes: Sizes) -> None:
        import torch
        import triton  # type: ignore[import-not-found,unused-ignore]
        from triton.testing import do_bench  # type: ignore[import-not-found,unused-ignore]

        import safekernels as sk
        from bench.tile_bench import Public
        from bench.tile_harness import Runner

        self.torch, self.triton, self.sk, self.do_bench = torch, triton, sk, do_bench
        self.sizes = sizes
        self.device = sk.Device(0)
        self.stream = sk.as_stream(torch.cuda.current_stream(), self.device)
        self.pub = Public(self.device, self.stream)
        self.runner = Runner()
        self._plain: dict[tuple[int, bool], Any] = {}

    def ms(self, fn: Callable[[], Any]) -> float:
        """Median milliseconds of `fn` (`triton.testing.do_bench`: L2 flushed before each call, CUDA events)."""
        return float(self.do_bench(fn, warmup=self.sizes.warmup_ms, rep=self.sizes.rep_ms, return_mode="median"))

    def sync(self) -> None:
        self.torch.cuda.synchronize()

    def plain(self, d: int, fast_math: bool) -> Any:
        """The plain attention program (examples/attention_tile.py's body) at 128 x 128 blocks and head dim d."""
        from bench.kernels import attention_plain as P

        key = (d, fast_math)
        if key not in self._plain:
            self._plain[key] = P.make_attention_plain(128, 128, d, fast_math=fast_math)
        return self._plain[key]

    def public(self, kernel: Any, state: list[Any], poison: Callable[[], None], check: Callable[[], float]
               ) -> tuple[float, float, dict[str, float], Any]:  # fmt: skip
        """Eager `kernel(*state).sync_on(stream)` per call, then the op captured once with `graph_on` and replayed;
        the output is poisoned before each and checked after.  Returns (eager ms, graph ms, errors, the graph: keep
        it alive while its memory is read)."""
        stream = self.stream

        def step() -> None:
            state[:] = kernel(*state).sync_on(stream)

        poison()
        step()  # compiles (and, for an autotuned kernel, tunes)
        self.sync()
        errs = {"eager": check()}
        eager = self.ms(step)
        graph = kernel(*state).graph_on(stream)
        poison()
        graph.replay()
        stream.synchronize()
        errs["graph"] = check()
        return eager, self.ms(graph.replay), errs, graph

    def harness(self, kernel: Any, values: list[Any], poison: Callable[[], None], check: Callable[[], float]
                ) -> tuple[float, float, Any]:  # fmt: skip
        """Kernel only (`bench/tile_harness.py`): (ms, error, the loaded kernel for its SASS)."""
        from safekernels.tile.gpu_launch import tile_kernel_for

        launch = self.runner.prepared(kernel, *values)
        poison()
        launch()
        self.sync()
        err = check()
        return self.ms(launch), err, tile_kernel_for(kernel, values, self.device)


def _rel(a: Any, b: Any) -> float:
    from bench.tile_bench import rel

    return rel(a, b)


def attention_cases(gpu: Gpu, table: Table, sass: list[tuple[str, str, Any]]) -> None:
    torch = gpu.torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from bench.kernels import tensor_core_kernels as T
    from bench.kernels import triton_attention
    from bench.tile_harness import arg
    from safekernels import tile
    from safekernels.dtypes import bf16

    for b, h, s in gpu.sizes.attention:
        for d in gpu.sizes.heads:
            for causal in (False, True):

                def case(b: int = b, h: int = h, s: int = s, d: int = d, causal: bool = causal) -> list[Row]:
                    name = f"{b}x{h}x{s} d={d} {'causal' if causal else 'non-causal'}"
                    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
                    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                    flops = 4 * b * h * s * s * d / (2 if causal else 1)

                    def tf(ms: float) -> float:
                        return flops / ms / 1e9

                    peers: dict[str, float | None] = {}
                    peer_errs: dict[str, float] = {}
                    notes: list[str] = []
                    for label, backend in (("cuDNN SDPA", SDPBackend.CUDNN_ATTENTION),
                                           ("FA2 SDPA", SDPBackend.FLASH_ATTENTION)):  # fmt: skip

                        def sdpa(backend: Any = backend) -> Any:
                            with sdpa_kernel(backend):
                                return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)

                        try:
                            peer_errs[label] = _rel(sdpa(), want)
                            peers[label] = tf(gpu.ms(sdpa))
                        except Exception as exc:  # a backend this build or shape lacks
                            peers[label] = None
                            notes.append(f"{label} unavailable ({type(exc).__name__})")
                    try:
                        tout = torch.empty_like(q)
                        peer_errs["Triton"] = _rel(triton_attention.attention(q, k, v, causal, tout), want)
                        peers["Triton"] = tf(gpu.ms(lambda: triton_attention.attention(q, k, v, causal, tout)))
                        if not causal and (b, h, s) == gpu.sizes.attention[0]:
                            sass.append((f"attention Triton tutorial d={d}", name,
                                         triton_attention.launch(q, k, v, causal, tout)))  # fmt: skip
                    except Exception as exc:
                        peers["Triton"] = None
                        notes.append(f"Triton failed ({type(exc).__name__}: {str(exc)[:120]})")
                    notes += [
                        "peers' rel err vs SDPA's default: " + ", ".join(f"{p} {e:.1e}" for p, e in peer_errs.items())
                    ]
                    rows_n = b * h * s
                    flat = [x.view(rows_n, d) for x in (q, k, v)]
                    scale = 1.0 / math.sqrt(d)
                    programs: list[tuple[str, Any]] = []
                    if d == 128:
                        programs.append(("tuned (bench kernel)", T.attention))
                    programs += [
                        ("plain + `fast_math`", gpu.plain(d, True)),
                        ("plain, as written", gpu.plain(d, False)),
                    ]
                    out: list[Row] = []
                    tuned_value: float | None = None
                    cudnn = {"peer": "cuDNN SDPA", "min": 1.0, "limit": "attention-cudnn"}
                    near_tuned = {"peer": "tuned (same path)", "min": 0.95, "limit": "plain-tuned"}
                    for label, kern in programs:
                        o = tile.zeros((rows_n, d), bf16, device=gpu.device).sync_on(gpu.stream)
                        view = gpu.pub.view(o, torch.bfloat16)

                        def poison(view: Any = view) -> None:
                            view.fill_(float("nan"))

                        def check(view: Any = view) -> float:
                            return _rel(view.view(b, h, s, d), want)

                        handles = [gpu.pub.tensor(x)[0] for x in flat]
                        state = [o.partition((128, d)), *handles, s, scale, int(causal)]
                        e_ms, g_ms, errs, graph = gpu.public(kern, state, poison, check)
                        values = {"eager": tf(e_ms), "graph": tf(g_ms)}
                        vals = [arg(view, (128, d)), *(arg(x) for x in flat), s, scale, int(causal)]
                        h_ms, errs["harness"], loaded = gpu.harness(kern, vals, poison, check)
                        values["harness"] = tf(h_ms)
                        del graph, state, handles
                        if not causal and (b, h, s) == gpu.sizes.attention[0]:
                            sass.append((f"attention {label} d={d}", name, loaded))
                        row_peers = dict(peers)
                        targets: list[dict[str, Any]] = []
                        if label.startswith("tuned"):
                            tuned_value = public_value({"values": values})[1]
                            targets.append(cudnn)
                        else:
                            if tuned_value is not None:
                                row_peers["tuned (same path)"] = tuned_value
                                limit = "plain-fm-tuned" if "fast_math" in label else "plain-tuned"
                                targets.append({**near_tuned, "limit": limit})
                            if "fast_math" in label:
                                targets.insert(0, cudnn)
                        out.append({
                            "program": label, "case": name, "unit": "TFLOP/s", "values": values, "peers": row_peers,
                            "targets": targets, "errs": errs, "check": check_text(errs, 2e-2),
                            "notes": "; ".join(notes) if not out else "",
                        })  # fmt: skip
                    if d != 128:
                        out[0]["notes"] = "; ".join(filter(None, [out[0]["notes"], "no tuned program at d=64"]))
                    return out

                table.run("attention", f"{b}x{h}x{s} d={d} {'causal' if causal else 'non-causal'}", case)


def gemm_cases(gpu: Gpu, table: Table, sass: list[tuple[str, str, Any]]) -> None:
    torch = gpu.torch
    import matmul_tile  # type: ignore[import-not-found,unused-ignore]  # examples/ is on sys.path

    from bench import tile_gemm_tune as G
    from bench.kernels import tile_kernels as K
    from bench.kernels import triton_matmul
    from bench.tile_harness import arg
    from safekernels import tile
    from safekernels.autotune.defaults import MATMUL_TILES
    from safekernels.dtypes import bf16, f16, f32

    for m, n, k in gpu.sizes.gemm:
        for tdt in (torch.float16, torch.bfloat16):

            def case(m: int = m, n: int = n, k: int = k, tdt: Any = tdt) -> list[Row]:
                dname = "f16" if tdt == torch.float16 else "bf16"
                sdt = f16 if dname == "f16" else bf16
                a, bm = torch.randn(m, k, device="cuda", dtype=tdt), torch.randn(k, n, device="cuda", dtype=tdt)
                want = a.float() @ bm.float()
                flops = 2 * m * n * k

                def tf(ms: float) -> float:
                    return flops / ms / 1e9

                peers: dict[str, float | None] = {}
                c = torch.empty(m, n, device="cuda", dtype=tdt)
                peers["cuBLAS"] = tf(gpu.ms(lambda: torch.matmul(a, bm, out=c)))
                notes: list[str] = []
                try:
                    tc = torch.empty(m, n, device="cuda", dtype=tdt)
                    terr = _rel(triton_matmul.matmul(a, bm, tc), want)
                    peers["Triton (tutorial)"] = tf(gpu.ms(lambda: triton_matmul.matmul(a, bm, tc)))
                    if (m, n, k) == gpu.sizes.gemm[0] and dname == "f16":
                        sass.append(("gemm Triton tutorial", f"{m}x{n}x{k} f16", triton_matmul.launch(a, bm, tc)))
                    notes.append(f"Triton rel err {terr:.1e}, pick {triton_matmul.matmul_kernel.best_config}")
                except Exception as exc:
                    peers["Triton (tutorial)"] = None
                    notes.append(f"Triton failed ({type(exc).__name__}: {str(exc)[:120]})")
                short = k <= 256  # issue 24's short-K row: 4096x4096x256
                target = [{"peer": "cuBLAS", "min": 0.9 if short else 0.95,
                           "limit": "gemm-short-k" if short else "gemm-cublas"}]  # fmt: skip
                tuned = G.gemm_f16_tuned if dname == "f16" else G.gemm_bf16_tuned
                programs: list[tuple[str, Any, Any, tuple[int, int] | None, list[dict[str, Any]]]] = [
                    ("user path: `@tile.autotune(matmul_configs())`", tuned, sdt, None, target),
                    ("hand-picked 128x256x64", K.gemm_f16 if dname == "f16" else K.gemm_bf16, sdt, (K.BM, K.BN), []),
                ]
                if dname == "f16":
                    programs += [
                        ("examples/matmul_tile.py `matmul` as written (64x64x32, f32 out)", matmul_tile.matmul, f32,
                         (matmul_tile.BM, matmul_tile.BN), []),
                        ("examples/matmul_tile.py `matmul_tuned` (f32 out)", matmul_tile.matmul_tuned, f32, None,
                         target),
                    ]  # fmt: skip
                out: list[Row] = []
                for label, kern, odt, tiles, tgt in programs:
                    handles = [gpu.pub.tensor(x)[0] for x in (a, bm)]
                    o = tile.zeros((m, n), odt, device=gpu.device).sync_on(gpu.stream)
                    view = gpu.pub.view(o, torch.float32 if odt is f32 else tdt)

                    def poison(view: Any = view) -> None:
                        view.fill_(float("nan"))

                    def check(view: Any = view) -> float:
                        return _rel(view, want)

                    state = [o.partition(tiles) if tiles else o, *handles]
                    e_ms, g_ms, errs, graph = gpu.public(kern, state, poison, check)
                    values = {"eager": tf(e_ms), "graph": tf(g_ms)}
                    row_notes = []
                    if tiles is not None:
                        h_ms, errs["harness"], loaded = gpu.harness(kern, [arg(view, tiles), arg(a), arg(bm)],
                                                                     poison, check)  # fmt: skip
                        values["harness"] = tf(h_ms)
                        if (m, n, k) == gpu.sizes.gemm[0] and dname == "f16":
                            sass.append((f"gemm {label.split(' (')[0]}", f"{m}x{n}x{k} f16", loaded))
                    else:
                        row_notes.append(
                            "kernel only: n/a (autotuned; the pick's kernel is timed as 'hand-picked' when they agree)"
                        )
                        with contextlib.suppress(Exception):
                            key = next(key for key in kern.best if key[0][0][0] == (m, k))
                            row_notes.append("tuner's pick " + "x".join(map(str, MATMUL_TILES[kern.best[key]])))
                    del graph
                    out.append({
                        "program": label, "case": f"{m}x{n}x{k} {dname}", "unit": "TFLOP/s", "values": values,
                        "peers": dict(peers), "targets": tgt, "errs": errs, "check": check_text(errs, 2e-2),
                        "notes": "; ".join(row_notes + (notes if not out else [])),
                    })  # fmt: skip
                return out

            table.run("gemm", f"{m}x{n}x{k} {'f16' if tdt == torch.float16 else 'bf16'}", case)


def simt_cases(gpu: Gpu, table: Table) -> None:
    torch = gpu.torch

    def case() -> list[Row]:
        from bench.simt_bench import _load_example
        from bench.tile_bench import _tr_add
        from safekernels import simt
        from safekernels.runtime.cuda_backend import _driver, check
        from safekernels.simt.gpu_launch import launcher_for

        n = gpu.sizes.simt_n
        a, b = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
        c = torch.empty(n, device="cuda")
        gbs = 3 * 4 * n / 1e6  # bytes read + written, per ms -> GB/s

        vecadd = _load_example("vecadd_simt").vecadd
        dev, stream = gpu.device, gpu.stream
        ab, bb, cb = (gpu.sk.as_buffer(x, dev) for x in (a, b, c))
        prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)

        def safe() -> None:
            vecadd.launch(prepared, stream, ab, bb, cb)

        c.fill_(float("nan"))
        safe()
        gpu.sync()
        errs = {"eager": 0.0 if torch.equal(c, a + b) else float("inf")}
        values = {"eager": gbs / gpu.ms(safe)}
        launcher = launcher_for(vecadd, dev)
        function, hw_grid = launcher.entry_for(prepared.grid, prepared.block)
        driver, params, raw = _driver(), launcher.param_address, torch.cuda.current_stream().cuda_stream

        def kernel_only() -> None:
            check(driver.cuLaunchKernel(function, *hw_grid, *prepared.block, 0, raw, params, 0), "launch")

        c.fill_(float("nan"))
        kernel_only()
        gpu.sync()
        errs["harness"] = 0.0 if torch.equal(c, a + b) else float("inf")
        values["harness"] = gbs / gpu.ms(kernel_only)

        def triton_add() -> None:
            _tr_add[(gpu.triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)

        c.fill_(float("nan"))
        triton_add()
        gpu.sync()
        errs["Triton"] = 0.0 if torch.equal(c, a + b) else float("inf")
        peers = {
            "torch": gbs / gpu.ms(lambda: torch.add(a, b, out=c)),
            "Triton (tutorial, BLOCK 1024)": gbs / gpu.ms(triton_add),
            "d2d copy (`copy_`)": 2 * 4 * n / 1e6 / gpu.ms(lambda: c.copy_(a)),
        }
        entry = "coarsened" if hw_grid[0] != prepared.grid[0] else "one element per thread"
        return [{
            "program": "examples/vecadd_simt.py", "case": f"{n} f32", "unit": "GB/s", "values": values,
            "peers": peers, "targets": [{"peer": "d2d copy (`copy_`)", "min": 0.95, "limit": "simt-copy"}],
            "errs": errs, "check": "ok (bitwise equal to torch)" if max(errs.values()) == 0 else "**FAILED**",
            "notes": f"entry launched: {entry}; no graph path for SIMT launches",
        }]  # fmt: skip

    table.run("simt", f"vecadd {gpu.sizes.simt_n} f32", case)


def backward_cases(gpu: Gpu, table: Table) -> None:
    torch = gpu.torch
    from bench import backward_bench as BB

    for b, h, s, d in gpu.sizes.backward:
        for causal in (False, True):

            def case(b: int = b, h: int = h, s: int = s, d: int = d, causal: bool = causal) -> list[Row]:
                from torch.nn.attention import SDPBackend, sdpa_kernel
                from torch.nn.functional import scaled_dot_product_attention as sdpa

                from examples.training import torch_ops

                torch.manual_seed(0)
                q, k, v, dout = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(4))
                flops = 2.5 * 4 * b * h * s * s * d / (2 if causal else 1)

                def tf(ms: float) -> float:
                    return flops / ms / 1e9

                ms, ours = BB._autograd_ms(lambda q, k, v: torch_ops.flash_attention(q, k, v, causal), [q, k, v], dout)
                values = {"eager": tf(ms)}
                peers: dict[str, float | None] = {}
                refs: dict[str, list[Any]] = {}
                for name, backend in (
                    ("cuDNN SDPA", SDPBackend.CUDNN_ATTENTION),
                    ("FA2 SDPA", SDPBackend.FLASH_ATTENTION),
                ):
                    try:
                        with sdpa_kernel(backend):
                            p_ms, refs[name] = BB._autograd_ms(lambda q, k, v: sdpa(q, k, v, is_causal=causal),
                                                               [q, k, v], dout)  # fmt: skip
                        peers[name] = tf(p_ms)
                    except Exception:
                        peers[name] = None
                ref_name = "cuDNN SDPA" if "cuDNN SDPA" in refs else "FA2 SDPA"
                errs = {f"{g} vs {ref_name}": BB._rel(x, r) for g, x, r in zip(("dq", "dk", "dv"), ours, refs[ref_name],
                                                                                strict=True)}  # fmt: skip
                blocks, fused = BB._variants(d)[0]
                flat = [x.reshape(-1, d).contiguous() for x in (q, k, v, dout)]
                values["harness"] = tf(BB._kernels_ms(flat, s, d, causal, blocks, fused)["total"])
                form = "fused (dQ by atomics)" if fused else "dq kernel + dkdv kernel"
                return [{
                    "program": "examples/training flash_attention", "case": f"{b}x{h}x{s} d={d} "
                    f"{'causal' if causal else 'non-causal'}", "unit": "TFLOP/s", "values": values, "peers": peers,
                    "targets": [{"peer": "cuDNN SDPA", "min": 0.9, "limit": "backward-cudnn"}], "errs": errs,
                    "check": check_text(errs, 2e-2), "notes": f"blocks {blocks}, {form}",
                }]  # fmt: skip

            table.run("backward", f"{b}x{h}x{s} d={d} {'causal' if causal else 'non-causal'}", case)


def norm_cases(gpu: Gpu, table: Table) -> None:
    def case() -> list[Row]:
        from bench import backward_bench as BB

        out: list[Row] = []
        for r in BB._norms(*gpu.sizes.norms):
            gb = r["bwd_bytes"] / 1e6
            errs = {k: a for k, (a, _t) in r["rel_err"].items()}
            # bf16 gradients: within 2e-2 of torch's float32 ones, or within twice torch's own bf16 error
            bad = [k for k, (a, t) in r["rel_err"].items() if not a <= max(2e-2, 2 * t)]
            torch_errs = ", ".join(f"{k} {t:.1e}" for k, (_a, t) in r["rel_err"].items())
            out.append({
                "program": f"examples/training {r['name']}", "case": f"{r['shape']} bf16", "unit": "GB/s",
                "values": {"eager": gb / r["safekernels_bwd_ms"], "harness": gb / (r["dx_ms"] + r["dw_ms"])},
                "peers": {"torch": gb / r["torch_bwd_ms"]}, "targets": [], "errs": errs,
                "check": "**FAILED**: " + ", ".join(bad) if bad else f"ok (max rel err {max(errs.values()):.1e})",
                "notes": f"check: vs torch in float32 (torch bf16's own errors: {torch_errs}); forward: "
                f"{r['fwd_bytes'] / 1e6 / r['safekernels_fwd_ms']:.0f} GB/s vs torch "
                f"{r['fwd_bytes'] / 1e6 / r['torch_fwd_ms']:.0f}; issue 24 sets no speed target for the norms",
            })  # fmt: skip
            if r["name"] == "LayerNorm":
                out[-1]["peers"]["Triton (tutorial 05)"] = triton_layer_norm_gbs(gpu, out[-1])
        return out

    table.run("norms", f"{gpu.sizes.norms[0]}x{gpu.sizes.norms[1]}", case)


def triton_layer_norm_gbs(gpu: Gpu, row: Row) -> float | None:
    """GB/s of the backward of Triton's layer-norm tutorial (`bench/kernels/triton_layernorm.py`) on inputs drawn
    as `backward_bench._norms` draws them, timed the same way; its gradients' errors against torch in float32 go to
    the row's notes (the peer's own accuracy: its dw / db partial sums are in bf16).  None when it fails."""
    torch = gpu.torch
    try:
        import torch.nn.functional as F

        from bench import backward_bench as BB
        from bench.kernels import triton_layernorm

        rows, n = gpu.sizes.norms
        torch.manual_seed(2)
        x, dy = (torch.randn(rows, n, device="cuda", dtype=torch.bfloat16) for _ in range(2))
        w = (1 + 0.5 * torch.randn(n, device="cuda")).to(torch.bfloat16)
        b = (0.5 * torch.randn(n, device="cuda")).to(torch.bfloat16)
        ms, grads = BB._autograd_ms(lambda x, w, b: triton_layernorm.layer_norm(x, w, b, 1e-5), [x, w, b], dy)
        _, refs = BB._autograd_ms(
            lambda x, w, b: F.layer_norm(x, (n,), w, b, 1e-5), [x.float(), w.float(), b.float()], dy.float()
        )
        errs = ", ".join(f"{k} {BB._rel(g, r):.1e}" for k, g, r in zip(("dx", "dw", "db"), grads, refs, strict=True))
        row["notes"] += f"; Triton tutorial 05's gradients vs torch in float32: {errs}"
        return float(3 * rows * n * 2 / 1e6 / ms)
    except Exception as exc:  # the peer failing must not lose the row
        row["notes"] += f"; Triton tutorial 05 failed ({type(exc).__name__}: {str(exc)[:120]})"
        return None


def sass_cases(gpu: Gpu, table: Table, sass: list[tuple[str, str, Any]]) -> None:
    import tempfile

    def case() -> list[Row]:
        from bench.wgmma_overlap_bench import _key_loop
        from bench.whole_program_bench import _sass, loaded_image

        work = Path(tempfile.mkdtemp(prefix="issue24-sass-"))
        out: list[Row] = []
        for label, spec, source in sass:
            try:  # a tile kernel as loaded (`.compiled`), or what Triton returned for its launch (`.asm`)
                image = (
                    bytes(source.asm["cubin"]) if hasattr(source, "asm") else loaded_image(source.compiled, gpu.device)
                )
                before = set((work / "sass").glob("*.sass"))
                facts = _sass(image, label, work)
                written = sorted(set((work / "sass").glob("*.sass")) - before)
                with contextlib.suppress(Exception):  # the first loop around HGMMA: the key loop / the K loop
                    facts["HGMMA loop"] = _key_loop(written[0].read_text())
                status = "ok" if "regs" in facts else f"failed: {facts}"
            except Exception as exc:
                facts, status = {}, f"failed: {type(exc).__name__}: {str(exc)[:200]}"
            out.append({"program": label, "case": spec, "facts": facts, "status": status})
        if not out:
            out.append({"program": "", "case": "", "status": "failed: no attention or GEMM kernel was compiled"})
        return out

    table.run("sass", "attention and GEMM kernels", case, always=True)


def meta(gpu: Gpu, args: argparse.Namespace, sizes: Sizes) -> dict[str, Any]:
    torch, triton = gpu.torch, gpu.triton
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "quick": bool(args.quick),
        "gpu": torch.cuda.get_device_name(),
        "versions": f"torch {torch.__version__}, triton {triton.__version__}, cuDNN {torch.backends.cudnn.version()}, "
        f"python {platform.python_version()}, safekernels from this tree",
        "warmup_ms": sizes.warmup_ms,
        "rep_ms": sizes.rep_ms,
        "argv": sys.argv[1:],
        "section_s": {},
    }


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.render:
        text = render(json.loads(args.render.read_text()))
        if args.out:
            args.out.write_text(text)
        print(text)
        return
    sizes = QUICK if args.quick else FULL
    table = Table(args, sizes)
    gpu = Gpu(sizes)
    table.meta = meta(gpu, args, sizes)
    sass: list[tuple[str, str, Any]] = []
    parts: dict[str, Callable[[], None]] = {
        "attention": lambda: attention_cases(gpu, table, sass),
        "gemm": lambda: gemm_cases(gpu, table, sass),
        "simt": lambda: simt_cases(gpu, table),
        "backward": lambda: backward_cases(gpu, table),
        "norms": lambda: norm_cases(gpu, table),
        "sass": lambda: sass_cases(gpu, table, sass),
    }
    for section in SECTIONS:
        if section in args.only:
            t0 = time.monotonic()
            try:
                parts[section]()
            except Exception as exc:  # a section's set-up (an import) failed: one row says so
                traceback.print_exc()
                table.rows.append({"section": section, "case": "", "status": f"failed: {type(exc).__name__}: {exc}"})
            table.meta["section_s"][section] = time.monotonic() - t0
            table.save()
    table.save()
    print(render(table.result()))


if __name__ == "__main__":
    main()
