"""The few mypy internals this plugin needs, in one place: the stack of scopes being type checked right now, the
current checking pass, and how many messages mypy has recorded.

mypy has no hook for function definitions and no post-check hook (mypy#9915, #6537), so the plugin runs the
ownership core over the *enclosing* function from inside the hook of an ownership-relevant call.  The checker keeps
that function on `TypeChecker.scope` (a `CheckerScope` whose `stack` holds the module, then the classes and
functions being checked, innermost last).  `CheckerPluginInterface` does not expose it, hence this wrapper;
`tests/mypy_plugin/test_mypy_internals.py` pins its behaviour on the installed mypy, and if a mypy release moves
it, only this module changes.  The attribute has had this shape from mypy 0.9xx through 2.x.
"""

from __future__ import annotations

from mypy.nodes import FuncItem, MypyFile, TypeInfo
from mypy.plugin import CheckerPluginInterface

ScopeEntry = MypyFile | TypeInfo | FuncItem


class UnsupportedMypyError(RuntimeError):
    """The running mypy does not expose the checker scope the plugin relies on."""


def scope_stack(api: CheckerPluginInterface) -> list[ScopeEntry]:
    """A copy of the checker's scope stack, outermost first: the module, then classes and functions."""
    scope = getattr(api, "scope", None)
    stack = getattr(scope, "stack", None)
    if not isinstance(stack, list) or not stack or not isinstance(stack[0], MypyFile):
        raise UnsupportedMypyError("mypy's TypeChecker.scope.stack is missing; this mypy version is unsupported")
    return [entry for entry in stack if isinstance(entry, MypyFile | TypeInfo | FuncItem)]


def lookup_class(api: CheckerPluginInterface, module: str, name: str) -> TypeInfo | None:
    """A class by its defining module, from the checker's module table (`TypeChecker.modules`, same object).

    `named_generic_type` walks dotted names through package attributes, which fails for submodules that the
    package does not import itself (`safekernels.tile.tensor`)."""
    modules = getattr(api, "modules", None)
    tree = modules.get(module) if isinstance(modules, dict) else None
    symbol = tree.names.get(name) if isinstance(tree, MypyFile) else None
    node = symbol.node if symbol is not None else None
    return node if isinstance(node, TypeInfo) else None


def checking_pass(api: CheckerPluginInterface) -> object:
    """A token for the current checking pass over the function being checked: `TypeChecker.binder`.

    mypy creates a fresh `ConditionalTypeBinder` each time it starts checking a function body (`check_func_def`:
    first pass, deferred pass, every dmypy re-check) and for each module pass, and restores the outer one after a
    nested function; re-checks of a loop body within one pass keep it.  So "same binder object" means "same pass".
    Returns a fresh object (never equal to a stored one) when the attribute is missing.
    """
    binder = getattr(api, "binder", None)
    return binder if binder is not None else object()


def recorded_messages(api: CheckerPluginInterface) -> int | None:
    """How many messages (errors and notes) mypy has kept so far: `MessageBuilder.errors.num_messages()`.

    A message reported while mypy discards errors (a speculative inference under an error filter, or a line its
    `# type: ignore` covers) is not kept, so comparing the count before and after `api.fail` tells whether this
    report reached the output.  None when the running mypy does not expose it (the caller then assumes it did not).
    """
    errors = getattr(getattr(api, "msg", None), "errors", None)
    count = getattr(errors, "num_messages", None)
    if count is None:
        return None
    value = count()
    return value if isinstance(value, int) else None
