"""Reading a file to check: bytes from regular files only, text exactly as Python would see it.

A checker that runs over untrusted trees must not be stopped by what lies in them: a FIFO named `x.py` would
block `open().read()` forever, a symlink to `/dev/zero` would grow without bound, a 2 GB file would exhaust
memory.  `read_source` opens without blocking, insists on a regular file and reads at most `MAX_READ_BYTES`
(a larger file is reported by the runner, never read whole).

`decode_source` turns bytes into the text every later stage sees, following Python's own rules so that lines
and columns match what Python (and the user's editor) report: a UTF-8 BOM or a `# -*- coding: ... -*-` cookie
selects the encoding (PEP 263), bytes that do not decode are the same syntax error Python gives (E0001, at the
offending line), a cookie naming a codec Python cannot read source in (`rot13`, `hex`, `base64`, `zlib`, `uu`,
`bz2`, `quopri`, `utf-16`) is E0001 `encoding problem: NAME` at the cookie's line, and `\\r\\n` and lone
`\\r` line endings become `\\n`, as Python's tokenizer translates them.
"""

from __future__ import annotations

import codecs
import io
import os
import stat
import tokenize
from dataclasses import dataclass

from ownership_check.core.messages import syntax_error
from ownership_check.diagnostics import Diagnostic, Span

#: Files larger than this are never read whole (the runner reports a relevant one as too large to analyse).
MAX_READ_BYTES = 16 * 1024 * 1024


class SourceReadError(Exception):
    """The path cannot be read as a source file (message says why, without the path)."""


@dataclass(frozen=True)
class SourceBytes:
    data: bytes
    truncated: bool  # the file is larger than MAX_READ_BYTES; `data` is its beginning


def read_source(path: str) -> SourceBytes:
    """The bytes of a regular file (never blocks on FIFOs, never reads devices)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise SourceReadError(f"cannot read file: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SourceReadError("not a regular file")
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_READ_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_READ_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise SourceReadError(f"cannot read file: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_READ_BYTES:
        return SourceBytes(data[:MAX_READ_BYTES], truncated=True)
    return SourceBytes(data, truncated=False)


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _decode_error(path: str, data: bytes, encoding: str, exc: UnicodeDecodeError) -> Diagnostic:
    before = data[: exc.start]
    line = before.count(b"\n") + (before.count(b"\r") - before.count(b"\r\n")) + 1
    line_start = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
    column = len(before[line_start:].decode(encoding, "replace")) + 1
    reason = f"(unicode error) '{encoding}' codec can't decode byte 0x{data[exc.start]:02x}: {exc.reason}"
    return syntax_error(path, reason, Span(line, column, line, column + 1))


def decode_source(data: bytes, path: str) -> tuple[str, Diagnostic | None]:
    """(text as Python reads it, E0001 when Python would reject the bytes); the text is always usable."""
    if data.startswith(codecs.BOM_UTF8):
        encoding, body = "utf-8", data[len(codecs.BOM_UTF8) :]
    else:
        body = data
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except (SyntaxError, LookupError) as exc:
            text = normalize_newlines(data.decode("utf-8", "replace"))
            return text, syntax_error(path, str(exc), Span(1, 1, 1, 2))
        encoding = "utf-8" if encoding == "utf-8-sig" else encoding
        if not _usable_source_encoding(encoding):
            text = normalize_newlines(data.decode("utf-8", "replace"))
            line = _cookie_line(data)
            return text, syntax_error(path, f"encoding problem: {encoding}", Span(line, 1, line, 2))
    try:
        return normalize_newlines(body.decode(encoding)), None
    except UnicodeDecodeError as exc:
        return normalize_newlines(body.decode(encoding, "replace")), _decode_error(path, body, encoding, exc)


def _usable_source_encoding(encoding: str) -> bool:
    """Whether Python would read source in `encoding`: a text codec that keeps ASCII as ASCII.

    A cookie may name any registered codec, including bytes-to-bytes transforms (`hex`, `base64`, `zlib`, `uu`,
    `bz2`, `quopri`), a str-to-str one (`rot13`) and ASCII-incompatible ones (`utf-16`, `utf-32`); Python refuses
    all of them with `SyntaxError: encoding problem: NAME`, and so does the checker (E0001).
    """
    try:
        info = codecs.lookup(encoding)
        if not getattr(info, "_is_text_encoding", True):
            return False
        return "x = 1\n#".encode(encoding) == b"x = 1\n#"
    except (LookupError, TypeError, ValueError, UnicodeError):
        return False


def _cookie_line(data: bytes) -> int:
    """The line (1 or 2) of the coding cookie, as Python reports it."""
    lines = data.splitlines()[:2]
    for number, line in enumerate(lines, 1):
        if b"coding" in line:
            return number
    return 1
