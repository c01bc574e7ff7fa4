"""Which names a kernel function binds locally, by Python's own scoping rules.

In Python a name assigned anywhere in a function is local to the whole function: reading it before the
assignment raises `UnboundLocalError`, even when a global of that name exists.  The CPU executor runs kernel
bodies as Python, so it raises; a compiler front end that looks a name up as "local if bound yet, else global"
would read the global instead and compile a program the CPU refuses.  Both front ends ask this module, which asks
the interpreter's own symbol table (`symtable`), so the two executors scope names exactly as Python does.
"""

from __future__ import annotations

import ast
import symtable
from functools import cache

from safekernels.codegen.frontend.source import FunctionSource


@cache
def _locals_of(text: str, name: str) -> frozenset[str]:
    try:
        table = symtable.symtable(text, "<kernel>", "exec")
    except SyntaxError:
        return frozenset()
    for child in table.get_children():
        if child.get_name() == name and isinstance(child, symtable.Function):
            return frozenset(s.get_name() for s in child.get_symbols() if s.is_local() and s.is_assigned())
    return frozenset()


def local_names(src: FunctionSource) -> frozenset[str]:
    """The names `src`'s function assigns in its own scope (parameters included); empty for a source the symbol
    table cannot read, which only loses this check, never a name."""
    tree = src.tree
    if not isinstance(tree, ast.FunctionDef | ast.AsyncFunctionDef):
        return frozenset()
    return _locals_of(src.text, tree.name)
