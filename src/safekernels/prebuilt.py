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
import keyword
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from safekernels.disk_data import DiskDataError, parse_json, read_regular
from safekernels.dtypes import ALL_DTYPES, dtype_class
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


#: Size caps of what a prebuilt folder may hold (a manifest is a few KiB per kernel; a cubin a few MiB).
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
MAX_CUBIN_BYTES = 512 * 1024 * 1024
#: The parameter kinds each track writes; anything else is refused, never loaded as a scalar.
SIMT_KINDS = ("slice", "disjoint", "atomic", "scalar")
TILE_KINDS = ("partition", "tensor", "atomic", "scalar")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
#: Most kernel entries in one manifest (each names a cubin to read and hash).
MAX_ENTRIES = 4096
_ENTRY_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.]{0,511}$")
_MAX_DIM = 1 << 62
DTYPE_NAMES = frozenset(dt.__dtype__.name for dt in ALL_DTYPES)  # type: ignore[attr-defined]


def load_prebuilt(folder: str | Path) -> PrebuiltKernels:
    """Load the kernels `safekernels build FILE -o folder` wrote (see the module docstring).

    Every problem with the folder (missing, unreadable, not a regular file, too large, not JSON, a manifest of
    the wrong shape, an edited cubin) is one `PrebuiltError` naming the file and what is wrong with it.
    """
    root = Path(folder)
    manifest = read_manifest(root / MANIFEST)
    tile_entries: dict[str, list[tuple[dict[str, Any], PrebuiltTile]]] = {}
    kernels: dict[str, Any] = {}
    cubins: dict[str, tuple[bytes, str]] = {}  # a cubin named by several entries is read and hashed once
    try:
        for entry in manifest["kernels"]:
            cubin = _read_cubin(root, entry, cubins)
            if entry["track"] == "simt":
                kernels[str(entry["name"])] = _simt_kernel(entry, cubin)
            else:
                tile_entries.setdefault(str(entry["name"]), []).append((entry, _tile_entry(entry, cubin)))
        for name, items in tile_entries.items():
            kernels[name] = _tile_kernel(items[0][0], TileSpecializations(name, [t for _, t in items]))
    except PrebuiltError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, SafeKernelsError) as exc:  # what validation missed
        raise PrebuiltError(f"{root}: not a usable prebuilt folder ({MANIFEST}: {exc})") from None
    return PrebuiltKernels(root, kernels)


def read_manifest(path: Path) -> dict[str, Any]:
    """The validated manifest at `path` (see `validate_manifest`), or `PrebuiltError` saying what is wrong."""
    try:
        data = read_regular(path, MAX_MANIFEST_BYTES)
        manifest = parse_json(data)
    except DiskDataError as exc:
        raise PrebuiltError(f"{path.parent}: not a usable prebuilt folder ({path.name}: {exc})") from None
    try:
        validate_manifest(manifest)
    except _SchemaError as exc:
        raise PrebuiltError(f"{path.parent}: not a usable prebuilt folder ({path.name}: {exc})") from None
    return manifest  # type: ignore[no-any-return]


class _SchemaError(ValueError):
    """Where in the manifest the shape is wrong, and how."""


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise _SchemaError(f"{where}: {what}")


def _is_int(value: Any, low: int = 0, high: int = _MAX_DIM) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _ints(value: Any, where: str, *, length: int | None = None, low: int = 0) -> None:
    _need(isinstance(value, list) and all(_is_int(v, low) for v in value), where, "expected a list of integers")
    _need(length is None or len(value) == length, where, f"expected {length} integers")


def _text(value: Any, where: str, pattern: re.Pattern[str] | None = None) -> None:
    _need(isinstance(value, str) and 0 < len(value) <= 4096, where, "expected a non-empty string")
    _need(pattern is None or pattern.match(value) is not None, where, f"unexpected value {value[:80]!r}")


def _params(value: Any, where: str, kinds: tuple[str, ...]) -> None:
    _need(isinstance(value, list), where, "expected a list of [name, kind, dtype]")
    seen: set[str] = set()
    for i, param in enumerate(value):
        at = f"{where}[{i}]"
        _need(isinstance(param, list) and len(param) == 3, at, "expected [name, kind, dtype]")
        name, kind, dtype = param
        _need(isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name), at,
              f"{str(name)[:80]!r} is not a parameter name")
        _need(name not in seen, at, f"parameter `{name}` appears twice")
        seen.add(name)
        _need(kind in kinds, at, f"unknown parameter kind {str(kind)[:40]!r} (expected one of {', '.join(kinds)})")
        _need(isinstance(dtype, str) and dtype in DTYPE_NAMES, at, f"unknown dtype {str(dtype)[:40]!r}")


def _contract(value: Any, where: str) -> None:
    if value is None:
        return
    _need(isinstance(value, dict), where, "expected an object or null")
    _need(_is_int(value.get("domain"), 1, 3), f"{where}.domain", "expected 1, 2 or 3")
    block = value.get("block")
    if block is not None:
        _ints(block, f"{where}.block", low=1)
        _need(1 <= len(block) <= 3, f"{where}.block", "expected 1 to 3 dimensions")
    dynamic = value.get("dynamic_shared")
    if isinstance(dynamic, list):
        _ints(dynamic, f"{where}.dynamic_shared", length=2)
    else:
        _need(_is_int(dynamic), f"{where}.dynamic_shared", "expected a byte count or [low, high]")
    cc = value.get("min_compute_capability")
    if cc is not None:
        _ints(cc, f"{where}.min_compute_capability", length=2)
    requires = value.get("requires")
    _need(isinstance(requires, list) and all(isinstance(r, str) and len(r) <= 4096 for r in requires),
          f"{where}.requires", "expected a list of strings")


def _entry(entry: Any, where: str) -> None:
    _need(isinstance(entry, dict), where, "expected an object")
    track = entry.get("track")
    _need(track in ("simt", "tile"), f"{where}.track", f"unknown track {str(track)[:40]!r}")
    name = entry.get("name")
    _need(isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name), f"{where}.name",
          f"{str(name)[:80]!r} is not a kernel name")
    _text(entry.get("entry"), f"{where}.entry", _ENTRY_NAME)
    _text(entry.get("arch"), f"{where}.arch")
    files = entry.get("files")
    _need(isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()),
          f"{where}.files", "expected an object of file names")
    for stage, file_name in files.items():
        _need(Path(file_name).name == file_name and file_name not in ("", ".", ".."), f"{where}.files.{stage}",
              f"file name {file_name[:80]!r} leaves the folder")
    _text(entry.get("cubin_sha256"), f"{where}.cubin_sha256", _SHA256)
    if track == "simt":
        _params(entry.get("params"), f"{where}.params", SIMT_KINDS)
        unchecked = entry.get("unchecked_indexing", False)
        _need(isinstance(unchecked, bool), f"{where}.unchecked_indexing", "expected a bool")
        _contract(entry.get("contract"), f"{where}.contract")
        meta = entry.get("meta")
        _need(isinstance(meta, dict), f"{where}.meta", "expected an object")
        _text(meta.get("plan"), f"{where}.meta.plan")
        try:
            plan = parse_json(meta["plan"], max_depth=4)
        except DiskDataError as exc:
            raise _SchemaError(f"{where}.meta.plan: {exc}") from None
        _need(isinstance(plan, list) and all(isinstance(p, list) and len(p) == 3 and all(isinstance(x, str) for x in p)
                                             for p in plan), f"{where}.meta.plan", "expected a list of [str, str, str]")
        if meta.get("block") is not None:
            _ints(meta["block"], f"{where}.meta.block", length=3, low=1)
        return
    _params(entry.get("params"), f"{where}.params", TILE_KINDS)
    _text(entry.get("launch_arch"), f"{where}.launch_arch")
    spec = entry.get("specialization")
    _need(isinstance(spec, list), f"{where}.specialization", "expected a list")
    for i, item in enumerate(spec):
        at = f"{where}.specialization[{i}]"
        _need(isinstance(item, list) and len(item) == 6, at, "expected [name, kind, dtype, rank, tile, aligned]")
        _need(isinstance(item[0], str) and isinstance(item[1], str) and item[2] in DTYPE_NAMES, at,
              "expected a name, a kind and a dtype")
        _need(_is_int(item[3], 0, 8), at, "expected a rank from 0 to 8")
        if item[4] is not None:
            _ints(item[4], at, low=1)
        _need(isinstance(item[5], bool), at, "expected `aligned` to be a bool")
    for key, low, high in (("grid_rank", 1, 3), ("threads", 1, 1 << 16), ("smem", 0, 1 << 31)):
        _need(_is_int(entry.get(key), low, high), f"{where}.{key}", f"expected an integer from {low} to {high}")
    num_warps = entry.get("num_warps")
    _need(num_warps is None or _is_int(num_warps, 1, 64), f"{where}.num_warps", "expected null or 1 to 64")
    for key in ("fast_math", "persistent"):
        _need(isinstance(entry.get(key, False), bool), f"{where}.{key}", "expected a bool")
    abi = entry.get("abi")
    _need(isinstance(abi, list), f"{where}.abi", "expected a list")
    for i, item in enumerate(abi):
        _need(isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and _is_int(item[1], -1)
              and _is_int(item[2]), f"{where}.abi[{i}]", "expected [kind, int, int]")


def validate_manifest(manifest: Any) -> None:
    """Raise `_SchemaError` (a ValueError naming the place) unless `manifest` has the shape `build` writes."""
    _need(isinstance(manifest, dict), "manifest", "expected a JSON object")
    _need(manifest.get("version") == 1, "version", f"unknown manifest version {str(manifest.get('version'))[:40]}")
    kernels = manifest.get("kernels")
    _need(isinstance(kernels, list), "kernels", "expected a list")
    _need(len(kernels) <= MAX_ENTRIES, "kernels", f"{len(kernels):,} entries, more than the {MAX_ENTRIES:,} supported")
    for i, entry in enumerate(kernels):
        _entry(entry, f"kernels[{i}]")


def _read_cubin(root: Path, entry: dict[str, Any], cubins: dict[str, tuple[bytes, str]]) -> bytes:
    if "cubin" not in entry["files"]:
        raise PrebuiltError(f"{root}: `{entry['name']}` was built without its cubin; rebuild with --emit cubin")
    name = str(entry["files"]["cubin"])
    if name not in cubins:
        try:
            data = read_regular(root / name, MAX_CUBIN_BYTES)
        except DiskDataError as exc:
            raise PrebuiltError(f"{root / name}: cannot use this cubin ({exc})") from None
        cubins[name] = (data, hashlib.sha256(data).hexdigest())
    data, digest = cubins[name]
    if digest != entry["cubin_sha256"]:
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
