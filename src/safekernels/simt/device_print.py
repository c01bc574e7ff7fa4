"""Device-side `print` and `assert cond, "msg"`, declared once for the GPU and the CPU executor.

A kernel prints in one of two forms:

    print("block %d: total=%.3f", thread.block_idx_x(), total)     # printf: a format string literal with `%`
    print("first element", x[i], "of", n)                          # Python's (numba's): values, space-separated

The first argument decides: a string literal that contains `%` is a printf format; anything else is Python's
form, which the front end rewrites into a printf format (`python_print_format`): string literals become text,
each value the conversion of its type (`%d` signed integers, `%u` unsigned, `%f` floats, as numba-cuda prints
them), separated by spaces.  A bool is refused (device printf has no `True`); `print("flag %d", flag)` prints
1 or 0.  From there both forms are one: the same `vprintf` call on the GPU, the same text from
`format_device_print` on the CPU, where `kernel_print` picks each value's conversion from its numpy type by the
same table.

The format is parsed here, by both consumers, so they accept the same programs and print the same text:

- codegen (`codegen.frontend.builder`) checks each conversion against its argument's type (SK003/SK008),
  widens integers to 64 bits and floats to f64 (the C varargs rules `vprintf` expects) and rewrites every
  integer conversion with the `ll` length modifier (`%d` -> `%lld`), then calls `vprintf` with a newline
  appended, as Python's `print` adds one;
- the CPU executor formats with the same conversions (`format_device_print`) and writes to `sys.stdout`.

Accepted conversions: `%d %i %u %x %X %o` (integers and bools), `%f %F %e %E %g %G` (numbers), `%%`, with
the flags `-+ #0`, a width and a precision.  Integers printed with `%u %x %X %o` are shown as their 64-bit
two's complement, as the GPU does.

An assert that fails raises `KernelAssertionError` naming the kernel, the assert's file:line, its message and
the thread.  Asserts compile out (GPU) and are skipped (CPU) when `SAFEKERNELS_DISABLE_ASSERTS=1` is set or
Python runs with `-O`, so a release build pays nothing for them.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

DISABLE_ASSERTS_ENV: Final = "SAFEKERNELS_DISABLE_ASSERTS"

_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d*)(?:\.(?P<precision>\d+))?(?P<conv>.)", re.DOTALL)
INT_CONVERSIONS: Final = frozenset("diuxXo")
#: the conversion of each value kind in Python's form (numba-cuda's choices)
VALUE_CONVERSIONS: Final = {"int": "%d", "uint": "%u", "float": "%f"}
FLOAT_CONVERSIONS: Final = frozenset("fFeEgG")
_MASK64: Final = (1 << 64) - 1


class PrintFormatError(ValueError):
    """The format string has a conversion device printf does not support (message says which)."""


@dataclass(frozen=True)
class Conversion:
    text: str  # the conversion as written, e.g. "%-8.3f"
    kind: str  # "int" | "float"
    conv: str  # the conversion letter


def parse_format(fmt: str) -> tuple[list[str], list[Conversion]]:
    """Split `fmt` into literal pieces and conversions (`len(pieces) == len(conversions) + 1`)."""
    pieces: list[str] = []
    conversions: list[Conversion] = []
    literal: list[str] = []
    pos = 0
    while pos < len(fmt):
        ch = fmt[pos]
        if ch != "%":
            literal.append(ch)
            pos += 1
            continue
        if fmt.startswith("%%", pos):
            literal.append("%")
            pos += 2
            continue
        m = _SPEC.match(fmt, pos)
        if m is None:
            raise PrintFormatError(f"incomplete conversion at the end of {fmt!r}")
        conv = m.group("conv")
        if conv in INT_CONVERSIONS:
            kind = "int"
        elif conv in FLOAT_CONVERSIONS:
            kind = "float"
        else:
            raise PrintFormatError(
                f"unsupported conversion `{m.group(0)}` in {fmt!r} (device print supports "
                "%d %i %u %x %X %o for integers and %f %F %e %E %g %G for numbers, plus %%)"
            )
        pieces.append("".join(literal))
        literal = []
        conversions.append(Conversion(m.group(0), kind, conv))
        pos = m.end()
    pieces.append("".join(literal))
    return pieces, conversions


def is_printf_form(first: object) -> bool:
    """Whether a print whose first argument is `first` (a literal's value, or the CPU's runtime value) uses a
    printf format: a string with `%` in it.  Otherwise it is Python's form."""
    return isinstance(first, str) and "%" in first


@dataclass(frozen=True)
class PrintText:
    """A string literal of a Python-form print: printed as it is."""

    text: str


def python_print_format(parts: list[PrintText | str]) -> str:
    """The printf format of a Python-form print: `PrintText` parts verbatim, each value kind ("int", "uint",
    "float") its conversion, joined by single spaces."""
    return " ".join(
        p.text.replace("%", "%%") if isinstance(p, PrintText) else VALUE_CONVERSIONS[p] for p in parts
    )


def value_print_kind(value: object) -> str:
    """The value kind of a CPU-side value in a Python-form print (the front end types it the same way)."""
    if isinstance(value, bool | np.bool_):
        raise PrintFormatError('print in a kernel cannot show a bool; print("flag %d", flag) prints 1 or 0')
    if isinstance(value, np.unsignedinteger):
        return "uint"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "float"
    raise PrintFormatError(f"print in a kernel takes string literals and numbers, got {type(value).__name__}")


def device_format(fmt: str) -> str:
    """The `vprintf` format for `fmt`: integer conversions get the `ll` modifier, `%` literals stay `%%`, and
    a newline ends the line (Python's print)."""
    pieces, conversions = parse_format(fmt)
    out: list[str] = []
    for piece, conv in zip(pieces, [*conversions, None], strict=True):
        out.append(piece.replace("%", "%%"))
        if conv is not None:
            text = conv.text
            out.append(text[:-1] + "ll" + text[-1] if conv.kind == "int" else text)
    return "".join(out) + "\n"


def format_device_print(fmt: str, args: tuple[Any, ...]) -> str:
    """The text the GPU prints for `print(fmt, *args)` (without the newline)."""
    pieces, conversions = parse_format(fmt)
    if len(conversions) != len(args):
        raise PrintFormatError(
            f"print format {fmt!r} has {len(conversions)} conversion(s) but {len(args)} argument(s) were given"
        )
    out: list[str] = []
    for piece, conv, value in zip(pieces, conversions, args, strict=False):
        out.append(piece)
        out.append(conv.text % _printf_value(conv, value, fmt))
    out.append(pieces[-1])
    return "".join(out)


def _printf_value(conv: Conversion, value: Any, fmt: str) -> int | float:
    if conv.kind == "int":
        if isinstance(value, float | np.floating):
            raise PrintFormatError(f"`{conv.text}` in {fmt!r} needs an integer, got a float")
        number = int(value)
        return number & _MASK64 if conv.conv in "uxXo" else number
    return float(value)


def kernel_print(*args: Any) -> None:
    """`print` inside a kernel on the CPU executor: the GPU's text for the same call, in either form."""
    if args and is_printf_form(args[0]):
        sys.stdout.write(format_device_print(args[0], args[1:]) + "\n")
        return
    parts: list[PrintText | str] = [PrintText(a) if isinstance(a, str) else value_print_kind(a) for a in args]
    values = tuple(a for a in args if not isinstance(a, str))
    sys.stdout.write(format_device_print(python_print_format(parts), values) + "\n")


def asserts_enabled() -> bool:
    """False under `SAFEKERNELS_DISABLE_ASSERTS=1` or `python -O`: asserts compile out."""
    return os.environ.get(DISABLE_ASSERTS_ENV, "") in ("", "0") and not sys.flags.optimize


def assertion_message(kernel: str, path: str, line: int, message: str, where: str) -> str:
    """The one wording of a failed kernel assert, on both executors."""
    text = f": {message}" if message else ""
    return f"{kernel}: assertion failed at {path}:{line}{text} ({where})"
