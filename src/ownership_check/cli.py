"""`ownership-check` (also `python -m ownership_check` and `safekernels check`): the command-line front end.

Exit status: 0 clean, 1 diagnostics reported, 2 usage, configuration or internal error (an unknown code in
`--select`/`--ignore` is a usage error: a typo must not turn a CI gate off).  The flags follow ruff's where the two
tools overlap (`--output-format`, `--statistics`, `--color`, `-` with `--stdin-filename`), so editor and CI
integrations written for ruff carry over.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TextIO

from ownership_check.api import check_paths
from ownership_check.config import Config, ConfigError, load_config, unknown_code_message, unknown_codes
from ownership_check.diagnostics import Diagnostic
from ownership_check.runner import AUTO_JOBS
from safekernels.cli_output import is_output_error, run_cli

FORMAT_CHOICES = ("text", "concise", "json", "sarif", "github", "gitlab", "junit")
COLOR_CHOICES = ("auto", "always", "never")
#: A run that takes longer than this shows a progress line on a terminal (stderr).
PROGRESS_AFTER_S = 2.0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _codes(value: str) -> list[str]:
    return [c.strip().upper() for c in value.split(",") if c.strip()]


def _jobs(value: str) -> int | str:
    """`--jobs N` or `--jobs auto` (checked for N >= 1 after parsing, with its own message)."""
    if value == "auto":
        return value
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid value {value!r}: a number of processes, or auto") from None


def build_parser(prog: str = "ownership-check") -> argparse.ArgumentParser:
    parser = _Parser(
        prog=prog,
        description="Static ownership and aliasing checker for safekernels code (E0382, E0499, E0502, "
        "E0505, E0133, E0308).",
    )
    parser.add_argument("paths", nargs="*", metavar="PATHS", help="files or directories (default: .)")
    parser.add_argument(
        "--format",
        "--output-format",
        dest="format",
        choices=FORMAT_CHOICES,
        default="text",
        help="output format (default: text)",
    )
    parser.add_argument(
        "--select",
        type=_codes,
        action="extend",
        default=[],
        metavar="CODES",
        help="only report these codes (comma-separated; prefixes allowed)",
    )
    parser.add_argument(
        "--ignore",
        type=_codes,
        action="extend",
        default=[],
        metavar="CODES",
        help="never report these codes (comma-separated; prefixes allowed)",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default="auto",
        metavar="N",
        help="worker processes, or auto (default: auto, one per CPU when there are enough files to analyse)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write .ownership_check_cache/"
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when diagnostics are reported")
    parser.add_argument(
        "--statistics", action="store_true", help="print the number of diagnostics per code instead of each one"
    )
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colour the text format: auto (default: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it)",
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="with the path `-`: the name of the file whose source is read from stdin (for messages and config)",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--fix", action="store_true", help="apply the verified fixes, then report what is left")
    parser.add_argument("--diff", action="store_true", help="print the verified fixes as a unified diff; write nothing")
    parser.add_argument(
        "--unsafe-fixes", action="store_true", help="with --fix/--diff: also wrap operations in `with simt.unsafe():`"
    )
    return parser


def _write(stream: TextIO, text: str) -> None:
    """Write `text`; characters the stream cannot encode (a file name with undecodable bytes) are escaped."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))
    stream.flush()


def main(argv: Sequence[str] | None = None, prog: str = "ownership-check") -> int:
    """Run the CLI; whatever goes wrong inside is exit status 2 with a message, never a bare traceback's 1.

    An output that cannot be written (a closed pipe, a full disk, a closed stdout) is `run_cli`'s: quiet 141
    for a broken pipe, one line and status 2 otherwise, never an "internal error"."""
    return run_cli(lambda: _main_reporting_internal_errors(argv, prog), prog)


def _main_reporting_internal_errors(argv: Sequence[str] | None, prog: str) -> int:
    try:
        return _main(argv, prog)
    except KeyboardInterrupt:
        return 2
    except OSError as exc:
        if is_output_error(exc):
            raise
        _write(sys.stderr, f"{prog}: internal error (please report it):\n{traceback.format_exc()}")
        return 2
    except Exception:
        _write(sys.stderr, f"{prog}: internal error (please report it):\n{traceback.format_exc()}")
        return 2


def _libcst_available() -> bool:
    """Whether libcst can be found, without importing it (the cheap scan rules most files out before it is needed)."""
    try:
        return importlib.util.find_spec("libcst") is not None
    except (ImportError, ValueError):
        return False


def _use_color(choice: str, stream: TextIO) -> bool:
    """`--color`: always/never win; auto is off under NO_COLOR, on under FORCE_COLOR, else on a terminal."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("safekernels")
    except PackageNotFoundError:  # a checkout on sys.path without an install
        return "unknown (not installed)"


@contextmanager
def _progress(stream: TextIO, what: str) -> Iterator[None]:
    """A `checking …` line on a terminal, shown only once a run has taken `PROGRESS_AFTER_S`, erased at the end."""
    if not stream.isatty():
        yield
        return
    done = threading.Event()
    shown = threading.Event()
    start = time.monotonic()

    def tick() -> None:
        if done.wait(PROGRESS_AFTER_S):
            return
        while not done.is_set():
            shown.set()
            stream.write(f"\r\x1b[2Kchecking {what}… {time.monotonic() - start:.0f}s")
            stream.flush()
            done.wait(0.5)

    thread = threading.Thread(target=tick, name="ownership-check-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if shown.is_set():
            stream.write("\r\x1b[2K")
            stream.flush()


def _statistics(diagnostics: Sequence[Diagnostic], fmt: str) -> str:
    """ruff's `--statistics`: one line per code, most frequent first (`json`: a list of objects)."""
    from ownership_check.render.catalog import code_info

    counts = Counter(d.code for d in diagnostics)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if fmt == "json":
        from ownership_check.render.json_format import dumps_utf8

        return dumps_utf8([{"code": c, "name": code_info(c).name, "count": n} for c, n in rows])
    width = max((len(str(n)) for _, n in rows), default=1)
    return "".join(f"{n:>{width}}\t{c}\t{code_info(c).name}\n" for c, n in rows)


def _check_stdin(filename: str, config: Config) -> tuple[list[Diagnostic], dict[str, str]]:
    """The source on stdin, checked as one file named `filename` (as its own project: editors send one buffer)."""
    from ownership_check.api import check_source

    data = sys.stdin.buffer.read()
    source = data.decode("utf-8", "surrogateescape")
    diagnostics = [d for d in check_source(source, filename) if config.enabled_in(filename, d.code)]
    return diagnostics, {filename: source}


def _main(argv: Sequence[str] | None, prog: str) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    if raw[:1] == ["server"]:  # `ownership-check server`: the language server (a folder named server: ./server)
        from ownership_check.server import main as server_main

        return server_main(raw[1:], prog=f"{prog} server")
    parser = build_parser(prog)
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    if args.version:
        print(f"{prog} {_version()}")
        return 0
    if args.jobs != "auto" and args.jobs < 1:
        print(f"{prog}: error: --jobs must be at least 1", file=sys.stderr)
        return 2
    jobs = AUTO_JOBS if args.jobs == "auto" else args.jobs
    for flag, codes in (("--select", args.select), ("--ignore", args.ignore)):
        for code in unknown_codes(codes):
            print(f"{prog}: error: {unknown_code_message(code, flag)}", file=sys.stderr)
            return 2
    stdin = "-" in args.paths
    if stdin and args.paths != ["-"]:
        print(f"{prog}: error: `-` (read stdin) cannot be combined with other paths", file=sys.stderr)
        return 2
    if args.stdin_filename is not None and not stdin:
        print(f"{prog}: error: --stdin-filename needs the path `-`", file=sys.stderr)
        return 2
    if not _libcst_available():
        # a broken environment (libcst is a dependency): one clear line, not one traceback per file
        print(f"{prog}: error: libcst is not installed in {sys.prefix} (pip install libcst)", file=sys.stderr)
        return 2
    paths: list[str] = args.paths or ["."]
    stdin_name = args.stdin_filename or "-"
    missing = [] if stdin else [p for p in paths if not os.path.exists(p)]
    if missing:
        for p in missing:
            print(f"{prog}: error: {p}: no such file or directory", file=sys.stderr)
        return 2
    try:
        config = load_config(stdin_name if stdin and args.stdin_filename else "." if stdin else paths[0])
    except ConfigError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.select:
        config = replace(config, select=tuple(args.select))
    if args.ignore:
        config = replace(config, ignore=(*config.ignore, *args.ignore))
    errors: list[str] = []
    internal_errors: list[str] = []
    try:
        if stdin:
            diagnostics, sources = _check_stdin(stdin_name, config)
            files_checked = 1
        else:
            with _progress(sys.stderr, " ".join(paths)):
                result = check_paths(
                    paths,
                    config=config,
                    jobs=jobs,
                    use_cache=not args.no_cache,
                    cache_dir=os.path.join(os.getcwd(), ".ownership_check_cache"),
                )
            diagnostics, sources, files_checked = result.diagnostics, result.sources, result.files_checked
            errors, internal_errors = result.errors, result.internal_errors
    except KeyboardInterrupt:
        return 2
    if (args.fix or args.diff) and not (errors or internal_errors):
        if stdin:
            print(f"{prog}: error: --fix and --diff need files, not stdin", file=sys.stderr)
            return 2
        from ownership_check.fixes.command import fix_files

        fixed = fix_files(
            diagnostics,
            sources,
            write=args.fix and not args.diff,
            unsafe=args.unsafe_fixes,
            wanted=lambda d: config.enabled_in(d.path, d.code),
        )
        for error in fixed.errors:
            _write(sys.stderr, f"{prog}: error: {error}\n")
        if args.diff:
            _write(sys.stdout, fixed.diff)
            _write(sys.stderr, f"{fixed.count} fix(es) would be applied\n")
            return 2 if fixed.errors else (1 if fixed.count else 0)
        if fixed.count:
            _write(sys.stderr, f"Fixed {fixed.count} diagnostic(s) in {len(fixed.applied)} file(s)\n")
            result = check_paths(paths, config=config, jobs=jobs, use_cache=False)
            diagnostics, sources, files_checked = result.diagnostics, result.sources, result.files_checked
            errors, internal_errors = result.errors, result.internal_errors
    from ownership_check.render import render

    if args.statistics:
        out = _statistics(diagnostics, args.format)
    else:
        out = render(
            diagnostics,
            args.format,
            sources=sources,
            files_checked=files_checked,
            color=args.format == "text" and _use_color(args.color, sys.stdout),
        )
    failed = len(errors) + len(internal_errors)
    if failed and args.format == "text" and not diagnostics:
        out = f"{failed} path(s) could not be checked (see the errors above)\n"  # never "No problems found"
    for error in errors:
        _write(sys.stderr, f"{prog}: error: {error}\n")
    for error in internal_errors:
        _write(sys.stderr, f"{prog}: internal error: {error}\n")
    if out:
        _write(sys.stdout, out)
    if failed:
        return 2
    if diagnostics and not args.exit_zero:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
