"""How much the safekernels mypy plugin adds to mypy's own time (SPEC §7 target: <= 10%).

Workloads: the repository's `examples/` (when it has Python files) and a generated project of about 20k lines that
uses safekernels throughout (SIMT and tile kernels, prepared launches, async launches, partitions, `sync_on`,
cross-module kernel imports, plus ordinary Python around them), and the same project with one ownership error in
every host function (what reporting errors costs).  Each workload is checked cold (a fresh cache directory per
run) with the same configuration twice, with and without `plugins = mypy_plugin`; the generated project is also
re-checked incrementally after a one-line edit in one module (what saving a file costs in an editor), and, last,
with a module that does not use safekernels added, re-checked after an edit of that module (what the plugin costs
where it has nothing to analyse: loading it).  The median of `--repeat` runs is reported.

    .venv/bin/python bench/mypy_plugin_overhead.py [--repeat 3] [--lines 20000] [--out FILE]

prints a markdown table (and writes it to FILE with `--out`).

mypy runs from compiled bytecode, as an installed copy does: its environment drops `PYTHONDONTWRITEBYTECODE` and
points `PYTHONPYCACHEPREFIX` at a private directory that an untimed run fills first (a development environment
that sets `PYTHONDONTWRITEBYTECODE` would otherwise recompile the plugin and the checker's core from source in
every mypy process, ~0.1 s: a third of a re-check; `--source-only` keeps this environment as it is).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: Where mypy's processes keep bytecode (None: as this environment says); set by `main`.
PYCACHE: Path | None = None

MODULE_HEAD = '''\
"""Generated benchmark module {i}: kernels and the host code that launches them."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor
{imports}

@simt.kernel
@simt.launch_contract(block=256)
def vecadd_{i}(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(f32(a[i] + b[i]))


@simt.kernel
@simt.launch_contract(block=256)
def saxpy_{i}(alpha: f32, x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(f32(alpha * x[i]))


@tile.kernel
def add_{i}(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))
'''

HOST_FUNCTION = '''

def host_{i}_{j}(n: int, dev: sk.Device, stream: sk.Stream) -> float:
    a = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    c = sk.zeros(n, f32, stream)
    plan = vecadd_{i}.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd_{i}.launch(plan, stream, a, b, c)
    for step in range(4):
        if step % 2 == 0:
            vecadd_{i}.launch(plan, stream, c, b, a)
        else:
            a, c = c, a
    scale = saxpy_{i}.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    pending = saxpy_{i}.launch_async(scale, 2.0, a, b)
    pending.sync_on(stream)
    {cross}
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add_{i}(z, x, y)
    zs, xs, ys = op.sync_on(stream)
    host = zs.unpartition().to_numpy(stream)
    totals: dict[str, float] = {{}}
    for name, values in (("a", a.to_numpy(stream)), ("c", c.to_numpy(stream))):
        totals[name] = float(np.sum(values)) + float(np.sum(host))
    ordered = sorted(totals.items(), key=lambda item: item[1])
    words = [f"{{k}}={{v:.3f}}" for k, v in ordered if v >= 0.0]
    print(" ".join(words), xs, ys)
    return sum(v for _, v in ordered)
'''

PLAIN_FUNCTION = '''

def summarize_{i}_{j}(rows: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {{}}
    for row in rows:
        for key, value in row.items():
            if key.startswith("_"):
                continue
            out[key] = out.get(key, 0) + value
    while len(out) > 64:
        out.pop(min(out, key=lambda k: out[k]))
    return out
'''


def generate_project(root: Path, target_lines: int, errors: bool = False) -> tuple[int, int]:
    """Write modules until about `target_lines` lines exist; return (files, lines).  With `errors`, the first launch
    of every host function passes one buffer as both its read and its written argument (one E0502 each)."""
    root.mkdir(parents=True, exist_ok=True)
    lines = 0
    i = 0
    while lines < target_lines:
        imports = f"\nfrom mod_{i - 1} import vecadd_{i - 1}\n" if i else ""
        parts = [MODULE_HEAD.format(i=i, imports=imports)]
        for j in range(12):
            cross = (
                f"other = vecadd_{i - 1}.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)\n"
                f"    vecadd_{i - 1}.launch(other, stream, b, c, a)"
                if i
                else "pass"
            )
            parts.append(HOST_FUNCTION.format(i=i, j=j, cross=cross))
            parts.append(PLAIN_FUNCTION.format(i=i, j=j))
        text = "".join(parts)
        if errors:
            first = f"    vecadd_{i}.launch(plan, stream, a, b, c)\n"
            text = text.replace(first, first.replace("a, b, c)", "a, b, a)"))
        (root / f"mod_{i}.py").write_text(text, encoding="utf-8")
        lines += text.count("\n")
        i += 1
    return i, lines


def write_config(directory: Path, plugin: bool) -> Path:
    config = directory / ("with-plugin.ini" if plugin else "without-plugin.ini")
    config.write_text(
        "[mypy]\n"
        + ("plugins = mypy_plugin\n" if plugin else "")
        + "check_untyped_defs = True\n"
        + "allow_redefinition_new = True\n"
        + "local_partial_types = True\n"
        + f"mypy_path = {REPO / 'src'}\n",
        encoding="utf-8",
    )
    return config


def _run_mypy(config: Path, files: list[str], cwd: Path, cache: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if PYCACHE is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", cache, *files],
        cwd=cwd, env=env, capture_output=True, text=True,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or "INTERNAL ERROR" in proc.stdout + proc.stderr:
        raise RuntimeError(f"mypy failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return elapsed


def time_mypy(config: Path, files: list[str], cwd: Path) -> float:
    """A cold run: fresh cache directory."""
    with tempfile.TemporaryDirectory() as cache:
        return _run_mypy(config, files, cwd, cache)


def time_edit(config: Path, files: list[str], cwd: Path) -> float:
    """An incremental run after editing one module's function body (what an editor's save costs)."""
    target = cwd / files[len(files) // 2]
    original = target.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as cache:
        _run_mypy(config, files, cwd, cache)
        try:
            target.write_text(original.replace("for step in range(4):", "for step in range(5):", 1), "utf-8")
            return _run_mypy(config, files, cwd, cache)
        finally:
            target.write_text(original, encoding="utf-8")


PLAIN_MODULE = "plain_helpers.py"


def time_plain_edit(config: Path, files: list[str], cwd: Path) -> float:
    """An incremental run after editing `PLAIN_MODULE`, a module of the project that does not use safekernels
    (most modules of a real project): mypy re-checks it alone, and the plugin only loads."""
    target = cwd / PLAIN_MODULE
    original = target.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as cache:
        _run_mypy(config, files, cwd, cache)
        try:
            target.write_text(original.replace("len(out) > 64", "len(out) > 65", 1), "utf-8")
            return _run_mypy(config, files, cwd, cache)
        finally:
            target.write_text(original, encoding="utf-8")


def python_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def count_lines(root: Path, files: list[str]) -> int:
    return sum((root / f).read_text(encoding="utf-8").count("\n") for f in files)


def measure(
    name: str, root: Path, files: list[str], configs: Path, repeat: int, timer: Callable[..., float] = time_mypy
) -> list[str]:
    # interleaved (without, with, without, ...): on a shared machine a change of load hits both alike
    pairs = [
        (timer(write_config(configs, False), files, root), timer(write_config(configs, True), files, root))
        for _ in range(repeat)
    ]
    without = statistics.median(p[0] for p in pairs)
    with_plugin = statistics.median(p[1] for p in pairs)
    overhead = (with_plugin / without - 1.0) * 100.0
    return [name, str(len(files)), str(count_lines(root, files)), f"{without:.2f}", f"{with_plugin:.2f}",
            f"{overhead:+.1f}%"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--source-only", action="store_true", help="no private bytecode cache (see the docstring)")
    args = parser.parse_args(argv)
    rows: list[list[str]] = []
    global PYCACHE
    with tempfile.TemporaryDirectory() as tmp:
        configs = Path(tmp) / "configs"
        configs.mkdir()
        if not args.source_only:
            PYCACHE = Path(tmp) / "pycache"
            warm = Path(tmp) / "warm-up"
            generate_project(warm, 1)  # untimed: compiles the plugin's, the core's and mypy's bytecode
            time_mypy(write_config(configs, True), python_files(warm), warm)
        examples = REPO / "examples"
        example_files = python_files(examples) if examples.is_dir() else []
        if example_files:
            rows.append(measure("examples/", examples, example_files, configs, args.repeat))
        project = Path(tmp) / "generated"
        generate_project(project, args.lines)
        gen_files = python_files(project)
        rows.append(measure("generated project", project, gen_files, configs, args.repeat))
        rows.append(
            measure("generated project, re-check after editing one module", project, gen_files, configs,
                    args.repeat, time_edit)
        )
        # one module without safekernels added to the same project (after the rows above, which do not have it)
        plain = "\n".join(PLAIN_FUNCTION.format(i="plain", j=j) for j in range(12))
        (project / PLAIN_MODULE).write_text(f'"""Host helpers that do not use safekernels."""\n{plain}', "utf-8")
        rows.append(
            measure("generated project + one plain module, re-check after editing the plain one", project,
                    python_files(project), configs, args.repeat, time_plain_edit)
        )
        with_errors = Path(tmp) / "generated-errors"
        generate_project(with_errors, args.lines, errors=True)
        rows.append(
            measure("generated project, one E0502 per host function", with_errors, python_files(with_errors),
                    configs, args.repeat)
        )
    header = ["workload", "files", "lines", "mypy (s)", "mypy + plugin (s)", "plugin overhead"]
    table = [
        f"{time.strftime('%Y-%m-%d', time.gmtime())}, {os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.1f}"
        f" at the start), mypy {_mypy_version()}, cold (fresh cache) unless stated, median of {args.repeat}"
        " interleaved runs; same config with and without `plugins = mypy_plugin`"
        + ("" if args.source_only else "; from compiled bytecode (as installed)"),
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]
    text = "\n".join(table) + "\n"
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


if __name__ == "__main__":
    sys.exit(main())


