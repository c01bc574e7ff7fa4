"""A deterministic corpus of hostile inputs for the checker: depth, size, encodings, line endings, file types.

Every source case is a `HostileFile` with the verdict the checker must give: the codes it must report on it
(a located W0002 "file too complex to analyse", an E0001, or the real ownership diagnostic that a BOM or CR-only
line endings must not hide), or none.  `build_tree` lays the corpus out in one folder together with the
file-system cases (a FIFO named `*.py`, symlinks to `/dev/zero`, out of the tree, dangling and to itself, a
directory named `dir.py`, file names with a newline, undecodable bytes or a terminal escape), so one run meets all
of them at once, as a linter on an untrusted pull request would.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: A kernel and a launch with E0502 on line 17 (the second `c`, column 36).
KERNEL = """\
import safekernels as sk
from safekernels import simt
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.dtypes import f32


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main(p: object, stream: object, b: object, c: object) -> None:
    vecadd.launch(p, stream, c, b, c)
"""
BAD_LINE, BAD_COLUMN = 17, 36

#: The same kernel, no bug; `{body}` goes inside `use(x, p, stream, a, b, c)` before a clean launch.
RELEVANT = """\
from safekernels import simt
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.dtypes import f32


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])


def use(x: object, p: object, stream: object, a: object, b: object, c: object) -> object:
    y = {expr}
    vecadd.launch(p, stream, a, b, c)
    return y
"""
EXPR_LINE = 16


@dataclass(frozen=True)
class HostileFile:
    name: str
    data: bytes
    codes: tuple[str, ...]  # codes the checker must report on this file (any line), in sorted order
    line: int | None = None  # where the first of them must be, when it matters


def _relevant(expr: str) -> bytes:
    return RELEVANT.format(expr=expr).encode()


def _nested(name: str, make: Callable[[int], str], depth: int, codes: tuple[str, ...]) -> HostileFile:
    return HostileFile(f"{name}_{depth}.py", _relevant(make(depth)), codes)


def source_cases() -> list[HostileFile]:
    too_complex = ("W0002",)
    cases = [
        # Depth: every kind of nesting, below the guard (must analyse cleanly), above it, and past Python's own
        # parser limit (must still be a located W0002, never a RecursionError/MemoryError traceback).
        *(
            _nested(kind, make, depth, () if depth <= 300 else too_complex)
            for kind, make in (
                ("not", lambda n: "not " * n + "x"),
                ("neg", lambda n: "-" * n + "x"),
                ("plus", lambda n: " + ".join(["x"] * n)),
                ("cond", lambda n: "x if x else " * n + "x"),
                ("subscript", lambda n: "x" + "[0]" * n),
                ("call", lambda n: "x" + "()" * n),
                ("attr", lambda n: "x" + ".a" * n),
                ("lambda", lambda n: "lambda: " * n + "x"),
                ("power", lambda n: " ** ".join(["x"] * n)),
            )
            for depth in (300, 1000, 5000)
        ),
        # `and`/`or` chains are flat in `ast` but nested in libcst (10,000 terms segfaulted libcst).
        *(
            HostileFile(f"{op}_chain_{n}.py", _relevant("(" + f"\n    {op} ".join(["x"] * n) + ")"),
                        () if n <= 300 else too_complex, EXPR_LINE)
            for op in ("and", "or")
            for n in (300, 3000, 10_000)
        ),
        HostileFile("and_chain_one_line.py", _relevant(" and ".join(["x"] * 10_000)), too_complex, EXPR_LINE),
        # Size: a long line, a big file; a 1 MB line must not cost 30 s and 1.5 GB.
        HostileFile("long_line.py", _relevant("[" + ", ".join(["1"] * 100_000) + "]"), too_complex, EXPR_LINE),
        HostileFile("big_file.py", _relevant("[\n" + "    1,\n" * 120_000 + "]"), too_complex, 1),
        # Encodings and line endings: the real diagnostic, at the right place.
        HostileFile("bom.py", b"\xef\xbb\xbf" + KERNEL.encode(), ("E0502",), BAD_LINE),
        HostileFile("cr_only.py", KERNEL.replace("\n", "\r").encode(), ("E0502",), BAD_LINE),
        HostileFile("crlf.py", KERNEL.replace("\n", "\r\n").encode(), ("E0502",), BAD_LINE),
        HostileFile("form_feed.py", ("\f\n" + KERNEL).encode(), ("E0502",), BAD_LINE + 1),
        HostileFile("latin1_cookie.py", ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + KERNEL).encode("latin-1"),
                    ("E0502",), BAD_LINE + 2),
        HostileFile("invalid_utf8.py", KERNEL.encode() + b'x = "\xff\xfe"\n', ("E0001",), BAD_LINE + 1),
        HostileFile("unknown_cookie.py", ("# coding: no-such-codec\n" + KERNEL).encode(), ("E0001",), 1),
        HostileFile("null_byte.py", KERNEL.encode() + b"x = 1\x00\n", ("E0001",)),
        HostileFile("utf16.py", KERNEL.encode("utf-16"), ()),  # no "safekernels" bytes: not a candidate
        HostileFile("lone_surrogate_text.py", KERNEL.encode() + b'x = "\xed\xa0\x80"\n', ("E0001",)),
        HostileFile("empty.py", b"", ()),
        HostileFile("only_marker.py", b"# safekernels\n", ()),
        HostileFile("binary.py", b"safekernels" + bytes(range(256)) * 64, ("E0001",)),
        # Syntax Python rejects, in a relevant file: E0001, located.
        HostileFile("unclosed.py", KERNEL.encode() + b"x = (\n", ("E0001",)),
        HostileFile("deep_parens.py", KERNEL.encode() + b"x = " + b"(" * 250 + b"1" + b")" * 250 + b"\n",
                    ("E0001",)),
        HostileFile("indent_100.py", KERNEL.encode() + "".join(" " * i + "if x:\n" for i in range(101)).encode()
                    + b" " * 101 + b"pass\n", ("E0001",)),
    ]
    return cases


def build_tree(root: Path, outside: Path) -> list[HostileFile]:
    """Write the corpus and the file-system cases under `root`; `outside` receives a file symlinked from it."""
    root.mkdir(parents=True, exist_ok=True)
    cases = source_cases()
    for case in cases:
        (root / case.name).write_bytes(case.data)
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.py").write_text(KERNEL)  # must not be followed: it would be reported if read
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "fifo.py")
    (root / "zero.py").symlink_to("/dev/zero")
    (root / "outside.py").symlink_to(outside / "secret.py")
    (root / "dangling.py").symlink_to(root / "no-such-file.py")
    (root / "loop.py").symlink_to(root / "loop.py")
    (root / "dir.py").mkdir()
    for odd in ("new\nline.py", os.fsdecode(b"undecodable-\xff.py"), "caf\u00e9 \u2028 \x1b[31m.py"):
        (root / odd).write_bytes(KERNEL.encode())
        cases.append(HostileFile(odd, KERNEL.encode(), ("E0502",), BAD_LINE))
    return cases
