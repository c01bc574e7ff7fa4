"""`safekernels build FILE --emit llvm|ptx|cubin|sass-summary -o DIR`: ahead-of-time builds.

    check (subprocess, -P) -> import FILE as a private module -> SIMT kernels + tile specializations
        -> compile each -> DIR/<name>.<stage> files + DIR/manifest.json (what `sk.load_prebuilt(DIR)` reads)

What runs: the ownership checker first (a subprocess started with `python -P -m ownership_check -- FILE`, so
codegen never imports it and no file name is read as an option; nothing is emitted for a file with errors
unless `--no-check`).  FILE is then imported the way `import` would, under a private module name, so its
module-level statements run (imports, kernel and constant definitions, `tile.specialize(...)` declarations)
but an `if __name__ == "__main__":` block does not; `sys.exit()` there is a failed build.  A file named like a
standard or installed module (`json.py`, `inspect.py`, `numpy.py`, `codegen.py`) shadows nothing: it is never
registered under its own name, and its folder never goes on `sys.path`: only the sibling modules FILE itself
imports, and only when nothing else has that name, are served from it (`build_import.py`), so a `cuda.py`
beside it cannot replace the `cuda` package.

Output (`build_output.py`): the build holds an exclusive lock on DIR, writes every file atomically (a full disk
or Ctrl-C leaves whole old files or whole new ones), and merges `manifest.json`: kernels other files built into
DIR stay, a kernel name another file owns there is refused.

Kernels are found by type, whatever they are named.  SIMT kernels build once each.  A tile kernel compiles per
specialization (dtypes, ranks, tile shapes): the ones declared in the file with `tile.specialize(kernel, ...)`,
or the ones given as `--specialize 'add:f32[1024]/[128],f32[1024],f32[1024]'` (one argument per parameter:
`dtype[dims]` for a Tensor, `dtype[dims]/[tile dims]` for a Partition, `dtype` for a scalar; dims separated by
`x`, e.g. `f16[512x256]/[64x64]`).  Output files are `<kernel>.<stage>`; a tile kernel with several
specializations gets `<kernel>.<i>.<stage>`, and two kernels with one name get their variable name added.

Errors are messages, not tracebacks: SK diagnostics print as `path:line:col: CODE message` (exit 1); an
unsupported `--arch` lists the supported ones, and an `-o` that is a file, lies below a file, is `/dev/null` or
is not writable is refused before anything compiles (exit 2).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ownership_check.diagnostics import DiagnosticError
from safekernels.codegen.arch import SUPPORTED_ARCHS, UnsupportedArchError, check_arch
from safekernels.codegen.build_import import exits_raise, sibling_imports
from safekernels.codegen.build_output import (
    BuildOutputError,
    OutputFolderLock,
    claimed_files,
    existing_manifest,
    merge_manifest,
    safe_stem,
    write_atomic,
)

MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
_SUFFIX = {"llvm": "ll", "ptx": "ptx", "cubin": "cubin", "sass-summary": "sass-summary.txt"}


class BuildError(Exception):
    """A build refused with a message (bad output folder, bad specialization): printed, exit status 2."""


@dataclass
class Found:
    """A kernel found in the module: its variable name, object and track."""

    variable: str
    kernel: Any
    track: str  # simt | tile
    specializations: list[tuple[Any, ...]] = field(default_factory=list)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="safekernels build",
        description="Compile the SIMT and tile kernels of a file ahead of time.",
        epilog="FILE is imported, not run: its module-level statements execute (imports, definitions, "
        'tile.specialize declarations), its `if __name__ == "__main__":` block does not. DIR receives '
        "<kernel>.<stage> per kernel and manifest.json (sk.load_prebuilt(DIR) loads builds made with --emit cubin).",
    )
    parser.add_argument("file")
    parser.add_argument("--emit", choices=tuple(_SUFFIX), action="append", required=True)
    parser.add_argument("-o", "--out-dir", required=True)
    parser.add_argument("--arch", default="sm_90", help=f"one of {', '.join(SUPPORTED_ARCHS)}")
    parser.add_argument(
        "--specialize",
        action="append",
        default=[],
        metavar="KERNEL:ARGS",
        help="a tile kernel specialization, e.g. 'add:f32[1024]/[128],f32[1024],f32[1024]' (repeatable)",
    )
    parser.add_argument("--no-check", action="store_true")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    args = parser.parse_args(argv)
    try:
        return _build(args)
    except KeyboardInterrupt:
        print("safekernels build: interrupted; files already in the output folder are complete", file=sys.stderr)
        return 130


def _build(args: argparse.Namespace) -> int:
    try:
        check_arch(args.arch)
        out = prepare_out_dir(Path(args.out_dir))
    except (UnsupportedArchError, BuildError) as exc:
        print(f"safekernels build: {exc}", file=sys.stderr)
        return 2
    path = Path(args.file)
    if not path.is_file():
        print(f"safekernels build: {path}: no such file", file=sys.stderr)
        return 2
    if not args.no_check:
        # -P: the checker's interpreter never imports modules from the working directory (docs/reference.md §7).
        # `--`: a file named `--select=W,.py` or `-k.py` is a file name, never an option of the checker.
        check_cmd = [sys.executable, "-P", "-m", "ownership_check", "--", str(path)]
        status = subprocess.run(check_cmd, stdout=subprocess.DEVNULL if args.quiet else None).returncode
        if status != 0:
            what = "reported errors" if status == 1 else f"failed (exit status {status})"
            print(f"safekernels build: {path}: the ownership checker {what}; nothing emitted", file=sys.stderr)
            return 1
    import safekernels.codegen.pipeline
    import safekernels.codegen.tile.pipeline  # noqa: F401

    with sibling_imports(path):
        module = import_kernel_file(path)
        if module is None:
            return 1
        try:
            found = find_kernels(module, args.specialize)
            with OutputFolderLock(out):
                return Builder(path, out, args.arch, args.emit, quiet=args.quiet).run(found)
        except (BuildError, BuildOutputError) as exc:
            print(f"safekernels build: {exc}", file=sys.stderr)
            return 2


def prepare_out_dir(out: Path) -> Path:
    """Create `out` (and parents) and prove it writable, or raise `BuildError` saying why not."""
    for parent in [out, *out.parents]:
        if parent.exists() and not parent.is_dir():
            where = "is" if parent == out else f"lies below {parent}, which is"
            raise BuildError(f"-o {out}: the output folder {where} not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".sk-write-test.")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise BuildError(f"-o {out}: cannot write there ({exc.strerror or exc})") from None
    return out


def import_kernel_file(path: Path) -> Any:
    """FILE as a private module (its `__main__` block does not run), or None after printing why not."""
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    stem = re.sub(r"\W", "_", path.stem)
    name = f"_safekernels_build_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        print(f"safekernels build: cannot import {path}", file=sys.stderr)
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    # The file's folder is not put on sys.path: `sibling_imports` (build_import.py) serves only what it imports.
    try:
        with exits_raise():
            spec.loader.exec_module(module)
    except DiagnosticError as exc:
        print(exc, file=sys.stderr)
        return None
    except KeyboardInterrupt:
        raise
    except SystemExit as exc:  # `sys.exit(0)` at import is a failed build, never a silent success
        where = _import_site(path, exc)
        message = f"error while importing the file: it exited (status {exc.code!r}) at import time; nothing built"
        print(f"{where}{message}", file=sys.stderr)
        return None
    except BaseException as exc:
        code = getattr(exc, "code", None)
        if isinstance(exc, TypeError | ValueError) and isinstance(code, str) and code.startswith("SK"):
            print(located_message(exc), file=sys.stderr)  # a located kernel-definition error (SK010-SK012)
            return None
        where = _import_site(path, exc)
        print(f"{where}error while importing the file: {type(exc).__name__}: {exc}", file=sys.stderr)
        return None
    return module


def _import_site(path: Path, exc: BaseException) -> str:
    target = os.path.realpath(path)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.realpath(f.filename) == target]
    return f"{path}:{frames[-1].lineno}: " if frames else f"{path}: "


def located_message(exc: BaseException) -> str:
    """`path:line:col: CODE message` for an error that carries its location (SK010-SK012), else `str(exc)`."""
    text = str(exc)
    path, line, column, code = (getattr(exc, attr, None) for attr in ("path", "line", "column", "code"))
    if not (isinstance(path, str) and path and isinstance(line, int) and line > 0 and isinstance(code, str)):
        return text
    prefix = f"{path}:{line}:{column if isinstance(column, int) else 0}: {code} "
    if text.startswith(prefix):
        return text
    first, _, rest = text.partition("\n")
    rest = "\n".join(part for part in rest.split("\n") if not part.strip().startswith("--> "))
    return prefix + first + ("\n" + rest if rest else "")


def find_kernels(module: Any, cli_specs: Sequence[str]) -> list[Found]:
    """The module's SIMT and tile kernels (each once), with the tile specializations to build."""
    from safekernels.tile.specializations import declared

    found: list[Found] = []
    seen: set[int] = set()
    for variable, value in vars(module).items():
        if id(value) in seen:
            continue
        kind = type(value).__name__
        if kind == "AutotunedSimtKernel":  # `@simt.autotune` over a `@simt.kernel`: build the kernel itself
            value = getattr(value, "kernel", None)
            kind = type(value).__name__
            if id(value) in seen:
                continue
        if kind == "SimtKernel":
            seen.add(id(value))
            found.append(Found(variable, value, "simt"))
        elif kind in ("TileKernel", "AutotunedTileKernel") and hasattr(value, "params"):
            seen.add(id(value))
            found.append(Found(variable, value, "tile", declared(value)))
    by_name = {f.kernel.name: f for f in found if f.track == "tile"}
    overridden: set[str] = set()
    for text in cli_specs:
        name, _, rest = text.partition(":")
        target = by_name.get(name.strip())
        if target is None:
            raise BuildError(f"--specialize {text!r}: no tile kernel named `{name.strip()}` in the file")
        if target.kernel.name not in overridden:  # the command line replaces the file's declarations
            target.specializations = []
            overridden.add(target.kernel.name)
        target.specializations.append(parse_cli_specialization(target.kernel, rest))
    return found


def _specialized_dtype(param: Any, arg: Any, info: Any) -> str:
    """The dtype a manifest records for a parameter: the declared one, else (`Tensor[Any]`, `Partition[Any]`,
    an unannotated scalar) the one this specialization gave it."""
    from safekernels.tile.specializations import scalar_dtype

    if param.dtype is not None:
        return str(param.dtype.name)
    if param.kind == "scalar":
        return str(scalar_dtype(param, arg).name)
    return str(info.dtype.name)


_ARG = re.compile(r"^\s*(?P<dtype>\w+)\s*(?:\[(?P<shape>[\dx ]+)\](?:\s*/\s*\[(?P<tile>[\dx ]+)\])?)?\s*$")


def parse_cli_specialization(kernel: Any, text: str) -> tuple[Any, ...]:
    """`f32[1024]/[128],f32[1024],i32` -> the `tile.specialize` arguments for `kernel`."""
    from safekernels.dtypes import dtype_of
    from safekernels.tile.specializations import check_argument, spec

    parts = [p for p in re.split(r",(?![^\[]*\])", text) if p.strip()]
    if len(parts) != len(kernel.params):
        raise BuildError(
            f"--specialize {kernel.name}:{text}: {len(kernel.params)} arguments expected "
            f"({', '.join(p.name for p in kernel.params)}), got {len(parts)}"
        )
    out: list[Any] = []
    for param, part in zip(kernel.params, parts, strict=True):
        m = _ARG.match(part)
        try:
            if m is None:
                raise ValueError(f"cannot read {part!r} (expected dtype, dtype[dims] or dtype[dims]/[tile])")
            dt = dtype_of(m.group("dtype"))
            if m.group("shape") is None:
                out.append(dt)
            else:
                shape = [int(d) for d in m.group("shape").split("x")]
                tile = [int(d) for d in m.group("tile").split("x")] if m.group("tile") else None
                out.append(spec(shape, dt, tile=tile))
            check_argument(kernel.name, param, out[-1])
        except (ValueError, TypeError, KeyError) as exc:
            raise BuildError(f"--specialize {kernel.name}: parameter `{param.name}`: {exc}") from None
    return tuple(out)


class Builder:
    """Compiles what `find_kernels` found, writes the stage files and the manifest."""

    def __init__(self, path: Path, out: Path, arch: str, emit: list[str], *, quiet: bool) -> None:
        self.path = path
        self.out = out
        self.arch = arch
        self.emit = emit
        self.quiet = quiet
        self.entries: list[dict[str, Any]] = []
        self.status = 0
        self.source = str(path.resolve())
        self.previous = existing_manifest(out)  # refuses a manifest this package did not write
        self.claimed = claimed_files(self.previous, self.source)

    def run(self, found: list[Found]) -> int:
        """Build everything found, then merge the manifest (callers hold `OutputFolderLock(out)`)."""
        names = [f.kernel.name for f in found]
        for item in found:
            safe_stem(item.kernel.name)  # `__name__ = "../x"` never names a file outside -o
            if names.count(item.kernel.name) > 1:
                safe_stem(item.variable)
        self.refuse_conflicts(found, names)
        units = sum(1 if f.track == "simt" else max(1, len(f.specializations)) for f in found)
        progress = _Progress(units, enabled=not self.quiet and sys.stderr.isatty())
        for item in found:
            base = item.kernel.name if names.count(item.kernel.name) == 1 else f"{item.kernel.name}.{item.variable}"
            if item.track == "simt":
                progress.step(item.kernel.name)
                self.build_simt(item, base, progress)
                continue
            if not item.specializations:
                progress.clear()
                print(
                    f"safekernels build: tile kernel `{item.kernel.name}` has no specialization: declare one with "
                    f"tile.specialize({item.kernel.name}, ...) in the file or pass --specialize",
                    file=sys.stderr,
                )
                self.status = 1
                continue
            for i, args in enumerate(item.specializations):
                progress.step(item.kernel.name)
                stem = base if len(item.specializations) == 1 else f"{base}.{i}"
                self.build_tile(item, args, stem, progress)
        progress.clear()
        if not found and not self.quiet:
            print(f"safekernels build: no SIMT or tile kernels found in {self.path}", file=sys.stderr)
        self.write_manifest()
        return self.status

    def refuse_conflicts(self, found: list[Found], names: list[str]) -> None:
        """Refuse, before writing anything, a kernel whose files another source built into this folder."""
        if not self.claimed:
            return
        for item in found:
            base = item.kernel.name if names.count(item.kernel.name) == 1 else f"{item.kernel.name}.{item.variable}"
            for claimed, owner in self.claimed.items():
                if claimed.startswith(base + "."):
                    raise BuildOutputError(
                        f"-o {self.out}: kernel `{item.kernel.name}` would replace {claimed}, built there from "
                        f"{owner}; build into another folder (or rename the kernel)"
                    )

    def build_simt(self, item: Found, stem: str, progress: _Progress) -> None:
        from safekernels.codegen.pipeline import compile_simt_kernel

        kernel = item.kernel
        try:
            compiled = compile_simt_kernel(kernel, arch=self.arch, assume_requires=True)
        except DiagnosticError as exc:
            progress.clear()
            print(exc, file=sys.stderr)
            self.status = 1
            return
        files = self.write_stages(stem, compiled.entry_name, compiled.llvm_ir, compiled.ptx, compiled.cubin, progress)
        contract = kernel.contract
        self.entries.append(
            {
                "track": "simt",
                "name": kernel.name,
                "variable": item.variable,
                "entry": compiled.entry_name,
                "arch": self.arch,
                "files": files,
                "cubin_sha256": hashlib.sha256(compiled.cubin).hexdigest(),
                "params": [[p.name, p.kind, p.dtype.name] for p in kernel.params],
                "unchecked_indexing": bool(kernel.unchecked_indexing),
                "contract": None
                if contract is None
                else {
                    "domain": contract.domain,
                    "block": list(contract.block) if contract.block is not None else None,
                    "dynamic_shared": list(contract.dynamic_shared)
                    if isinstance(contract.dynamic_shared, tuple)
                    else contract.dynamic_shared,
                    "min_compute_capability": list(contract.min_compute_capability)
                    if contract.min_compute_capability
                    else None,
                    "requires": list(contract.requires),
                },
                "meta": compiled.meta,
            }
        )

    def build_tile(self, item: Found, args: tuple[Any, ...], stem: str, progress: _Progress) -> None:
        from safekernels.codegen.tile.pipeline import compile_tile
        from safekernels.codegen.tile.specialize import specialize

        kernel = item.kernel
        values = [_SpecValue(a) if p.kind != "scalar" else a for p, a in zip(kernel.params, args, strict=True)]
        infos, grid_rank = specialize(kernel, values)
        arch = "sm_90a" if self.arch == "sm_90" else self.arch  # what the launcher asks for on a 9.0 device
        try:
            compiled = compile_tile(
                kernel.fn,
                infos,
                grid_rank,
                arch=arch,
                num_warps=getattr(kernel, "num_warps", None),
                fast_math=bool(getattr(kernel, "fast_math", False)),
            )
        except DiagnosticError as exc:
            progress.clear()
            print(exc, file=sys.stderr)
            self.status = 1
            return
        files = self.write_stages(stem, compiled.name, compiled.llvm_ir, compiled.ptx, compiled.cubin, progress)
        self.entries.append(
            {
                "track": "tile",
                "name": kernel.name,
                "variable": item.variable,
                "entry": compiled.name,
                "arch": compiled.arch,
                "launch_arch": arch,
                "files": files,
                "cubin_sha256": hashlib.sha256(compiled.cubin).hexdigest(),
                "params": [
                    [p.name, p.kind, _specialized_dtype(p, a, info)]
                    for p, a, info in zip(kernel.params, args, infos, strict=True)
                ],
                "specialization": [
                    [i.name, i.kind, i.dtype.name, i.rank, list(i.tile_shape) if i.tile_shape else None, i.aligned]
                    for i in infos
                ],
                "grid_rank": grid_rank,
                "num_warps": getattr(kernel, "num_warps", None),
                "fast_math": bool(getattr(kernel, "fast_math", False)),
                "threads": compiled.threads,
                "smem": compiled.smem_bytes,
                "abi": [list(a) for a in compiled.abi],
                "persistent": compiled.persistent,
            }
        )

    def write_stages(
        self, stem: str, entry: str, llvm_ir: str, ptx: str, cubin: bytes, progress: _Progress
    ) -> dict[str, str]:
        files: dict[str, str] = {}
        for stage in dict.fromkeys(self.emit):
            target = self.out / f"{stem}.{_SUFFIX[stage]}"
            if target.resolve().parent != self.out.resolve():
                raise BuildOutputError(f"{target}: would be written outside {self.out}")
            if stage == "llvm":
                write_atomic(target, llvm_ir.encode())
            elif stage == "ptx":
                write_atomic(target, ptx.encode())
            elif stage == "cubin":
                write_atomic(target, cubin)
            else:
                from safekernels.codegen.sass_summary import format_summary, summarize

                target_arch = re.search(r"^\.target\s+(sm_\w+)", ptx, re.MULTILINE)  # sm_90a for wgmma kernels
                arch = target_arch.group(1) if target_arch else self.arch
                text = format_summary(summarize(stem, entry, arch, ptx, cubin))
                write_atomic(target, text.encode())
                if not self.quiet:
                    progress.clear()
                    print(text, end="")
            files[stage] = target.name
            if not self.quiet:
                progress.clear()
                print(f"wrote {target}")
        return files

    def write_manifest(self) -> None:
        from safekernels.codegen.pipeline import tool_versions

        header = {"version": MANIFEST_VERSION, "source": str(self.path), "arch": self.arch, "tools": tool_versions()}
        manifest = merge_manifest(self.previous, self.source, header, self.entries)
        target = self.out / MANIFEST
        write_atomic(target, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode())
        if not self.quiet:
            print(f"wrote {target}")


class _SpecValue:
    """A `TensorSpec` as `codegen.tile.specialize` reads launch values (shape, dtype, tile_shape)."""

    def __init__(self, spec: Any) -> None:
        self.shape = tuple(spec.shape)
        self.dtype = spec.dtype
        self.tile_shape = spec.tile_shape
        self.buffer = None


class _Progress:
    """`[i/n] name` on one rewritten stderr line; only drawn on a terminal, for builds of several kernels."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled and total > 1
        self.index = 0
        self.drawn = False

    def step(self, name: str) -> None:
        self.index += 1
        if self.enabled:
            sys.stderr.write(f"\r\033[K[{self.index}/{self.total}] compiling {name}")
            sys.stderr.flush()
            self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.drawn = False
