"""The softmax tile kernel as a torch custom op: eager and under `torch.compile(fullgraph=True)` vs called directly.

Issue 14's bar: registering a kernel as a torch operator must not cost speed.  Rows, all on one 8192 x 8192 f32
softmax (`bench/kernels/tile_kernels.py::softmax`), all medians of `safekernels.testing.do_bench` on torch's
current stream, GB/s counting the input read once and the output written once:

- direct, public path: `out, x = softmax(out, x).sync_on(stream)` (the host waits for every call);
- direct, kernel only: the compiled kernel launched on torch tensors with no host path (`bench/tile_harness.py`);
- torch op, eager: `op(x)` (functional form: torch allocates the output from its caching allocator);
- torch op, `torch.compile(fullgraph=True)` of `lambda x: op(x)`;
- torch op, replayed from a CUDA graph captured by torch (`torch.cuda.graph`);
- `torch.softmax`, for scale.

    PYTHONPATH=src:. python3 bench/torch_op_bench.py [--rows 8192] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import torch  # noqa: E402

import safekernels as sk  # noqa: E402
import safekernels.torch as skt  # noqa: E402
from bench.kernels.tile_kernels import ROW, softmax  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.testing import do_bench  # noqa: E402
from safekernels.torch.bridge import wrap  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--cpu", action="store_true", help="CPU tensors on the CPU executor (a smoke test)")
    args = parser.parse_args()
    rows, cols = args.rows, ROW
    gpu = not args.cpu
    device = sk.Device(0) if gpu else sk.Device.cpu()
    where = "cuda" if gpu else "cpu"
    stream = sk.as_stream(torch.cuda.current_stream(), device) if gpu else device.default_stream
    timing_stream = torch.cuda.current_stream() if gpu else stream
    nbytes = 2 * rows * cols * 4
    x = torch.randn(rows, cols, device=where)
    ref = torch.softmax(x, dim=1)
    results: dict[str, float] = {}
    failures: list[str] = []

    def bench(label: str, fn: Any, check: Any = None) -> None:
        try:
            ms = do_bench(fn, return_mode="median", stream=timing_stream)
            if check is not None:
                torch.testing.assert_close(check(), ref, rtol=1e-5, atol=1e-6)
        except Exception as exc:  # one failing row must not lose the others
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
            print(failures[-1], flush=True)
            return
        results[label] = nbytes / (ms * 1e-3) / 1e9
        print(f"{label}: {ms * 1e3:.1f} us, {results[label]:.0f} GB/s", flush=True)

    # direct, public path: tile tensors over the same memory as x and a torch output
    out_t = torch.empty_like(x)
    state: list[Any] = [
        tile.Tensor(wrap(out_t, device, "out"), (rows, cols)).partition((1, cols)),
        tile.Tensor(wrap(x, device, "x"), (rows, cols)),
    ]

    def direct() -> None:
        state[:] = softmax(*state).sync_on(stream)

    bench("direct, public path (sync_on per call)", direct, lambda: out_t)

    if gpu:
        from bench.tile_harness import Runner, arg

        out_k = torch.empty_like(x)
        launch = Runner().prepared(softmax, arg(out_k, (1, cols)), arg(x))
        bench("direct, kernel only (harness)", launch, lambda: out_k)

    op = skt.custom_op("skbench::softmax", softmax, outputs={"out": "x"})
    holder: dict[str, Any] = {}

    def eager() -> None:
        holder["y"] = op(x)

    bench("torch op, eager", eager, lambda: holder["y"])
    compiled = torch.compile(lambda v: op(v), fullgraph=True)
    compiled(x)

    def in_compile() -> None:
        holder["y"] = compiled(x)

    bench("torch op, torch.compile(fullgraph=True)", in_compile, lambda: holder["y"])
    explanation = torch._dynamo.explain(lambda v: op(v))(x)
    graph_breaks = explanation.graph_break_count

    if gpu:
        try:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                op(x)
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                captured = op(x)
            bench("torch op, CUDA graph replay", graph.replay, lambda: captured)
        except Exception as exc:
            failures.append(f"CUDA graph capture: {type(exc).__name__}: {exc}")
    bench("torch.softmax", lambda: torch.softmax(x, dim=1))

    name = torch.cuda.get_device_name() if gpu else "CPU executor"
    lines = [
        f"### softmax {rows} x {cols} f32 as a torch custom op ({name}, torch {torch.__version__})",
        "",
        "| path | GB/s |",
        "|---|---|",
        *(f"| {k} | {v:.0f} |" for k, v in results.items()),
        "",
        f"graph breaks under torch.compile: {graph_breaks}",
        *(f"failed: {f}" for f in failures),
    ]
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")
        args.out.with_suffix(".json").write_text(json.dumps({"gbps": results, "graph_breaks": graph_breaks}))


if __name__ == "__main__":
    main()
