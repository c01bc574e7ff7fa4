"""`safekernels build FILE --emit llvm|ptx|cubin|sass-summary -o DIR` (SPEC §6): a file per kernel per stage.

The ownership checker runs on FILE first, in a subprocess (codegen must not import the checker), and nothing
is emitted for a file with errors unless `--no-check` is given.  FILE is then imported (kernels are found by
type, whatever they are named) and each SIMT kernel is compiled; SK diagnostics print as
`path:line:col: CODE message` and make the exit status 1.

`--emit sass-summary` writes `<kernel>.sass-summary.txt` (registers, spills, shared memory, instruction mix;
see `codegen.sass_summary`) and prints it.  While kernels compile, a `[i/n] name` progress line is drawn on
stderr when stderr is a terminal; `--quiet` prints nothing but errors.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

from ownership_check.diagnostics import DiagnosticError


def _simt_kernels(module: Any) -> list[Any]:
    found = []
    for value in vars(module).values():
        if hasattr(value, "py_function") and hasattr(value, "contract") and hasattr(value, "params"):
            if type(value).__name__ == "SimtKernel":
                found.append(value)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="safekernels build", description="Compile SIMT kernels of a file.")
    parser.add_argument("file")
    parser.add_argument("--emit", choices=("llvm", "ptx", "cubin", "sass-summary"), action="append", required=True)
    parser.add_argument("-o", "--out-dir", required=True)
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--no-check", action="store_true")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    args = parser.parse_args(argv)
    path = Path(args.file)
    if not args.no_check:
        check_cmd = [sys.executable, "-m", "ownership_check", str(path)]
        status = subprocess.run(check_cmd, stdout=subprocess.DEVNULL if args.quiet else None).returncode
        if status != 0:
            print(
                f"safekernels build: {path}: the ownership checker reported errors; nothing emitted",
                file=sys.stderr,
            )
            return 1
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        print(f"safekernels build: cannot import {path}", file=sys.stderr)
        return 2
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    from codegen import compile_simt_kernel

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    kernels = _simt_kernels(module)
    progress = _Progress(len(kernels), enabled=not args.quiet and sys.stderr.isatty())
    for kernel in kernels:
        progress.step(kernel.name)
        try:
            compiled = compile_simt_kernel(kernel, arch=args.arch)
        except DiagnosticError as exc:
            progress.clear()
            print(exc, file=sys.stderr)
            status = 1
            continue
        for stage in args.emit:
            target = out / f"{kernel.name}.{_SUFFIX[stage]}"
            if stage == "llvm":
                target.write_text(compiled.llvm_ir)
            elif stage == "ptx":
                target.write_text(compiled.ptx)
            elif stage == "cubin":
                target.write_bytes(compiled.cubin)
            else:
                from codegen.sass_summary import format_summary, summarize

                text = format_summary(
                    summarize(kernel.name, compiled.entry_name, args.arch, compiled.ptx, compiled.cubin)
                )
                target.write_text(text)
                if not args.quiet:
                    progress.clear()
                    print(text, end="")
            if not args.quiet:
                progress.clear()
                print(f"wrote {target}")
    progress.clear()
    if not kernels and not args.quiet:
        print(f"safekernels build: no SIMT kernels found in {path}", file=sys.stderr)
    return status


_SUFFIX = {"llvm": "ll", "ptx": "ptx", "cubin": "cubin", "sass-summary": "sass-summary.txt"}


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
