"""Host launch overhead per launch (SPEC §7: a full safe launch <= 1.15x a bare `cuLaunchKernel`; a `DeviceOp`
chain captured as a CUDA graph, `op.graph_on(stream)`, <= 1.5 us per kernel at replay; issue 10: a tile launch
through the public API, `op = k(...)` + `op.sync_on(stream)`, <= 1.5x a bare launch + synchronize, a `then`
chain of 100 tile launches <= 1.3x 100 bare launches + one synchronize).

Tiny grids (one block), many launches per timing, several repeats taken round-robin so that drift hits every
path alike; the table gives the median over repeats of the mean time per launch (wall clock; the GPU keeps up,
since each tiny kernel runs in less time than a launch takes on the host).  Before timing, the safe launches
are checked against torch on random data, and the fast path is checked to be the one taken.

Graph replay (100 tiny kernels per graph: torch adds, a chain of 100 SIMT `launch_async`, a chain of 100 tile
launches): rounds of `--graph-replays` replays with one synchronize at the end, the three graphs interleaved;
per kernel = round time / replays / 100, median over rounds.  The safekernels graphs are checked against eager
execution of the same chain first.

    PYTHONPATH=src:. python3 bench/launch_overhead.py            # -> $OUT (or bench/results/device-<date>)/
                                                                 #    launch_overhead.{md,json}, environment.json
    PYTHONPATH=src:. python3 bench/launch_overhead.py --out report.md --json report.json

The first form writes the folder `bench/run.py --ingest DIR` records (as `bench/tile_device_run.sh` does).
The tile section ends with issue 10's targets (the softmax / GEMM eager-vs-graph ones are in
`bench/tile_bench.py`'s report) and a breakdown of where the host time goes: building the op, `sync_on` of a
built op, and per chain link the `then` call, the generated launcher and the rest (the callback building its
op).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from safekernels import simt, tile  # noqa: E402
from safekernels.dtypes import f32, u32  # noqa: E402
from safekernels.errors import UnusedDeviceOpWarning  # noqa: E402
from safekernels.simt import DisjointSlice, Slice, thread  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

GRAPH_KERNELS = 100


@simt.kernel
@simt.launch_contract(block=256, requires=("len(x) >= n", "len(y0) >= n", "len(y) >= n"))
def saxpy_req(alpha: f32, x: Slice[f32], y0: Slice[f32], y: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (out := y.get_mut(idx)) is not None:
        out.set(alpha * x[i] + y0[i])  # type: ignore[arg-type]  # f32 arithmetic (mypy plugin)


@tile.kernel
def tile_add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def simt_chain(kernel: Any, prepared: Any, args: tuple[Any, ...], n: int) -> Any:
    """`n` chained `launch_async` launches of `kernel` on the same arguments (each made when the last ran)."""
    op = kernel.launch_async(prepared, *args)
    for _ in range(n - 1):
        op = op.then(lambda v: kernel.launch_async(prepared, *v))
    return op


def tile_chain(n: int, size: int) -> Any:
    """`n` chained tile launches z = x + y over one tile block (constructors run once, first)."""
    z = tile.zeros((size,), f32).partition((size,))
    op = tile_add(z, tile.arange(size, f32), tile.full((size,), 0.5, f32))
    for _ in range(n - 1):
        op = op.then(lambda v: tile_add(v[0], v[1], v[2]))
    return op


def tile_eager_section(dev: Any, stream: Any, torch: Any, n: int, repeats: int) -> tuple[list[str], dict[str, Any]]:
    """Issue 10's targets, host wall clock, one process: the tile launch every doc uses against the bare
    driver calls it makes (same compiled kernel, same pre-packed parameters), and against torch.

    Per call: `z, x, y = tile_add(z, x, y).sync_on(stream)` vs `cuLaunchKernel` + `cuStreamSynchronize`;
    per chain: 100 launches built with `then` and one `sync_on` vs 100 `cuLaunchKernel` + one synchronize;
    build only: `tile_add(z, x, y)` on fresh handles, no execution.  Rounds interleaved, medians."""
    from safekernels.runtime.cuda_backend import _driver
    from safekernels.tile.gpu_launch import tile_kernel_for

    driver = _driver()
    size = 128
    first = tile_add(tile.zeros((size,), f32).partition((size,)), tile.arange(size, f32), tile.full((size,), 0.5, f32))
    z, x, y = first.sync_on(stream)
    for _ in range(3):
        z, x, y = tile_add(z, x, y).sync_on(stream)
    assert (z.to_numpy(stream) == (x.to_numpy(stream) + 0.5)).all(), "tile eager launch wrong"
    plan = next(p for p in tile_add._plans.values() if p.device is dev and p.gpu_launch)
    glob = plan.gpu_launch.__globals__  # the planned launch's own function and parameter storage
    loaded = tile_kernel_for(tile_add, (z, x, y), dev)
    fn, params = glob["FN"], glob["PARAMS"]
    threads, smem = loaded.compiled.threads, loaded.compiled.smem_bytes
    raw = stream.handle.handle
    cu, cusync = driver.cuLaunchKernel, driver.cuStreamSynchronize
    state = [z, x, y]
    ta, tb, tc = (torch.rand(size, device="cuda") for _ in range(3))
    torch_stream = torch.cuda.current_stream()

    def bare_sync() -> None:
        cu(fn, 1, 1, 1, threads, 1, 1, smem, raw, params, 0)
        cusync(raw)

    def tile_eager() -> None:
        state[:] = tile_add(*state).sync_on(stream)

    def torch_sync() -> None:
        torch.add(ta, tb, out=tc)
        torch_stream.synchronize()

    def bare_100() -> None:
        for _ in range(GRAPH_KERNELS):
            cu(fn, 1, 1, 1, threads, 1, 1, smem, raw, params, 0)
        cusync(raw)

    def chain_100() -> None:
        op = tile_add(*state)
        for _ in range(GRAPH_KERNELS - 1):
            op = op.then(lambda v: tile_add(v[0], v[1], v[2]))
        state[:] = op.sync_on(stream)

    def torch_100() -> None:
        for _ in range(GRAPH_KERNELS):
            torch.add(ta, tb, out=tc)
        torch_stream.synchronize()

    fast = plan.gpu_launch  # the planned launch alone: what a chain link runs after building its op
    assert fast(stream.handle, tuple(state)) is True, "the planned launch declined"

    def planned_100() -> None:
        values = tuple(state)
        for _ in range(GRAPH_KERNELS):
            fast(stream.handle, values)
        cusync(raw)

    def build_round(calls: int) -> float:
        handles = [(state[0]._successor(), state[1]._successor(), state[2]._successor()) for _ in range(calls)]
        ops: list[Any] = []
        keep = ops.append  # an op dropped unrun warns (UnusedDeviceOpWarning): keep them until the clock stops
        t = time.perf_counter()
        for zi, xi, yi in handles:
            keep(tile_add(zi, xi, yi))
        elapsed = time.perf_counter() - t
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnusedDeviceOpWarning)
            ops.clear()  # built only to be timed: dropped on purpose
        return elapsed / calls * 1e6

    def sync_round(calls: int) -> float:
        """`op.sync_on(stream)` alone: the ops are built first, untimed (each from the handles the previous
        one will hand back, `TileLaunchOp._bound`), then synchronized one by one."""
        ops = []
        z, x, y = state
        for _ in range(calls):
            op = tile_add(z, x, y)
            ops.append(op)
            z, x, y = op._bound
        torch.cuda.synchronize()
        t = time.perf_counter()
        for op in ops:
            state[:] = op.sync_on(stream)
        return (time.perf_counter() - t) / calls * 1e6

    def chain_build_round(chains: int) -> float:
        """Building a 100-link chain (`then` only, no execution) per link; each chain then runs, untimed."""
        total = 0.0
        for _ in range(chains):
            t = time.perf_counter()
            op = tile_add(*state)
            for _ in range(GRAPH_KERNELS - 1):
                op = op.then(lambda v: tile_add(v[0], v[1], v[2]))
            total += time.perf_counter() - t
            state[:] = op.sync_on(stream)
        return total / chains / GRAPH_KERNELS * 1e6

    single = measure(
        {"bare_sync": bare_sync, "tile_eager": tile_eager, "torch_sync": torch_sync}, torch.cuda.synchronize, n, repeats
    )
    chains = measure(
        {"bare_100": bare_100, "chain_100": chain_100, "planned_100": planned_100, "torch_100": torch_100},
        torch.cuda.synchronize,
        max(20, n // 100),
        repeats,
    )
    rounds: dict[str, list[float]] = {"tile_build": [], "tile_sync_only": [], "chain_build": []}
    for _ in range(repeats):  # interleaved like the others
        rounds["tile_build"].append(build_round(n))
        rounds["tile_sync_only"].append(sync_round(n))
        rounds["chain_build"].append(chain_build_round(max(20, n // 100)))
    assert (state[0].to_numpy(stream) == state[1].to_numpy(stream) + 0.5).all(), "tile chain wrong"
    med = {k: statistics.median(v) for k, v in {**single, **chains, **rounds}.items()}
    eager_ratio = med["tile_eager"] / med["bare_sync"]
    chain_ratio = med["chain_100"] / med["bare_100"]
    labels = {
        "bare_sync": "bare `cuLaunchKernel` + `cuStreamSynchronize` (the tile kernel, pre-packed params)",
        "tile_eager": "**tile `z, x, y = add(z, x, y).sync_on(stream)`** (public API, eager)",
        "tile_build": "tile `add(z, x, y)`: building the op only (no execution)",
        "tile_sync_only": "tile `op.sync_on(stream)` of a built op: move, planned launch, synchronize",
        "torch_sync": "`torch.add(a, b, out=c)` + stream synchronize",
        "bare_100": "100 bare `cuLaunchKernel` + one `cuStreamSynchronize`",
        "chain_100": "**tile chain: 100 launches built with `then`, one `sync_on`**",
        "chain_build": "tile chain: building it only, per link (`then`, no execution)",
        "planned_100": "100 planned launches (the generated launcher alone) + one `cuStreamSynchronize`",
        "torch_100": "100 `torch.add` + one stream synchronize",
    }
    spread = {k: (min(v), max(v)) for k, v in {**single, **chains, **rounds}.items()}
    lines = [
        "### Tile launches through the public API (issue 10)",
        "",
        f"One process, host wall clock: median over {repeats} interleaved rounds ({n} calls per round for single "
        f"launches, {max(20, n // 100)} for chains of {GRAPH_KERNELS}); one 128-element tile block per launch.",
        "",
        "| path | µs | [min, max] |",
        "| --- | ---: | ---: |",
    ]
    for key, label in labels.items():
        lo, hi = spread[key]
        lines.append(f"| {label} | {med[key]:.2f} | [{lo:.2f}, {hi:.2f}] |")
    build_us = med["tile_build"]
    per_link = (med["chain_100"] - med["bare_100"]) / GRAPH_KERNELS
    launcher_us = (med["planned_100"] - med["bare_100"]) / GRAPH_KERNELS
    lines += [
        "",
        "| issue 10 target | measured | met |",
        "| --- | ---: | --- |",
        f"| eager op + `sync_on` <= 1.5x bare launch + synchronize | {eager_ratio:.3f}x | "
        f"{'yes' if eager_ratio <= 1.5 else '**no**'} |",
        f"| building a tile op <= 15 µs | {build_us:.2f} µs | {'yes' if build_us <= 15 else '**no**'} |",
        f"| chain of 100 + one `sync_on` <= 1.3x 100 bare launches + synchronize | {chain_ratio:.3f}x | "
        f"{'yes' if chain_ratio <= 1.3 else '**no**'} |",
        "| softmax 8192^2 eager >= 0.85x graph, GEMM f16 4096 eager >= 0.95x graph | "
        "`bench/tile_bench.py`'s eager / graph table | |",
        "",
        "| where the time goes | µs |",
        "| --- | ---: |",
        f"| eager: host cost over the bare launch + synchronize | {med['tile_eager'] - med['bare_sync']:.2f} |",
        f"| eager: building the op | {build_us:.2f} |",
        f"| eager: `sync_on` of a built op, over the bare launch + synchronize | "
        f"{med['tile_sync_only'] - med['bare_sync']:.2f} |",
        f"| chain: host cost per link over the bare launch | {per_link:.2f} |",
        f"| chain: building per link (`then`) | {med['chain_build']:.2f} |",
        f"| chain: the generated launcher per launch, over the bare launch | {launcher_us:.2f} |",
        f"| chain: the rest per link (the callback building its op, the move, the loop) | "
        f"{per_link - med['chain_build'] - launcher_us:.2f} |",
        f"| eager op + `sync_on` vs torch.add + synchronize | {med['tile_eager'] / med['torch_sync']:.3f}x |",
        f"| chain of 100 vs 100 torch.add + synchronize | {med['chain_100'] / med['torch_100']:.3f}x |",
        "",
    ]
    targets = {"eager_ratio": eager_ratio, "build_us": build_us, "chain_ratio": chain_ratio}
    return lines, {"median_us": med, **targets, "targets": targets}


def measure_graphs(
    replays: dict[str, Callable[[], Any]], sync: Callable[[], Any], n: int, repeats: int
) -> dict[str, list[float]]:
    """Microseconds per kernel of each graph: `repeats` rounds of `n` replays, one sync per round."""
    out: dict[str, list[float]] = {name: [] for name in replays}
    for replay in replays.values():  # warm-up
        for _ in range(20):
            replay()
    sync()
    for _ in range(repeats):
        for name, replay in replays.items():
            sync()
            t = time.perf_counter()
            for _ in range(n):
                replay()
            sync()
            out[name].append((time.perf_counter() - t) / n / GRAPH_KERNELS * 1e6)
    return out


def _catalog() -> Any:
    spec = importlib.util.spec_from_file_location(
        "kernels_catalog", ROOT / "tests/codegen/kernels_catalog.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kernels_catalog"] = module
    spec.loader.exec_module(module)
    return module


def measure(
    cases: dict[str, Callable[[], Any]], sync: Callable[[], Any], n: int, repeats: int
) -> dict[str, list[float]]:
    """Microseconds per call of each case: `repeats` rounds of `n` calls, the cases interleaved."""
    out: dict[str, list[float]] = {name: [] for name in cases}
    for fn in cases.values():  # warm-up
        for _ in range(200):
            fn()
    sync()
    for _ in range(repeats):
        for name, fn in cases.items():
            sync()
            t = time.perf_counter()
            for _ in range(n):
                fn()
            out[name].append((time.perf_counter() - t) / n * 1e6)
        sync()
    return out


def versions(torch: Any) -> str:
    parts = [f"python {sys.version.split()[0]}", f"torch {torch.__version__}"]
    for mod in ("triton", "cupy", "numpy", "llvmlite"):
        try:
            parts.append(f"{mod} {__import__(mod).__version__}")
        except Exception:
            parts.append(f"{mod} unavailable")
    try:
        from cuda.bindings import driver

        parts.append(f"cuda-bindings {__import__('cuda.bindings', fromlist=['x']).__version__}")
        parts.append(f"driver {driver.cuDriverGetVersion()[1]}")
    except Exception:
        pass
    return ", ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--out",
        help="markdown report (default: launch_overhead.md, with launch_overhead.json and environment.json, in "
        "$OUT or bench/results/device-<date>: the folder `bench/run.py --ingest DIR` reads)",
    )
    parser.add_argument("--json")
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--graph-replays", type=int, default=500)
    args = parser.parse_args()
    if args.out is None:
        folder = Path(os.environ.get("OUT") or ROOT / "bench" / "results" / f"device-{datetime.date.today()}")
        folder.mkdir(parents=True, exist_ok=True)
        args.out = str(folder / "launch_overhead.md")
        args.json = args.json or str(folder / "launch_overhead.json")
        if not (folder / "environment.json").exists():  # what `bench/run.py --ingest` records the run with
            from bench.run import environment

            (folder / "environment.json").write_text(json.dumps(environment(), indent=1))

    import torch  # type: ignore[import-not-found]

    import safekernels as sk
    from safekernels.errors import AliasingError
    from safekernels.runtime.cuda_backend import _driver
    from safekernels.simt.gpu_launch import launcher_for

    kc = _catalog()
    driver = _driver()
    dev = sk.Device(0)
    stream = sk.as_stream(torch.cuda.current_stream(), dev)
    sync = torch.cuda.synchronize
    notes: list[str] = []

    # -- correctness of the fast path on the GPU, on random data ------------------------------------------
    m = 1000
    ta, tb, tc = (torch.rand(m, device="cuda") for _ in range(3))
    a, b, c = (sk.as_buffer(t, dev) for t in (ta, tb, tc))
    pv = kc.vecadd.prepare(simt.LaunchConfig1D.for_len(m, block=256), dev)
    kc.vecadd.launch(pv, stream, a, b, c)  # checked; builds the fast path
    tc.fill_(float("nan"))
    assert pv._fast is not None and pv._fast(stream, (a, b, c)) is True, "vecadd fast path not taken"
    sync()
    assert torch.equal(tc, ta + tb), "vecadd (fast path) wrong"
    tc.fill_(float("nan"))
    kc.vecadd.launch(pv, stream, ta, tb, tc)  # torch tensors: checked once, then cached
    assert pv._fast(stream, (ta, tb, tc)) is True, "vecadd fast path with torch tensors not taken"
    sync()
    assert torch.equal(tc, ta + tb), "vecadd (fast path, torch args) wrong"
    ps = saxpy_req.prepare(simt.LaunchConfig1D.for_len(m, block=256), dev)
    saxpy_req.launch(ps, stream, 2.5, a, b, c, m)
    tc.fill_(float("nan"))
    assert ps._fast is not None and ps._fast(stream, (2.5, a, b, c, m)) is True, "saxpy fast path not taken"
    sync()
    assert torch.allclose(tc, 2.5 * ta + tb, rtol=1e-6, atol=0), "saxpy (fast path) wrong"
    try:
        saxpy_req.launch(ps, stream, 2.5, a, b, c, m + 1)
        raise AssertionError("requires violation not refused")
    except simt.LaunchContractError as exc:
        notes.append(f"requires still refused on the GPU: `{exc}`")
    try:
        kc.vecadd.launch(pv, stream, a, b, a)
        raise AssertionError("aliasing not refused")
    except AliasingError:
        pass

    # -- timed cases (one block of 256 threads, one element) ------------------------------------------------
    one = [torch.rand(1, device="cuda") for _ in range(3)]
    oa, ob, oc = (sk.as_buffer(t, dev) for t in one)
    p1 = kc.vecadd.prepare(simt.LaunchConfig1D.for_len(1, block=256), dev)
    kc.vecadd.launch(p1, stream, oa, ob, oc)
    kc.vecadd.launch(p1, stream, *one)  # learns the torch tensors
    p1_checked = kc.vecadd.prepare(simt.LaunchConfig1D.for_len(1, block=256), dev)
    object.__setattr__(p1_checked, "_fast_path", False)  # never builds a fast path: the checked path
    s1 = saxpy_req.prepare(simt.LaunchConfig1D.for_len(1, block=256), dev)
    saxpy_req.launch(s1, stream, 2.0, oa, ob, oc, 1)
    launcher = launcher_for(kc.vecadd, dev)
    saxpy_launcher = launcher_for(saxpy_req, dev)
    fn, addr, raw_stream = launcher.function, launcher.param_address, stream.handle.handle
    sfn, saddr = saxpy_launcher.function, saxpy_launcher.param_address
    cu = driver.cuLaunchKernel
    vec, sax = kc.vecadd, saxpy_req

    cases: dict[str, Callable[[], Any]] = {
        "raw": lambda: cu(fn, 1, 1, 1, 256, 1, 1, 0, raw_stream, addr, 0),
        "raw_saxpy": lambda: cu(sfn, 1, 1, 1, 256, 1, 1, 0, raw_stream, saddr, 0),
        "launcher": lambda: launcher.launch((1, 1, 1), (256, 1, 1), 0, stream.handle, [oa, ob, oc]),
        "safe": lambda: vec.launch(p1, stream, oa, ob, oc),
        "safe_torch": lambda: vec.launch(p1, stream, one[0], one[1], one[2]),
        "safe_saxpy": lambda: sax.launch(s1, stream, 2.0, oa, ob, oc, 1),
        "checked": lambda: vec.launch(p1_checked, stream, oa, ob, oc),
        "checked_torch": lambda: vec.launch(p1_checked, stream, one[0], one[1], one[2]),
        "torch_add": lambda: torch.add(one[0], one[1], out=one[2]),
    }
    try:
        import cupy as cp  # type: ignore[import-not-found]

        ca, cb, cc = cp.asarray(one[0]), cp.asarray(one[1]), cp.asarray(one[2])
        ek = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + y", "sk_bench_add")
        ek(ca, cb, cc)
        cases["cupy_ek"] = lambda: ek(ca, cb, cc)
    except Exception as exc:
        notes.append(f"CuPy failed: {type(exc).__name__}: {exc}")
    try:
        import triton  # type: ignore[import-not-found]
        import triton.language as tl  # type: ignore[import-not-found]

        @triton.jit  # type: ignore[untyped-decorator]
        def tri_add(x_ptr, y_ptr, z_ptr, n_elem, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n_elem
            tl.store(
                z_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask
            )

        tri_add[(1,)](one[0], one[1], one[2], 1, BLOCK=256)
        cases["triton"] = lambda: tri_add[(1,)](one[0], one[1], one[2], 1, BLOCK=256)
    except Exception as exc:
        notes.append(f"Triton failed: {type(exc).__name__}: {exc}")

    # -- CUDA-graph replay, per kernel (100 tiny kernels per graph) ------------------------------------------
    graphs: dict[str, Callable[[], Any]] = {}
    graph_notes: list[str] = []
    try:
        g = torch.cuda.CUDAGraph()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                torch.add(one[0], one[1], out=one[2])
        torch.cuda.current_stream().wait_stream(side)
        with torch.cuda.graph(g):
            for _ in range(GRAPH_KERNELS):
                torch.add(one[0], one[1], out=one[2])
        g.replay()
        sync()
        graphs["torch_graph"] = g.replay
    except Exception as exc:
        notes.append(f"torch graph replay failed: {type(exc).__name__}: {exc}")
    # safekernels: a chain of 100 SIMT launch_async, checked against the eager chain on random data
    ga, gb, gc = (torch.rand(m, device="cuda") for _ in range(3))
    ea, eb, ec = (t.clone() for t in (ga, gb, gc))
    pg = kc.vecadd.prepare(simt.LaunchConfig1D.for_len(m, block=256), dev)
    bufs = tuple(sk.as_buffer(t, dev) for t in (ga, gb, gc))
    t0 = time.perf_counter()
    simt_graph = simt_chain(kc.vecadd, pg, bufs, GRAPH_KERNELS).graph_on(stream)
    capture_ms = (time.perf_counter() - t0) * 1e3
    assert simt_graph.node_count == GRAPH_KERNELS, simt_graph.node_count
    simt_chain(kc.vecadd, pg, tuple(sk.as_buffer(t, dev) for t in (ea, eb, ec)), GRAPH_KERNELS).sync_on(stream)
    simt_graph.replay()
    sync()
    assert torch.equal(gc, ec) and torch.equal(gc, ga + gb), "SIMT graph replay differs from eager"
    ga.copy_(torch.rand(m, device="cuda"))  # an input rewritten in place: the next replay sees it
    simt_graph.replay()
    sync()
    assert torch.equal(gc, ga + gb), "SIMT graph replay ignores an input written in place"
    graph_notes.append(
        f"capture of the 100-launch SIMT chain (`graph_on`: 100 `launch_async` built and recorded, "
        f"instantiate): {capture_ms:.1f} ms"
    )
    g1 = tuple(sk.as_buffer(t, dev) for t in one)
    small = simt_chain(kc.vecadd, p1, g1, GRAPH_KERNELS).graph_on(stream)
    graphs["sk_simt_graph"] = small.replay
    # tile: a chain of 100 launches over one 128-element tile block, checked against the eager chain
    eager_tile = tile_chain(GRAPH_KERNELS, 128).sync_on(stream)[0].to_numpy(stream)
    t0 = time.perf_counter()
    tgraph = tile_chain(GRAPH_KERNELS, 128).graph_on(stream)
    tile_capture_ms = (time.perf_counter() - t0) * 1e3
    assert tgraph.node_count == GRAPH_KERNELS, tgraph.node_count
    tgraph.replay()
    sync()
    assert (tgraph.value[0].to_numpy(stream) == eager_tile).all(), "tile graph replay differs from eager"
    graph_notes.append(f"capture of the 100-launch tile chain: {tile_capture_ms:.1f} ms")
    graphs["sk_tile_graph"] = tgraph.replay
    graph_results = measure_graphs(graphs, sync, args.graph_replays, args.repeats)
    graph_med = {k: statistics.median(v) for k, v in graph_results.items()}

    tile_lines, tile_results = tile_eager_section(dev, stream, torch, max(2000, args.n // 4), args.repeats)
    results = measure(cases, sync, args.n, args.repeats)
    med = {k: statistics.median(v) for k, v in results.items()}
    spread = {k: (min(v), max(v)) for k, v in results.items()}
    raw = med["raw"]
    labels = {
        "raw": "bare `cuLaunchKernel` (cuda.bindings, pre-packed params), vecadd",
        "raw_saxpy": "bare `cuLaunchKernel`, saxpy (5 args)",
        "launcher": "`GpuLauncher.launch` (setters + cuLaunchKernel), vecadd",
        "safe": "**safe `kernel.launch`, fast path, DeviceBuffers**, vecadd",
        "safe_torch": "**safe `kernel.launch`, fast path, torch tensors**, vecadd",
        "safe_saxpy": "**safe `kernel.launch`, fast path**, saxpy: 2 scalars + 3 `requires`",
        "checked": "safe `kernel.launch`, checked path only (no fast path), DeviceBuffers",
        "checked_torch": "safe `kernel.launch`, checked path only, torch tensors",
        "torch_add": "`torch.add(a, b, out=c)`, 1 element",
        "cupy_ek": "CuPy `ElementwiseKernel`, 1 element",
        "triton": "Triton `@triton.jit` add, 1 block",
    }
    limits = dev.limits
    lines = [
        f"## Host launch overhead — {datetime.date.today().isoformat()}",
        "",
        f"GPU: {limits.name} (sm_{limits.compute_capability[0]}{limits.compute_capability[1]}). "
        f"Versions: {versions(torch)}.",
        "",
        f"Per launch, µs of wall clock: median over {args.repeats} interleaved rounds of {args.n} launches "
        "(one block; min-max over rounds in brackets). `bench/launch_overhead.py`.",
        "",
        "| launch path | µs/launch | [min, max] | vs bare cuLaunchKernel |",
        "| --- | ---: | ---: | ---: |",
    ]
    for key, label in labels.items():
        if key in med:
            lo, hi = spread[key]
            lines.append(f"| {label} | {med[key]:.2f} | [{lo:.2f}, {hi:.2f}] | {med[key] / raw:.3f} |")
    graph_labels = {
        "torch_graph": "torch CUDA-graph replay, per kernel (100 adds per graph)",
        "sk_simt_graph": "**safekernels `graph_on` replay, per kernel** (chain of 100 SIMT `launch_async`)",
        "sk_tile_graph": "**safekernels `graph_on` replay, per kernel** (chain of 100 tile launches)",
    }
    for key, label in graph_labels.items():
        if key in graph_med:
            lo, hi = min(graph_results[key]), max(graph_results[key])
            lines.append(f"| {label} | {graph_med[key]:.2f} | [{lo:.2f}, {hi:.2f}] | {graph_med[key] / raw:.3f} |")
    if "raw_saxpy" in med and "safe_saxpy" in med:
        lines += ["", f"saxpy safe / bare saxpy: {med['safe_saxpy'] / med['raw_saxpy']:.3f}."]
    lines += ["", *tile_lines]
    lines += [
        "",
        "Checks before timing: fast path taken and results equal to torch for vecadd (DeviceBuffers "
        "and torch tensors) and saxpy; aliasing refused; the SIMT and tile graphs' replays equal the eager "
        "chains, and a replay sees an input rewritten in place.",
        f"Graph rows: median over {args.repeats} interleaved rounds of {args.graph_replays} replays "
        "(one synchronize per round), divided by the 100 kernels of a graph.",
        "",
        *[f"- {n}" for n in graph_notes + notes],
        "",
    ]
    text = "\n".join(lines)
    Path(args.out).write_text(text)
    if args.json:
        summary = {"tile": tile_results, "median_us": med, "graph_us": graph_med}
        Path(args.json).write_text(json.dumps(summary, indent=1))
    print(text)
    print({k: [round(x, 3) for x in v] for k, v in {**results, **graph_results}.items()})
    print(f"report: {args.out}" + (f", {args.json}" if args.json else ""))


if __name__ == "__main__":
    main()
