"""`sk.load_prebuilt(dir)`: launch the cubins `safekernels build` wrote, without the compiler.

    manifest.json + <kernel>.cubin  ->  PrebuiltKernels  (.name / ["name"] per kernel)
        SIMT: a SimtKernel rebuilt from the manifest's parameters and contract  -> prepare / launch as usual
        tile: a TileKernel rebuilt from the manifest's parameters               -> k(z, x, y).sync_on(stream)

The kernels are real `SimtKernel` / `TileKernel` objects, so every safety check of a launch is the same code
as for a kernel compiled at run time: brands, contract and device limits, `requires`, aliasing and overlap,
moves and borrows, shapes.  Only the step that would compile is different: the launcher takes the cubin named
in the manifest (its SHA-256 checked when loading) instead of calling codegen, so llvmlite is never imported.
A tile launch whose specialization (dtypes, ranks, tile shapes, vector alignment) was not built raises
`PrebuiltError` listing the ones that were; so does a device whose architecture differs from the build's.
Prebuilt kernels run on GPUs only (the CPU executor needs the Python source, which a manifest does not carry).
"""

from __future__ import annotations

import functools
import hashlib
import json
import keyword
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from safekernels.dtypes import dtype_class
from safekernels.errors import DeviceError, SafeKernelsError

MANIFEST = "manifest.json"


class PrebuiltError(SafeKernelsError):
    """A prebuilt folder that cannot be used (missing or edited files, no matching specialization, wrong arch)."""


@dataclass(frozen=True)
class PrebuiltSimt:
    """What `simt.gpu_launch.GpuLauncher` needs instead of a `codegen.CompiledKernel`."""

    entry_name: str
    arch: str
    cubin: bytes
    param_plan: Any
    block: tuple[int, int, int] | None
    meta: dict[str, Any]


@dataclass(frozen=True)
class PrebuiltTile:
    """One built specialization of a tile kernel, shaped like `codegen.tile.pipeline.CompiledTile`."""

    name: str
    arch: str
    launch_arch: str
    cubin: bytes
    threads: int
    smem_bytes: int
    abi: list[tuple[str, int, int]]
    specialization: tuple[tuple[Any, ...], ...]
    grid_rank: int
    persistent: bool = False  # CTAs loop over tile blocks (codegen.tile.persistent): launch at most one per SM


class TileSpecializations:
    """The built specializations of one tile kernel; `find` picks the one a launch needs."""

    def __init__(self, name: str, entries: list[PrebuiltTile]) -> None:
        self.name = name
        self.entries = entries

    def find(self, infos: list[Any], grid_rank: int, arch: str) -> PrebuiltTile:
        wanted = [(i.name, i.kind, i.dtype.name, i.rank, tuple(i.tile_shape or ()) or None) for i in infos]
        for entry in self.entries:
            if entry.launch_arch != arch:
                continue
            shape = [(s[0], s[1], s[2], s[3], tuple(s[4]) if s[4] else None) for s in entry.specialization]
            aligned_ok = all(
                i.aligned or not s[5] for i, s in zip(infos, entry.specialization, strict=True)
            )  # a build for aligned data needs aligned data; an unaligned build runs on anything
            if shape == wanted and entry.grid_rank == grid_rank and aligned_ok:
                return entry
        built = "; ".join(_describe(e) for e in self.entries) or "none"
        raise PrebuiltError(
            f"{self.name}: no prebuilt specialization for this launch ({_describe_infos(infos)} on {arch}); "
            f"built: {built}. Add it with tile.specialize(...) or --specialize and rebuild"
        )


def _describe(entry: PrebuiltTile) -> str:
    parts = [
        f"{s[2]}{list(s[4]) if s[4] else ''}r{s[3]}" + ("" if s[5] else " unaligned") for s in entry.specialization
    ]
    return f"({', '.join(parts)}) {entry.launch_arch}"


def _describe_infos(infos: list[Any]) -> str:
    return ", ".join(f"{i.dtype.name}{list(i.tile_shape) if i.tile_shape else ''}r{i.rank}" for i in infos)


class PrebuiltKernels:
    """The kernels of one prebuilt folder, by name: `kernels.add` or `kernels["add"]`."""

    def __init__(self, folder: Path, kernels: dict[str, Any]) -> None:
        self.folder = folder
        self._kernels = kernels

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_kernels"][name]
        except KeyError:
            raise AttributeError(f"{self.__dict__.get('folder')}: no prebuilt kernel `{name}`") from None

    def __getitem__(self, name: str) -> Any:
        return self._kernels[name]

    def __iter__(self) -> Any:
        return iter(self._kernels)

    def __len__(self) -> int:
        return len(self._kernels)

    def __repr__(self) -> str:
        return f"<prebuilt {self.folder}: {', '.join(self._kernels)}>"


def load_prebuilt(folder: str | Path) -> PrebuiltKernels:
    """Load the kernels `safekernels build FILE -o folder` wrote (see the module docstring)."""
    root = Path(folder)
    try:
        manifest = json.loads((root / MANIFEST).read_text())
        if manifest.get("version") != 1 or not isinstance(manifest.get("kernels"), list):
            raise ValueError("unknown manifest version")
        tile_entries: dict[str, list[tuple[dict[str, Any], PrebuiltTile]]] = {}
        kernels: dict[str, Any] = {}
        for entry in manifest["kernels"]:
            cubin = _read_cubin(root, entry)
            if entry["track"] == "simt":
                kernels[str(entry["name"])] = _simt_kernel(entry, cubin)
            else:
                tile_entries.setdefault(str(entry["name"]), []).append((entry, _tile_entry(entry, cubin)))
        for name, items in tile_entries.items():
            kernels[name] = _tile_kernel(items[0][0], TileSpecializations(name, [t for _, t in items]))
    except PrebuiltError:
        raise
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise PrebuiltError(f"{root}: not a usable prebuilt folder ({type(exc).__name__}: {exc})") from None
    return PrebuiltKernels(root, kernels)


def _read_cubin(root: Path, entry: dict[str, Any]) -> bytes:
    if "cubin" not in entry["files"]:
        raise PrebuiltError(f"{root}: `{entry['name']}` was built without its cubin; rebuild with --emit cubin")
    name = str(entry["files"]["cubin"])
    if Path(name).name != name:
        raise ValueError(f"cubin path {name!r} leaves the folder")
    data = (root / name).read_bytes()
    if hashlib.sha256(data).hexdigest() != entry["cubin_sha256"]:
        raise PrebuiltError(f"{root / name}: checksum mismatch (the file changed since the build); rebuild")
    return data


def _identifier(name: Any) -> str:
    text = str(name)
    if not text.isidentifier() or keyword.iskeyword(text):
        raise ValueError(f"{text!r} is not a parameter name")
    return text


def _function(name: str, params: list[tuple[str, Any]]) -> Any:
    """A bodiless function with `params` annotated, standing in for the kernel's source."""
    args = ", ".join(_identifier(p) for p, _ in params)
    namespace: dict[str, Any] = {}
    exec(f"def kernel({args}) -> None:\n    raise RuntimeError('a prebuilt kernel has no Python body')\n", namespace)
    fn = namespace["kernel"]
    fn.__name__ = fn.__qualname__ = name
    fn.__annotations__ = {**dict(params), "return": None}
    return fn


def _simt_kernel(entry: dict[str, Any], cubin: bytes) -> Any:
    from safekernels.codegen.param_plan import ParamPlan
    from safekernels.simt import types as simt_types
    from safekernels.simt.contract import launch_contract

    classes: dict[str, Any] = {
        "slice": simt_types.Slice,
        "disjoint": simt_types.DisjointSlice,
        "atomic": simt_types.AtomicSlice,
    }
    params = []
    for pname, kind, dt in entry["params"]:
        cls = dtype_class(dt)
        params.append((str(pname), classes[kind][cls] if kind in classes else cls))
    fn = _function(str(entry["name"]), params)
    contract = entry.get("contract")
    if contract is not None:
        dynamic = contract["dynamic_shared"]
        fn = launch_contract(
            domain=int(contract["domain"]),
            block=tuple(contract["block"]) if contract["block"] is not None else None,
            dynamic_shared=tuple(dynamic) if isinstance(dynamic, list) else int(dynamic),
            min_compute_capability=tuple(contract["min_compute_capability"])
            if contract["min_compute_capability"]
            else None,
            requires=tuple(str(r) for r in contract["requires"]),
        )(fn)
    kernel = _simt_class()(fn, unchecked_indexing=bool(entry.get("unchecked_indexing")))
    meta = dict(entry["meta"])
    block = meta.get("block")
    kernel.prebuilt = PrebuiltSimt(
        str(entry["entry"]),
        str(entry["arch"]),
        cubin,
        ParamPlan.from_json(str(meta["plan"])),
        (int(block[0]), int(block[1]), int(block[2])) if block else None,
        meta,
    )
    return kernel


def _tile_entry(entry: dict[str, Any], cubin: bytes) -> PrebuiltTile:
    return PrebuiltTile(
        str(entry["entry"]),
        str(entry["arch"]),
        str(entry["launch_arch"]),
        cubin,
        int(entry["threads"]),
        int(entry["smem"]),
        [(str(a[0]), int(a[1]), int(a[2])) for a in entry["abi"]],
        tuple(tuple(s) for s in entry["specialization"]),
        int(entry["grid_rank"]),
        bool(entry.get("persistent", False)),
    )


def _tile_kernel(entry: dict[str, Any], specializations: TileSpecializations) -> Any:
    from safekernels.tile.kernel import TileKernel
    from safekernels.tile.tensor import Partition, Tensor
    from safekernels.tile.views import AtomicTensor

    classes: dict[str, Any] = {"partition": Partition, "tensor": Tensor, "atomic": AtomicTensor}
    params = []
    for pname, kind, dt in entry["params"]:
        cls = dtype_class(dt)
        params.append((str(pname), classes[kind][cls] if kind in classes else cls))
    fn = _function(str(entry["name"]), params)

    class PrebuiltTileKernel(TileKernel):
        prebuilt = specializations

        def _execute(self, stream: Any, values: list[Any]) -> Any:
            if not stream.device.is_gpu:
                raise DeviceError(f"{self.name}: prebuilt kernels run on a GPU (the CPU executor needs the source)")
            return super()._execute(stream, values)

    return PrebuiltTileKernel(fn, None, num_warps=entry.get("num_warps"), fast_math=bool(entry.get("fast_math")))


@functools.cache
def _simt_class() -> Any:
    from safekernels.simt.kernel import SimtKernel

    class _PrebuiltSimtKernel(SimtKernel):
        prebuilt: PrebuiltSimt

        def _run(self, prepared: Any, stream: Any, converted: Any, *, requires_checked: bool = False) -> None:
            if prepared.device.is_cpu:
                raise DeviceError(f"{self.name}: prebuilt kernels run on a GPU (the CPU executor needs the source)")
            super()._run(prepared, stream, converted, requires_checked=requires_checked)

    return _PrebuiltSimtKernel
