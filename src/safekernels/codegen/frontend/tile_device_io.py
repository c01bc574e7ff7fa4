"""Device `print` and `assert` in tile kernels: the tile front end's part.

A tile kernel body is one logical thread per tile block, so both take scalars only (block indices, tensor
extents, scalar parameters and arithmetic on them); a tile in `print` or as an assert condition is SK023.
The format rules are SIMT's (`safekernels.simt.device_print`): the same conversions, the same `vprintf`
format, the same text on the CPU executor.  The ops they emit:

    print   args: scalar Values; attrs: format (the vprintf format), kinds ("int"/"float" per argument)
    assert  args: [condition]; attrs: index, message, path, line   (dropped when asserts are disabled)

Lowering (`codegen.lowering.device_io.lower_tile_print/assert`) prints from thread 0 of each tile block and
makes thread 0 report a failed assert (the condition is uniform across the block).
"""

from __future__ import annotations

import ast
import builtins
from typing import Any

from safekernels.codegen.tile.ir import ScalarType, Value
from safekernels.dtypes import dtype_of
from safekernels.simt.device_print import (
    PrintFormatError,
    PrintText,
    asserts_enabled,
    device_format,
    is_printf_form,
    parse_format,
    python_print_format,
)


def is_print_call(frontend: Any, node: ast.expr) -> bool:
    """Whether `node` calls the builtin `print` (not shadowed in the kernel's module)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "print"
        and frontend.globals.get("print", builtins.print) is builtins.print
        and "print" not in frontend.env
    )


def _scalar(frontend: Any, node: ast.expr, what: str) -> Value:
    value = frontend.expr(node)
    if isinstance(value, bool | int | float):
        return frontend.const(value, node)  # type: ignore[no-any-return]
    if isinstance(value, Value) and not value.is_tile:
        return value
    frontend.err("SK023", f"{what} takes scalars in a tile kernel (a block index, an extent, a parameter)", node)
    raise AssertionError("unreachable: err raises")


def lower_print_stmt(frontend: Any, node: ast.Call) -> None:
    """`print("fmt", scalars...)` or `print("text", scalar, ...)` -> a `print` op (or an SK diagnostic)."""
    args = node.args
    if node.keywords:
        frontend.err("SK006", "print in a kernel takes no keyword arguments", node.keywords[0].value)
    if any(isinstance(a, ast.Starred) for a in args):
        frontend.err("SK006", "`*args` is not supported in kernel calls", node)
    if not (args and isinstance(args[0], ast.Constant) and is_printf_form(args[0].value)):
        _python_print(frontend, node)
        return
    first = args[0]
    assert isinstance(first, ast.Constant)
    fmt = str(first.value)
    try:
        _, conversions = parse_format(fmt)
        c_format = device_format(fmt)
    except PrintFormatError as exc:
        frontend.err(
            "SK008", str(exc), args[0], "a first string with `%` is a printf format: write `%%` for a percent sign"
        )
    if len(conversions) != len(args) - 1:
        frontend.err(
            "SK006",
            f"print format has {len(conversions)} conversion(s) but {len(args) - 1} value(s) were given",
            node,
        )
    values: list[Value] = []
    for conv, arg in zip(conversions, args[1:], strict=True):
        value = _scalar(frontend, arg, "print")
        dt = value.type.dtype if isinstance(value.type, ScalarType) else None
        if conv.kind == "int" and dt is not None and dt.kind == "f":
            frontend.err("SK023", f"`{conv.text}` needs an integer, not `{dt.name}`", arg)
        values.append(value)
    frontend.emit("print", values, None, node, format=c_format, kinds=[c.kind for c in conversions])


def _python_print(frontend: Any, node: ast.Call) -> None:
    """Python's form: string literals as text, each scalar by its dtype (`device_print.python_print_format`)."""
    parts: list[PrintText | str] = []
    values: list[Value] = []
    kinds: list[str] = []
    for arg in node.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            parts.append(PrintText(arg.value))
            continue
        value = _scalar(frontend, arg, "print")
        dt = (value.type.dtype if isinstance(value.type, ScalarType) else None) or dtype_of("i64")  # None: an index
        if dt.kind == "b":
            frontend.err(
                "SK023", "print in a kernel cannot show a bool", arg, 'print("flag %d", flag) prints 1 or 0'
            )
        kind = "float" if dt.kind == "f" else "uint" if dt.kind == "u" else "int"
        parts.append(kind)
        kinds.append("float" if kind == "float" else "int")
        values.append(value)
    c_format = device_format(python_print_format(parts))
    frontend.emit("print", values, None, node, format=c_format, kinds=kinds)


def lower_assert_stmt(frontend: Any, node: ast.Assert) -> None:
    """`assert cond, "msg"` -> an `assert` op (none when asserts are disabled; still type-checked)."""
    message = ""
    msg = node.msg
    if msg is not None:
        if not (isinstance(msg, ast.Constant) and isinstance(msg.value, str)):
            frontend.err("SK008", "an assert message in a kernel must be a string literal", msg)
        assert isinstance(msg, ast.Constant)
        message = str(msg.value)
    cond = _scalar(frontend, node.test, "assert")
    if cond.type != ScalarType(dtype_of("bool")):
        cond = frontend.binop("NotEq", cond, frontend.const(0, node), node)
    if not asserts_enabled():
        return
    line, column, _ = frontend.src.position(node)
    index = sum(1 for op in frontend.ops if op.kind == "assert")
    frontend.emit(
        "assert", [cond], None, node, index=index, message=message, path=frontend.src.path, line=line, column=column
    )


def tile_asserts(ops: list[Any]) -> list[list[Any]]:
    """The assert table of a tile kernel's ops, in index order: [path, line, column, message]."""
    found: list[list[Any]] = []

    def walk(items: list[Any]) -> None:
        for op in items:
            if op.kind == "assert":
                a = op.attrs
                found.append([a["path"], a["line"], a["column"], a["message"]])
            walk(getattr(op, "body", []))

    walk(ops)
    return found
