"""`safekernels build FILE --emit llvm|ptx|cubin -o DIR` (SPEC §6): one file per SIMT kernel per stage.

The ownership checker runs on FILE first, in a subprocess (codegen must not import the checker), and nothing
is emitted for a file with errors unless `--no-check` is given.  FILE is then imported (kernels are found by
type, whatever they are named) and each SIMT kernel is compiled; SK diagnostics print as
`path:line:col: CODE message` and make the exit status 1.
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
    parser.add_argument("--emit", choices=("llvm", "ptx", "cubin"), action="append", required=True)
    parser.add_argument("-o", "--out-dir", required=True)
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args(argv)
    path = Path(args.file)
    if not args.no_check:
        status = subprocess.run([sys.executable, "-m", "ownership_check", str(path)]).returncode
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
    for kernel in _simt_kernels(module):
        try:
            compiled = compile_simt_kernel(kernel, arch=args.arch)
        except DiagnosticError as exc:
            print(exc, file=sys.stderr)
            status = 1
            continue
        for stage in args.emit:
            if stage == "llvm":
                (out / f"{kernel.name}.ll").write_text(compiled.llvm_ir)
            elif stage == "ptx":
                (out / f"{kernel.name}.ptx").write_text(compiled.ptx)
            else:
                (out / f"{kernel.name}.cubin").write_bytes(compiled.cubin)
            print(f"wrote {out / kernel.name}.{ {'llvm': 'll'}.get(stage, stage) }")
    return status
