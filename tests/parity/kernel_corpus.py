"""The parity rule's corpus: every module-level tile and SIMT kernel in tests/, examples/ and bench/, and
specializations to try them with.

A file is a candidate when its text mentions `tile.kernel` / `simt.kernel`; it is imported by path under a
private module name (a file that cannot be imported here, e.g. one that needs torch, is skipped and counted).
For a tile kernel there is no launch to copy a specialization from, so `tile_candidates` makes a few from its
annotations: the declared `Dims` where there are any (names bound to 64), otherwise a rank-1 (128,) or a
rank-2 (64, 64) partition over a 2-tile-per-axis tensor, inputs shaped like the output, scalars 2 / 0.5.
A candidate that the launch-time shape check refuses is not a program and is dropped; when the check refuses the
2-tile shapes (declared dims that tie an input to the tile, read with `load_like`), one tile per axis is tried.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from safekernels.dtypes import DType, dtype_of
from safekernels.errors import KernelTrapError
from safekernels.simt.kernel import SimtKernel
from safekernels.tile.kernel import TileKernel
from safekernels.tile.signature import TileParam, check_launch_shapes
from safekernels.tile.tensor import TensorSpec

ROOT = Path(__file__).resolve().parents[2]
SEARCHED = ("tests", "examples", "bench")
F32 = dtype_of("f32")


def candidate_files() -> list[Path]:
    out: list[Path] = []
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" in path.parts or path.parent.name == "parity":
                continue
            text = path.read_text(errors="replace")
            if "tile.kernel" in text or "simt.kernel" in text:
                out.append(path)
    return out


def _import(path: Path) -> ModuleType | None:
    name = "sk_parity_" + "_".join(path.relative_to(ROOT).with_suffix("").parts)
    if name in sys.modules:
        return sys.modules[name]
    for extra in (str(path.parent), str(ROOT), str(ROOT / "examples")):
        if extra not in sys.path:
            sys.path.append(extra)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        return None
    return module


@dataclass(frozen=True)
class Found:
    where: str  # path:name
    kernel: Any


def collect() -> tuple[list[Found], list[Found], list[str]]:
    """(tile kernels, SIMT kernels, files that could not be imported)."""
    tiles: dict[int, Found] = {}
    simts: dict[int, Found] = {}
    skipped: list[str] = []
    for path in candidate_files():
        module = _import(path)
        rel = path.relative_to(ROOT).as_posix()
        if module is None:
            skipped.append(rel)
            continue
        for attr, value in sorted(vars(module).items()):
            if isinstance(value, TileKernel) and getattr(value.fn, "__module__", "") == module.__name__:
                tiles.setdefault(id(value.fn), Found(f"{rel}:{attr}", value))
            elif isinstance(value, SimtKernel) and getattr(value, "__module__", "") == module.__name__:
                simts.setdefault(id(value), Found(f"{rel}:{attr}", value))
    return list(tiles.values()), list(simts.values()), skipped


@dataclass(frozen=True)
class Candidate:
    """One specialization: per parameter (shape, tile shape, dtype) or a scalar value."""

    args: tuple[tuple[tuple[int, ...], tuple[int, ...] | None, DType] | Any, ...]
    grid_rank: int


def _dims(param: TileParam, default: tuple[int, ...], names: dict[str, int]) -> tuple[int, ...]:
    if param.dims is None:
        return default
    out: list[int] = []
    for i, d in enumerate(param.dims.dims):
        if isinstance(d, str):
            out.append(names.setdefault(d, 64))
        else:
            out.append(d if d != -1 else (default[i] if i < len(default) else 128))
    return tuple(out)


def tile_candidates(kernel: TileKernel) -> Iterator[Candidate]:
    part = next(p for p in kernel.params if p.kind == "partition")
    ranks = [len(part.dims.dims)] if part.dims is not None else [1, 2]
    for rank in ranks:
        for blocks in (2, 1):  # two tile blocks per axis; one when declared dims tie an input to the tile
            cand = _candidate(kernel, part, rank, blocks)
            if cand is not None:
                yield cand
                break


def _candidate(kernel: TileKernel, part: TileParam, rank: int, blocks: int) -> Candidate | None:
    names: dict[str, int] = {}
    tile_default = (128,) if rank == 1 else (64,) * rank
    tile_shape = _dims(part, tile_default, names)
    full = tuple(blocks * t for t in tile_shape)
    args: list[Any] = []
    for p in kernel.params:
        dt = p.dtype or F32
        if p.kind == "partition":
            args.append((full, _dims(p, tile_shape, names), dt))
        elif p.kind in ("tensor", "atomic"):
            args.append((_dims(p, full, names), None, dt))
        else:
            args.append(2 if p.dtype is None or not p.dtype.is_float else 0.5)
    specs = [
        None if p.kind == "scalar" else TensorSpec(a[0], a[2], a[1]) for p, a in zip(kernel.params, args, strict=True)
    ]
    try:  # with the shapes the kernel's `load_like` calls tie together (`tile.shape_ties`)
        check_launch_shapes(kernel.name, kernel.params, specs, kernel.shape_ties)
    except (TypeError, ValueError):
        return None
    return Candidate(tuple(args), rank)


def _data(shape: tuple[int, ...], dt: DType, rng: np.random.Generator) -> np.ndarray:
    if dt.name == "bool":
        return rng.random(shape) < 0.5
    if dt.is_float:
        return rng.uniform(0.5, 1.5, shape).astype(np.float32 if dt.name == "bf16" else dt.storage)
    return rng.integers(1, 8, shape).astype(dt.storage)


def host_arguments(kernel: TileKernel, cand: Candidate, device: Any, seed: int = 0) -> list[Any]:
    from safekernels import tile

    rng = np.random.default_rng(seed)
    out: list[Any] = []
    for p, a in zip(kernel.params, cand.args, strict=True):
        if p.kind == "scalar":
            out.append(a)
            continue
        shape, tile_shape, dt = a
        if p.kind == "atomic":
            op = tile.zeros(shape, dt, device=device)
        elif dt.is_float and dt.storage.kind != "f":  # bf16, fp8: stored as bit patterns
            op = tile.from_numpy(_data(shape, F32, rng), dtype=dt, device=device)
        else:
            op = tile.from_numpy(_data(shape, dt, rng), device=device)
        out.append(op.partition(tile_shape) if tile_shape is not None else op)
    return out


def run_on(kernel: TileKernel, cand: Candidate, device: Any) -> list[np.ndarray]:
    """Launch on `device` and return every tensor argument afterwards (outputs and inputs) as numpy."""
    stream = device.new_stream()
    values = kernel(*host_arguments(kernel, cand, device)).sync_on(stream)
    out: list[np.ndarray] = []
    for p, v in zip(kernel.params, values, strict=True):
        if p.kind == "partition":
            out.append(v.unpartition().to_numpy(stream))
        elif p.kind != "scalar":
            out.append(v.to_numpy(stream))
    return out


def run_on_cpu(kernel: TileKernel, cand: Candidate) -> tuple[str, str]:
    """("accept", "") when the CPU executor runs it, ("accept", "trap") when it runs into a data-dependent
    trap (the program is legal), else ("reject", the exception's type and message)."""
    import safekernels as sk

    try:
        run_on(kernel, cand, sk.Device.cpu())
    except KernelTrapError:
        return "accept", "trap"
    except Exception as exc:
        return "reject", f"{type(exc).__name__}: {exc}"
    return "accept", ""


def compile_for_gpu(kernel: TileKernel, cand: Candidate, arch: str = "sm_90") -> tuple[str, str]:
    """("accept", "") when it compiles to PTX and nvJitLink assembles it for `arch`, ("reject", SK codes) for SK
    diagnostics; any other exception propagates (a compiler crash is always a bug).  A kernel that only the
    Hopper-specific target can build (fp8 `matmul` runs on sm_90a warpgroup MMA only) is accepted when it
    compiles for sm_90a, which is what a launch on the H200 asks for; the detail then says so."""
    from ownership_check.diagnostics import DiagnosticError
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import param_info

    infos = []
    for p, a in zip(kernel.params, cand.args, strict=True):
        if p.kind == "scalar":
            infos.append(param_info(p.name, "scalar", p.dtype or F32))
        else:
            shape, tile_shape, dt = a
            infos.append(param_info(p.name, p.kind, dt, shape, tile_shape))
    detail = ""
    try:
        compiled = compile_tile(kernel.fn, infos, cand.grid_rank, arch=arch, num_warps=kernel.num_warps)
    except DiagnosticError as exc:
        codes = " ".join(d.code for d in exc.diagnostics)
        if arch != "sm_90" or codes != "SK004" or "sm_90a" not in str(exc):
            return "reject", codes
        compiled = compile_tile(kernel.fn, infos, cand.grid_rank, arch="sm_90a", num_warps=kernel.num_warps)
        detail = "sm_90a only"
    assert compiled.cubin, "nvJitLink returned no cubin"
    return "accept", detail
