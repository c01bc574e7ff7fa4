"""`ownership-check` (also `python -m ownership_check` and `safekernels check`): the command-line front end.

Exit status: 0 clean, 1 diagnostics reported, 2 usage, configuration or internal error.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import traceback
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from ownership_check.api import check_paths
from ownership_check.config import ConfigError, load_config

FORMAT_CHOICES = ("text", "concise", "json", "sarif", "github")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _codes(value: str) -> list[str]:
    return [c.strip().upper() for c in value.split(",") if c.strip()]


def build_parser(prog: str = "ownership-check") -> argparse.ArgumentParser:
    parser = _Parser(
        prog=prog,
        description="Static ownership and aliasing checker for safekernels code (E0382, E0499, E0502, "
        "E0505, E0133, E0308).",
    )
    parser.add_argument("paths", nargs="*", metavar="PATHS", help="files or directories (default: .)")
    parser.add_argument(
        "--format", choices=FORMAT_CHOICES, default="text", help="output format (default: text)"
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
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default: 1)")
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write .ownership_check_cache/"
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when diagnostics are reported")
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
    """Run the CLI; whatever goes wrong inside is exit status 2 with a message, never a bare traceback's 1."""
    try:
        return _main(argv, prog)
    except KeyboardInterrupt:
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


def _main(argv: Sequence[str] | None, prog: str) -> int:
    parser = build_parser(prog)
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    if args.jobs < 1:
        print(f"{prog}: error: --jobs must be at least 1", file=sys.stderr)
        return 2
    if not _libcst_available():
        # a broken environment (libcst is a dependency): one clear line, not one traceback per file
        print(f"{prog}: error: libcst is not installed in {sys.prefix} (pip install libcst)", file=sys.stderr)
        return 2
    paths: list[str] = args.paths or ["."]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        for p in missing:
            print(f"{prog}: error: {p}: no such file or directory", file=sys.stderr)
        return 2
    try:
        config = load_config(paths[0])
    except ConfigError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.select:
        config = replace(config, select=tuple(args.select))
    if args.ignore:
        config = replace(config, ignore=(*config.ignore, *args.ignore))
    try:
        result = check_paths(
            paths,
            config=config,
            jobs=args.jobs,
            use_cache=not args.no_cache,
            cache_dir=os.path.join(os.getcwd(), ".ownership_check_cache"),
        )
    except KeyboardInterrupt:
        return 2
    from ownership_check.render import render

    color = args.format == "text" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out = render(
        result.diagnostics,
        args.format,
        sources=result.sources,
        files_checked=result.files_checked,
        color=color,
    )
    failed = len(result.errors) + len(result.internal_errors)
    if failed and args.format == "text" and not result.diagnostics:
        out = f"{failed} path(s) could not be checked (see the errors above)\n"  # never "No problems found"
    for error in result.errors:
        _write(sys.stderr, f"{prog}: error: {error}\n")
    for error in result.internal_errors:
        _write(sys.stderr, f"{prog}: internal error: {error}\n")
    if out:
        _write(sys.stdout, out)
    if failed:
        return 2
    if result.diagnostics and not args.exit_zero:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
