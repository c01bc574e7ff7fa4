"""The one private mypy surface the plugin uses (`TypeChecker.scope`, `TypeChecker.modules`), pinned."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from mypy.nodes import FuncDef, MypyFile, TypeInfo
from mypy.plugin import CheckerPluginInterface, MethodContext
from plugin_cases import check

from mypy_plugin import mypy_internals
from mypy_plugin.mypy_internals import UnsupportedMypyError, lookup_class, scope_stack


def test_scope_stack_refuses_an_api_without_a_scope() -> None:
    with pytest.raises(UnsupportedMypyError):
        scope_stack(cast(CheckerPluginInterface, SimpleNamespace()))


def test_lookup_class_is_none_without_a_module_table() -> None:
    assert lookup_class(cast(CheckerPluginInterface, SimpleNamespace()), "x", "Y") is None


def test_scope_stack_in_a_real_hook_names_module_class_and_method(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[str]] = []
    classes: list[bool] = []
    from mypy_plugin import hooks as plugin_module

    original = plugin_module._method_report_hook

    def spy(ctx: MethodContext) -> Any:
        stack = scope_stack(ctx.api)
        seen.append([type(e).__name__ + ":" + (e.fullname if not isinstance(e, FuncDef) else e.name) for e in stack])
        classes.append(lookup_class(ctx.api, "safekernels.tile.tensor", "Tensor") is not None)
        assert isinstance(stack[0], MypyFile)
        return original(ctx)

    monkeypatch.setattr(plugin_module, "_method_report_hook", spy)
    source = """
    from safekernels import tile
    from safekernels.dtypes import f32
    import safekernels as sk


    class Runner:
        def go(self, stream: sk.Stream) -> None:
            op = tile.ones((8,), f32)
            op.sync_on(stream)
    """
    check(tmp_path, {"prog.py": source})
    assert seen == [["MypyFile:prog", "TypeInfo:prog.Runner", "FuncDef:go"]]
    assert classes == [True]
    assert isinstance(mypy_internals.ScopeEntry.__args__[1], type) and TypeInfo in mypy_internals.ScopeEntry.__args__


def test_checking_pass_is_the_binder_and_changes_per_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tokens: list[tuple[str, int]] = []
    from mypy_plugin import hooks as plugin_module

    original = plugin_module._method_report_hook

    def spy(ctx: MethodContext) -> Any:
        stack = scope_stack(ctx.api)
        tokens.append((getattr(stack[-1], "name", "?"), id(mypy_internals.checking_pass(ctx.api))))
        return original(ctx)

    monkeypatch.setattr(plugin_module, "_method_report_hook", spy)
    source = """
    from safekernels import tile
    from safekernels.dtypes import f32
    import safekernels as sk


    def one(stream: sk.Stream) -> None:
        a = tile.ones((8,), f32)
        b = a.first()
        b.sync_on(stream)


    def two(stream: sk.Stream) -> None:
        c = tile.ones((8,), f32)
        c.sync_on(stream)
    """
    check(tmp_path, {"prog.py": source})
    assert [name for name, _ in tokens] == ["one", "one", "two"]
    assert tokens[0][1] == tokens[1][1] != tokens[2][1]
    assert mypy_internals.checking_pass(cast(CheckerPluginInterface, SimpleNamespace())) is not None
