"""The `safekernels` command: `check`, `build`, `run`, `demo`, `new`, `explain`, `doctor`.

Each subcommand is a thin adapter over a library entry point (the checker's CLI, codegen's build, the
examples), so the command line never holds logic the Python API lacks.  Heavy packages (libcst, llvmlite) are
imported only by the subcommand that needs them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

#: The examples `safekernels demo` runs: a wheel bundles them (setup.py), a source checkout has them beside src/.
_BUNDLED_EXAMPLES = Path(__file__).resolve().parent / "_bundled" / "examples"
_CHECKOUT_EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _examples_dir() -> Path:
    return _BUNDLED_EXAMPLES if _BUNDLED_EXAMPLES.is_dir() else _CHECKOUT_EXAMPLES


def _cmd_check(argv: Sequence[str]) -> int:
    from ownership_check.cli import main as check_main

    return check_main(list(argv), prog="safekernels check")


def _cmd_build(argv: Sequence[str]) -> int:
    from safekernels.codegen.build_cli import main as build_main

    return build_main(list(argv))


def _cmd_run(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="safekernels run",
        description="Check a file (or the file of a module, with -m), then run it with this Python; "
        "the arguments after FILE or MODULE are the script's.",
    )
    parser.add_argument("file", nargs="?", help="the script to check and run")
    parser.add_argument("-m", dest="module", metavar="MODULE", help="check and run a module, as `python -m`")
    parser.add_argument("--no-check", action="store_true", help="skip the ownership checker")
    parser.add_argument("--device", choices=("cpu", "gpu"), help="force the executor (SAFEKERNELS_DEVICE)")
    # Everything after FILE or `-m MODULE` belongs to the script (as with `python`), even `--device`.
    argv = list(argv)
    split = len(argv)
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "-m":
            split = i + 2
            break
        if not token.startswith("-"):
            split = i + 1
            break
        i += 2 if token == "--device" else 1
    args = parser.parse_args(argv[:split])
    rest = argv[split:]
    if (args.file is None) == (args.module is None):
        parser.error("give either FILE or -m MODULE")
    if args.module is not None:
        path = _module_file(args.module)
        if path is None:
            print(f"safekernels run: no module named {args.module!r} (from {os.getcwd()})", file=sys.stderr)
            return 2
        command = [sys.executable, "-m", args.module, *rest]
    else:
        path = args.file
        if not os.path.isfile(path):
            what = "is not a file" if os.path.exists(path) else "no such file"
            print(f"safekernels run: {path}: {what}", file=sys.stderr)
            return 2
        command = [sys.executable, "--", path, *rest]  # `--`: a script named `-x.py` is not an option
    if not args.no_check:
        status = _cmd_check(["--no-cache", "--", path])
        if status == 1:
            print(f"safekernels run: {path} has ownership errors; not running it", file=sys.stderr)
            return 1
        if status != 0:  # the checker named the cause (a bad configuration, an unreadable file) above
            print(f"safekernels run: {path} could not be checked (see above); not running it", file=sys.stderr)
            return status
    env = dict(os.environ)
    if args.device:
        env["SAFEKERNELS_DEVICE"] = args.device
    return subprocess.call(command, env=env)


def _module_file(module: str) -> str | None:
    """The source file `python -m module` would run from the working directory, found without importing it."""
    from importlib.machinery import PathFinder

    search: list[str] | None = [os.getcwd(), *sys.path[1:]]
    spec = None
    for part in module.split("."):
        spec = PathFinder.find_spec(part, search)
        if spec is None:
            return None
        search = list(spec.submodule_search_locations or [])
    if spec is None:
        return None
    if spec.submodule_search_locations:  # a package: `python -m pkg` runs pkg/__main__.py
        main = os.path.join(spec.submodule_search_locations[0], "__main__.py")
        return main if os.path.isfile(main) else None
    origin = spec.origin
    return origin if origin and origin.endswith(".py") and os.path.isfile(origin) else None


def _cmd_demo(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="safekernels demo", description="Run the ownership checker over the examples, then run each example."
    )
    parser.add_argument(
        "--examples", default=None, help="folder of example scripts (default: the examples shipped with safekernels)"
    )
    args = parser.parse_args(argv)
    folder = Path(args.examples) if args.examples else _examples_dir()
    scripts = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    if not scripts:
        print(
            f"safekernels demo: no examples found in {folder}; nothing ran.\n"
            "The wheel ships them; in a source checkout they are in examples/ (pass --examples DIR).",
            file=sys.stderr,
        )
        return 2
    from safekernels.runtime.device import Device

    device = Device.default()
    where = "the CPU executor" if device.is_cpu else f"GPU {device.name} ({device.arch})"
    print(f"== ownership-check {folder}")
    check_status = _cmd_check(["--no-cache", "--", *(str(script) for script in scripts)])
    print(f"== running {len(scripts)} examples on {where}")
    failures = []
    for script in scripts:
        start = time.perf_counter()
        # errors="replace": an example that prints bytes that are not UTF-8 is reported, never a crash of demo
        proc = subprocess.run(
            [sys.executable, "--", str(script)], capture_output=True, text=True, encoding="utf-8", errors="replace"
        )
        elapsed = time.perf_counter() - start
        output = (proc.stdout + proc.stderr).strip()
        ok = proc.returncode == 0 and "PASSED" in proc.stdout
        print(f"-- {script.name} ({elapsed:.1f}s): {'ok' if ok else 'FAILED'}")
        for line in output.splitlines():
            print(f"   {line}")
        if not ok:
            failures.append(script.name)
    if failures:
        print(f"== {len(failures)} example(s) failed: {', '.join(failures)}")
        return 1
    print(f"== all {len(scripts)} examples PASSED" + ("" if check_status == 0 else " (checker reported issues)"))
    return 0 if check_status in (0, 1) else check_status


def _cmd_explain(argv: Sequence[str]) -> int:
    from safekernels.explain import main as explain_main

    return explain_main(list(argv))


def _cmd_doctor(argv: Sequence[str]) -> int:
    from safekernels.doctor import main as doctor_main

    return doctor_main(list(argv))


def _cmd_lsp(argv: Sequence[str]) -> int:
    from ownership_check.server import main as server_main

    return server_main(list(argv), prog="safekernels lsp")


def _cmd_new(argv: Sequence[str]) -> int:
    from safekernels.scaffold import main as new_main

    return new_main(list(argv))


_COMMANDS = {
    "check": (_cmd_check, "run the ownership checker (same flags as `ownership-check`)"),
    "build": (_cmd_build, "compile kernels: --emit llvm|ptx|cubin|sass-summary -o DIR"),
    "run": (_cmd_run, "check a file, then run it"),
    "demo": (_cmd_demo, "check and run the examples shipped with safekernels"),
    "new": (_cmd_new, "create a new project: NAME [--track simt|tile]"),
    "doctor": (_cmd_doctor, "check the installation: toolchain, driver, GPUs, a compile-and-run smoke test"),
    "lsp": (_cmd_lsp, "run the ownership checker as a language server on stdio (editors: docs/editors.md)"),
    "explain": (_cmd_explain, "print the long explanation of a diagnostic code (E0502, SK001, ...)"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; an output that cannot be written is handled once, here (`safekernels.cli_output`)."""
    from safekernels.cli_output import run_cli

    return run_cli(lambda: _main(argv), "safekernels")


def _main(argv: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print("usage: safekernels COMMAND [ARGS]\n\ncommands:")
        for name, (_, text) in _COMMANDS.items():
            print(f"  {name:<8} {text}")
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        from safekernels import __version__

        print(f"safekernels {__version__}")
        return 0
    command = _COMMANDS.get(args[0])
    if command is None:
        print(f"safekernels: unknown command {args[0]!r} (try --help)", file=sys.stderr)
        return 2
    return command[0](args[1:])
