"""Where in its file a kernel definition is: for the located errors raised at decoration time.

Only called when a definition is refused (an unannotated parameter, `*args`, a lambda, a bad `requires`), so it
may read and parse the source.  Falls back to the code object's first line when the source is unavailable.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

from safekernels.errors import KernelDefinitionError
from safekernels.simt.validation import LaunchContractError


class ContractDefinitionError(LaunchContractError):
    """A launch contract refused at decoration time (a bad `requires`, block, ...), with code SK012 and the
    file:line:col of the offending text."""

    code = "SK012"
    path = ""
    line = 0
    column = 0


def bad_parameter(exc: TypeError) -> str | None:
    """The parameter a `parse_params` error names (its first backquoted word)."""
    text = str(exc)
    start = text.find("`")
    end = text.find("`", start + 1)
    return text[start + 1 : end] if 0 <= start < end else None


def definition_error(fn: Any, code: str, message: str, parameter: str | None) -> KernelDefinitionError:
    """A located `KernelDefinitionError` for kernel function `fn` (at `parameter` when given)."""
    path, line, column = locate(fn, parameter=parameter)
    return KernelDefinitionError(code, message, path, line, column)


def contract_definition_error(fn: Any, exc: LaunchContractError) -> ContractDefinitionError:
    """The contract error `exc` with an SK012 code and the location of the relation (or the definition)."""
    text = str(exc)
    relation = text.split("requires `", 1)[1].split("`", 1)[0] if "requires `" in text else None
    path, line, column = locate(fn, string=relation)
    located = ContractDefinitionError(f"{text}\n  --> {path}:{line}:{column} (SK012)")
    located.path, located.line, located.column = path, line, column
    return located


def locate(fn: Any, *, parameter: str | None = None, string: str | None = None) -> tuple[str, int, int]:
    """(path, line, column) of `fn`'s parameter `parameter`, of the string literal `string` in its decorators,
    or of the definition itself; lines and columns are 1-based."""
    code = getattr(fn, "__code__", None)
    path = code.co_filename if code is not None else "<unknown>"
    first = code.co_firstlineno if code is not None else 1
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return path, first, 1
    raw = "".join(lines)
    text = textwrap.dedent(raw)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    try:
        tree = ast.parse(text)
    except SyntaxError:
        # a lambda inside a larger expression: point at `lambda`
        column = raw.find("lambda")
        return path, start, (column + 1) if column >= 0 else 1
    target: ast.AST | None = None
    for node in ast.walk(tree):
        if parameter is not None and isinstance(node, ast.arg) and node.arg == parameter:
            target = node
            break
        if string is not None and isinstance(node, ast.Constant) and node.value == string:
            target = node
            break
        if isinstance(node, ast.FunctionDef | ast.Lambda) and target is None:
            target = node
    if target is None:
        return path, start, 1
    line = getattr(target, "lineno", 1) + start - 1
    return path, line, getattr(target, "col_offset", 0) + indent + 1
