"""`jax_kernel` on the GPU: the FFI custom call next to the `pure_callback` route, per call, in one process.

Issue 23 item 4's question: what does a safekernels kernel cost inside JAX code once XLA hands it its own
device buffers and stream (`via="ffi"`, the default), compared with the callback route (`via="callback"`,
`device=sk.Device(0)`: JAX copies the inputs to host numpy arrays, safekernels copies them to the GPU,
launches, copies the output back, JAX copies it to the device again)?  The peer in the same process is XLA's
own fused `x + y` (`jax.jit(jnp.add)`).

Every row is an f32 add `z = x + y` (a tile kernel) at a small size (4096 elements: host cost decides) and a
large one (2^24 elements, 64 MiB per array: bandwidth decides).  Rows:

- `jnp.add` under `jax.jit` (XLA's kernel);
- FFI route under `jax.jit`, and eagerly (`k(x, y)`: JAX's op-by-op dispatch of the custom call);
- callback route under `jax.jit`.

Two modes, as in bench/torch_host_cost.py: back to back (N calls, then one `block_until_ready`: the host's
cost per call while the GPU keeps up, or the GPU's time when it does not) and with `block_until_ready` after
every call.  Each figure is the median over 5 rounds of the per-call mean; every route's result is checked
against numpy first.

    PYTHONPATH=src:. python3 bench/jax_ffi_bench.py [--json FILE.json] [--md FILE.md]
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import safekernels as sk  # noqa: E402
import safekernels.jax as skj  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.dtypes import f32  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

SIZES = {"small": 4096, "large": 1 << 24}
#: calls per round (back to back, sync each) by size; the callback route moves 4 × 64 MiB per large call
CALLS = {"small": (2000, 500), "large": (40, 20)}
CALLBACK_CALLS = {"small": (300, 200), "large": (5, 5)}


@tile.kernel
def vadd(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def per_call_us(fn: Callable[[], Any], calls: int, sync_each: bool, rounds: int = 5) -> float:
    """Median over `rounds` of the mean wall time per call (µs)."""
    for _ in range(min(calls, 50)):
        fn()
    jax.block_until_ready(fn())
    means: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        if sync_each:
            for _ in range(calls):
                jax.block_until_ready(fn())
        else:
            out = None
            for _ in range(calls):
                out = fn()
            jax.block_until_ready(out)
        means.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(means)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--md", type=Path)
    parser.add_argument("--cpu", action="store_true", help="a dry run on XLA:CPU and the CPU executor, small sizes")
    args = parser.parse_args()
    if args.cpu:
        SIZES.update(small=256, large=4096)
        CALLS.update(small=(20, 10), large=(5, 5))
        CALLBACK_CALLS.update(small=(20, 10), large=(5, 5))
    gpu = jax.devices("cpu" if args.cpu else "gpu")[0]
    ffi = skj.jax_kernel(vadd, outputs={"z": "x"}, tile_shapes={"z": (1024,)}, via="ffi")
    callback = skj.jax_kernel(
        vadd,
        outputs={"z": "x"},
        tile_shapes={"z": (1024,)},
        device=sk.Device.cpu() if args.cpu else sk.Device(0),
        via="callback",
    )
    routes: dict[str, Callable[[Any, Any], Any]] = {
        "jnp.add, jit (XLA's kernel)": jax.jit(jnp.add),
        "safekernels FFI, jit": jax.jit(ffi),
        "safekernels FFI, eager": ffi,
        "safekernels pure_callback, jit": jax.jit(callback),
    }
    rows: list[dict[str, Any]] = []
    for size_name, n in SIZES.items():
        key = jax.random.key(n)
        x = jax.device_put(jax.random.normal(key, (n,), jnp.float32), gpu)
        y = jax.device_put(jax.random.normal(jax.random.fold_in(key, 1), (n,), jnp.float32), gpu)
        expected = np.asarray(x) + np.asarray(y)
        for route, fn in routes.items():
            got = np.asarray(fn(x, y))
            if not np.array_equal(got, expected):
                raise SystemExit(f"{route} at {size_name}: wrong result (max error {np.abs(got - expected).max()})")
            b2b, each = (CALLBACK_CALLS if "callback" in route else CALLS)[size_name]
            row = {
                "size": size_name,
                "elements": n,
                "route": route,
                "back_to_back_us": per_call_us(functools.partial(fn, x, y), b2b, sync_each=False),
                "sync_each_us": per_call_us(functools.partial(fn, x, y), each, sync_each=True),
            }
            rows.append(row)
            print(f"{size_name:6} {route:34} {row['back_to_back_us']:10.1f} {row['sync_each_us']:10.1f}", flush=True)
    kernel_alone_us = _kernel_alone_us(ffi, SIZES["large"], sk.Device.cpu() if args.cpu else sk.Device(0))
    print(f"kernel alone at the large size, device time (µs): {kernel_alone_us}")
    handler_us = _handler_breakdown(routes["safekernels FFI, jit"], gpu, SIZES["small"])
    print(f"handler, per call at the small size (µs): {handler_us}")
    meta = {
        "date": datetime.date.today().isoformat(),
        "gpu": str(gpu.device_kind),
        "jax": jax.__version__,
        "jaxlib": getattr(getattr(jax, "lib", None), "__version__", None) or _jaxlib_version(),
        "python": sys.version.split()[0],
        "handler_us": handler_us,
        "kernel_alone_large_us": kernel_alone_us,
    }
    table = _markdown(rows, meta)
    print(table)
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    if args.md:
        args.md.write_text(table)


def _handler_breakdown(fn: Callable[[Any, Any], Any], device: Any, n: int, calls: int = 2000) -> dict[str, float]:
    """Where the FFI route's host time goes, per call: the whole Python handler (frame reading, stream and
    buffers, launch) and, inside it, the launch (`OpLauncher.launch`: tile handles, plan lookup, driver call)."""
    from safekernels.frameworks.launcher import OpLauncher
    from safekernels.jax import ffi_target

    handler = ffi_target._REGISTERED["cpu" if device.platform == "cpu" else "CUDA"]
    spent = {"handler": 0.0, "launch": 0.0}
    execute, launch = handler._execute, OpLauncher.launch

    def timed_execute(*a: Any) -> None:
        start = time.perf_counter()
        try:
            execute(*a)
        finally:
            spent["handler"] += time.perf_counter() - start

    def timed_launch(self: OpLauncher, *a: Any) -> None:
        start = time.perf_counter()
        try:
            launch(self, *a)
        finally:
            spent["launch"] += time.perf_counter() - start

    x = jax.device_put(jnp.ones(n, jnp.float32), device)
    jax.block_until_ready(fn(x, x))
    setattr(handler, "_execute", timed_execute)  # noqa: B010 - an instance attribute shadows the method
    setattr(OpLauncher, "launch", timed_launch)  # noqa: B010 - restored below
    try:
        out = None
        for _ in range(calls):
            out = fn(x, x)
        jax.block_until_ready(out)
    finally:
        del handler._execute
        setattr(OpLauncher, "launch", launch)  # noqa: B010
    return {k: round(v / calls * 1e6, 2) for k, v in spent.items()}


def _kernel_alone_us(kernel: Any, n: int, device: sk.Device) -> float:
    """The same kernel with no JAX around it: launched by its launcher on safekernels buffers, device time per
    launch (`safekernels.testing.do_bench`, median): what any route costs at least at this size."""
    from safekernels.runtime.buffer import DeviceBuffer, empty
    from safekernels.testing import do_bench

    stream = device.default_stream
    rng = np.random.default_rng(0)
    buffers = {name: empty(n, f32, stream, device=device) for name in ("z", "x", "y")}
    for name in ("x", "y"):
        buffers[name].copy_from_numpy(rng.standard_normal(n, dtype=np.float32), stream)

    def launch() -> None:  # fresh handles over the same memory each call (a tile launch moves its buffers)
        named: dict[str, Any] = {
            k: (DeviceBuffer(device, b.allocation, b.dtype, 0, n), (n,)) for k, b in buffers.items()
        }
        kernel.launcher.launch(named, device, stream)

    return float(do_bench(launch, return_mode="median", stream=stream)) * 1000.0


def _jaxlib_version() -> str:
    import jaxlib

    return str(jaxlib.__version__)


def _markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        f"{meta['date']}, {meta['gpu']}, JAX {meta['jax']} (jaxlib {meta['jaxlib']}), Python {meta['python']}; "
        "µs per call, median of 5 rounds",
        "",
        f"FFI handler's host time per call at the small size: {meta['handler_us']['handler']:.1f} µs, of which "
        f"the launch (`OpLauncher.launch`) {meta['handler_us']['launch']:.1f} µs; the kernel alone at the large "
        f"size (device time, no JAX): {meta['kernel_alone_large_us']:.1f} µs",
        "",
        "| size | route | back to back (µs) | block_until_ready each call (µs) |",
        "|---|---|---:|---:|",
    ]
    for r in rows:
        size = f"{r['size']} ({r['elements']:,} f32)"
        lines.append(f"| {size} | {r['route']} | {r['back_to_back_us']:.1f} | {r['sync_each_us']:.1f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
