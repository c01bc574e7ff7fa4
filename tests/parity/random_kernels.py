"""A generator of small random tile kernels over the op set, for the parity rule.

`generate(rng)` writes the source of one kernel (a module file, because the compiler reads kernels' source)
over a fixed signature and returns its path; `load(path)` imports it.  Every kernel loads a float tile `a` and
an int tile `n`, then runs 3..8 random statements, each binding a new float or int variable from earlier
ones, and finally stores a float tile (or scatters it, reversed, into its own tile):

    @tile.kernel
    def generated(z: Partition[f32], hist: AtomicTensor[i32], x: Tensor[f32], y: Tensor[i32]) -> None:
        f0 = tile.load_like(x, z)
        i0 = tile.load_like(y, z)
        i1 = (i0 ^ 5) % 7
        f1 = tile.gather(x, (i1 & 255,), other=0.5)
        tile.atomic_add(hist, (i1 & 15,), 1)
        ...
        z.store(f1 * 2.0)

Statements come from elementwise arithmetic, compares with `where`, `maximum`/`minimum`, bounded math
(`tanh sin cos`), integer `// % & | ^ << >>` with literal operands (no zero divisor), `astype`, reductions
broadcast back, `cumsum`, `argmax`, `gather` (indices past the edge read `other`), `atomic_add` /
`atomic_max` into a 16-bin i32 histogram (one of the two per kernel: they do not commute with each other),
and a `@tile.function` helper.  With `gpu_exact=True` the
statements whose GPU result may differ from the CPU's by float rounding in a way that changes an integer
(float -> int conversions of computed values, argmax of floats) are left out, so GPU and CPU results can be
compared exactly on ints and with a tolerance on floats.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
import sys
import tempfile
from pathlib import Path
from types import ModuleType

TILE = 64
N = 200  # 4 tile blocks, the last one ragged (padded loads, masked stores)
BINS = 16

HEADER = '''
from typing import Any

from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor


@tile.function
def blend(a: Any, b: Any) -> Any:
    return tile.maximum(a, b) * 0.5 + b


@tile.kernel
def generated(z: Partition[f32], hist: AtomicTensor[i32], x: Tensor[f32], y: Tensor[i32]) -> None:
    f0 = tile.load_like(x, z)
    i0 = tile.load_like(y, z)
'''


def _statement(
    rng: random.Random, fs: list[str], ints: list[str], k: int, gpu_exact: bool, atomic: str
) -> tuple[str, str]:
    """One statement and the kind ("f" / "i" / "-") of the variable it binds.  `atomic` is the kernel's one
    histogram update ("add" or "max"): adds commute with adds and maxes with maxes, but an add and a max into one
    bin do not (max(h + 1, v) != max(h, v) + 1), so a kernel mixing them has no single right answer when tile
    blocks interleave on the GPU."""
    f, f2 = rng.choice(fs), rng.choice(fs)
    i, i2 = rng.choice(ints), rng.choice(ints)
    c = rng.choice([1, 2, 3, 5, 7, -3, -7])
    s = rng.randint(0, 40)
    float_ops = [
        f"f{k} = {f} + {f2} * 0.5",
        f"f{k} = {f} - {f2}",
        f"f{k} = tile.where({f} > {f2}, {f}, {f2} * 0.25)",
        f"f{k} = tile.minimum({f}, {f2}) + 1.0",
        f"f{k} = tile.tanh({f}) + tile.sin({f2})",
        f"f{k} = tile.cos({f}) * 2.0",
        f"f{k} = {i}.astype(f32) * 0.125",
        f"f{k} = tile.cumsum(tile.tanh({f}))",
        f"f{k} = tile.broadcast_to(tile.sum({f}, axis=0, keepdims=True), ({TILE},)) * 0.01",
        f"f{k} = tile.broadcast_to(tile.max({f}, axis=0, keepdims=True), ({TILE},)) - {f2}",
        f"f{k} = tile.gather(x, ({i} & 255,), other=0.5)",
        f"f{k} = tile.gather(x, ({i} % {N + 40},), mask={i} > 2, other=-1.0)",
        f"f{k} = blend({f}, {f2})",
    ]
    int_ops = [
        f"i{k} = {i} + {i2} * {c}",
        f"i{k} = {i} // {c}",
        f"i{k} = {i} % {c}",
        f"i{k} = ({i} & {abs(c) * 9}) | ({i2} ^ {c})",
        f"i{k} = ({i} << {s}) ^ ({i2} >> {rng.randint(0, 5)})",
        f"i{k} = ~{i} >> {s}",
        f"i{k} = tile.where({i} < {i2}, {i}, {i2} - 1)",
        f"i{k} = tile.cumsum({i} & 15)",
        f"i{k} = tile.maximum({i}, {c}) // 2",
    ]
    if not gpu_exact:
        int_ops += [
            f"i{k} = (tile.tanh({f}) * 100.0).astype(i32)",
            f"i{k} = tile.broadcast_to(tile.argmax({f}, axis=0, keepdims=True), ({TILE},)) + {i}",
        ]
    else:
        int_ops.append(f"i{k} = tile.broadcast_to(tile.argmax({i}, axis=0, keepdims=True), ({TILE},)) + {i2}")
    effects = (
        [
            f"tile.atomic_add(hist, ({i} & {BINS - 1},), 1)",
            f"tile.atomic_add(hist, ({i} & {BINS - 1},), {i2} & 7, mask={i2} > 0)",
        ]
        if atomic == "add"
        else [f"tile.atomic_max(hist, ({i} & {BINS - 1},), {i2})"]
    )
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(float_ops), "f"
    if pick < 0.9:
        return rng.choice(int_ops), "i"
    return rng.choice(effects), "-"


def source(rng: random.Random, gpu_exact: bool = False) -> str:
    fs, ints = ["f0"], ["i0"]
    lines = []
    atomic = "max" if rng.random() < 0.3 else "add"
    for k in range(1, rng.randint(3, 8) + 1):
        text, kind = _statement(rng, fs, ints, k, gpu_exact, atomic)
        lines.append(f"    {text}\n")
        if kind == "f":
            fs.append(f"f{k}")
        elif kind == "i":
            ints.append(f"i{k}")
    result = f"{fs[-1]} + {ints[-1]}.astype(f32) * 0.001"
    if rng.random() < 0.3:
        lines.append(
            f"    tile.scatter(z, (tile.bid(0) * {TILE} + {TILE - 1} - tile.iota({TILE}, i32),), {result})\n"
        )
    else:
        lines.append(f"    z.store({result})\n")
    return HEADER + "".join(lines)


def write(text: str) -> Path:
    """The kernel's module file (named by its content, so a re-run reuses it)."""
    folder = Path(tempfile.gettempdir()) / "safekernels_parity_kernels"
    folder.mkdir(exist_ok=True)
    path = folder / f"gen_{hashlib.sha256(text.encode()).hexdigest()[:16]}.py"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return path


def load(path: Path) -> ModuleType:
    name = f"sk_parity_generated_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def inputs(seed: int) -> tuple[object, object]:
    """(x, y) host data: floats in [-2, 2), ints in [-40, 300) (some past the edge when used as indices)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return rng.uniform(-2, 2, N).astype(np.float32), rng.integers(-40, 300, N).astype(np.int32)


def launch(module: ModuleType, device: object, seed: int) -> tuple[object, object]:
    """Run the generated kernel on `device`; returns (z, hist) as numpy arrays."""
    from safekernels import tile
    from safekernels.dtypes import f32, i32

    x, y = inputs(seed)
    stream = device.new_stream()  # type: ignore[attr-defined]
    z, hist, _x, _y = module.generated(
        tile.zeros((N,), f32, device=device).partition((TILE,)),
        tile.zeros((BINS,), i32, device=device),
        tile.from_numpy(x, device=device),
        tile.from_numpy(y, device=device),
    ).sync_on(stream)
    return z.unpartition().to_numpy(stream), hist.to_numpy(stream)
