"""Host cost of one `custom_op` call of a tiny kernel, next to Triton's launch and `torch.add`, in one process.

Issue 23's question: at decode shapes the kernel runs for a few microseconds, so what a call costs on the host
decides the speed.  Every row launches a 4096-element f32 add (a kernel of ~2 µs) on torch's current stream:

- safekernels `custom_op`, functional `op(x, y)` (allocates its output, like `torch.add(x, y)`) and in place
  `op_(z, x, y)` (like Triton's launch and `torch.add(x, y, out=z)`), on the direct path;
- the same op through torch's dispatcher (`op.op(...)`: the path every call took before the direct path);
- Triton: a 1-D add kernel, `add_kernel[grid](x, y, z, n, BLOCK=4096)`;
- `torch.add(x, y)` and `torch.add(x, y, out=z)`.

Two modes: back to back (N calls, one synchronize at the end: the host's cost per call, since the GPU keeps
up) and with `torch.cuda.synchronize()` after every call (a round trip per call).  Each figure is the median
over 7 rounds of the per-call mean.

Breakdown of the in-place direct call, layer by layer (each layer includes the ones before it):
driver call (the plan's generated launcher: pack + `cuLaunchKernel`, values built once), + wrapping (tile
handles over the tensors' addresses: `_PlannedCall.run`), + plan lookup (signature key, one dict lookup),
+ the "is anything tracing?" checks (`op(...)`), and torch's dispatcher in place of all but the kernel.

    PYTHONPATH=src:. python3 bench/torch_host_cost.py [--calls 20000] [--out FILE.md] [--json FILE.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import torch  # noqa: E402

import safekernels.torch as skt  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.dtypes import f32  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

N = 4096


@tile.kernel
def vadd(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def per_call_us(fn: Callable[[], Any], calls: int, sync_each: bool, rounds: int = 7) -> float:
    """Median over `rounds` of the mean wall time per call (µs)."""
    sync = torch.cuda.synchronize
    for _ in range(200):
        fn()
    sync()
    means: list[float] = []
    for _ in range(rounds):
        if sync_each:
            start = time.perf_counter()
            for _ in range(calls):
                fn()
                sync()
        else:
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            sync()
        means.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(means)


def triton_add() -> Callable[[Any, Any, Any], None] | None:
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]  # Triton reads annotations
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(z_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    def launch(x: Any, y: Any, z: Any) -> None:
        add_kernel[(1,)](x, y, z, N, BLOCK=N)

    return launch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    calls = args.calls
    x, y = torch.randn(N, device="cuda"), torch.randn(N, device="cuda")
    z = torch.empty_like(x)
    ref = x + y
    op = skt.custom_op("skhost::vadd", vadd, outputs={"z": "x"}, tile_shapes={"z": (N,)})
    op_ = skt.custom_op("skhost::vadd_", vadd, tile_shapes={"z": (N,)})
    torch.testing.assert_close(op(x, y), ref)
    op_(z, x, y)
    torch.testing.assert_close(z, ref)
    rows: dict[str, Callable[[], Any]] = {
        "safekernels custom_op, functional `op(x, y)`": lambda: op(x, y),
        "safekernels custom_op, in place `op(z, x, y)`": lambda: op_(z, x, y),
        "same op through torch's dispatcher (`op.op(x, y)`)": lambda: op.op(x, y),
        "same in-place op through torch's dispatcher": lambda: op_.op(z, x, y),
    }
    tri = triton_add()
    if tri is not None:
        tri(x, y, z)
        torch.testing.assert_close(z, ref)
        rows["Triton launch `add_kernel[grid](x, y, z, n)`"] = lambda: tri(x, y, z)
    rows["`torch.add(x, y)`"] = lambda: torch.add(x, y)
    rows["`torch.add(x, y, out=z)`"] = lambda: torch.add(x, y, out=z)

    results: dict[str, dict[str, float]] = {}
    for label, fn in rows.items():
        results[label] = {
            "back_to_back_us": per_call_us(fn, calls, False),
            "sync_each_us": per_call_us(fn, max(1000, calls // 4), True),
        }
        print(f"{label}: {results[label]}", flush=True)

    # breakdown of the in-place direct call, layer by layer
    direct = op_.direct
    argv = (z, x, y)
    entry = direct._entries[direct.signature_key(argv)]
    stream = entry._stream(direct)
    values: list[Any] = []
    from safekernels.runtime.interop import buffer_from_torch

    for t, q in zip(argv, vadd.params, strict=True):
        buf = buffer_from_torch(t)
        values.append(Partition(buf, (N,), (N,)) if q.kind == "partition" else Tensor(buf, (N,)))
    launched = tuple(values)
    fast = entry.plan.gpu_launch
    assert fast and fast(stream.handle, launched)
    layers: dict[str, Callable[[], Any]] = {
        "driver call (generated launcher: pack + cuLaunchKernel)": lambda: fast(stream.handle, launched),
        "+ wrapping (tile handles over the tensors)": lambda: entry.run(direct, argv),
        "+ plan lookup (signature key, dict lookup)": lambda: direct(argv),
        "+ tracing checks (`op(z, x, y)`: the whole direct call)": lambda: op_(z, x, y),
        "torch's dispatcher path instead (`op.op(z, x, y)`)": lambda: op_.op(z, x, y),
    }
    breakdown = {label: per_call_us(fn, calls, False) for label, fn in layers.items()}
    for label, us in breakdown.items():
        print(f"{label}: {us:.2f} us", flush=True)
    torch.testing.assert_close(z, ref)

    env = (
        f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
        f"Triton {sys.modules['triton'].__version__ if 'triton' in sys.modules else 'absent'}, "
        f"Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d')}"
    )
    lines = [
        f"### Host cost per call, 4096-element f32 add ({env})",
        "",
        "| path | back to back (µs/call) | with a sync per call (µs/call) |",
        "|---|---|---|",
        *(f"| {k} | {v['back_to_back_us']:.1f} | {v['sync_each_us']:.1f} |" for k, v in results.items()),
        "",
        "| in-place direct call, layer by layer (back to back) | µs/call | this layer |",
        "|---|---|---|",
    ]
    previous = 0.0
    for label, us in breakdown.items():
        extra = us - previous if not label.startswith("torch") else us
        lines.append(f"| {label} | {us:.2f} | {extra:+.2f} |")
        previous = us
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")
    if args.json is not None:
        args.json.write_text(json.dumps({"env": env, "rows": results, "breakdown": breakdown}, indent=1))


if __name__ == "__main__":
    main()
