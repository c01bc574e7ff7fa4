"""IR parity: the CLI front end (`ast`) and the mypy plugin lower each corpus function to the same flow IR.

Diagnostic parity (`test_parity.py`) can hide a lowering difference the checker happens not to report; this
compares the IR itself, for every function of the single-file golden cases that both front ends lower (the plugin
lowers a function when one of its hooks fires there).  Both front ends build the core's neutral call shapes and
share `ownership_check.core.calls`, so what may still differ is pinned here:

- `Move.event` of tile-launch moves: the libcst front end used to group one launch's moves into one event (reported
  once together); both now report each moved value on its own (`calls.GROUP_LAUNCH_MOVES`).  Events are left out of
  the comparison, and a second test checks that they are the only other difference.
- `IR_EXCEPTIONS`: functions whose IR differs, with the reason.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cases import CASES_DIR, discover_cases
from mypy_harness import run_mypy, write_config
from plugin_cases import _warm_cache

from ownership_check.core import ir

Key = tuple[str, str, int]  # (file name, function name, line of its `def`)

DEF_SPAN = (
    "a nested `def` binds its name with the span of the name (libcst) or of the whole definition (mypy keeps no "
    "node for the name)"
)
#: A nested function reading an item of a captured container, or calling a sibling nested function that rebinds a
#: `nonlocal`, is lowered twice by each front end (on its own, and for the effects of its call with the enclosing
#: function's containers and sibling effects, `Unit.outer_containers` / `outer_closures`): two bodies.
TWO_LOWERINGS = (
    "a nested function is lowered on its own and, for its call's effects, with the caller's containers or what "
    "its calls of sibling nested functions do"
)
#: mypy 2.x columns on a line with a non-ASCII character before the position are not character columns.
#: Known IR differences whose diagnostics are identical in both front ends (`test_parity` compares them); each is
#: a place where the front ends could still disagree on other code, listed in docs/checker-internals.md.
NON_ASCII_COLUMNS = "mypy's columns after a non-ASCII identifier (`ﬁ = sk.zeros(...)`) are not character columns"
#: The iterator places of nested `for` loops over a display of displays are numbered in a different order (`$it3`
#: against `$it4`): the same loops and places, a name apart.
IR_EXCEPTIONS: dict[Key, str] = {
    ("e0308_prepared_comprehension_stored_by_init.py", "<module>", 1): DEF_SPAN,
    ("clean_prepared_comprehension_stored_by_init.py", "<module>", 1): DEF_SPAN,
    ("e0502_operator_getter_places.py", "<module>", 1): DEF_SPAN,
    ("clean_operator_getter_places.py", "<module>", 1): DEF_SPAN,
    ("e0502_repeated_list_display.py", "<module>", 1): DEF_SPAN,
    ("clean_repeated_list_display.py", "<module>", 1): DEF_SPAN,
    ("clean_global_moved_in_function.py", "<module>", 1): DEF_SPAN,
    ("e0382_global_moved_in_function.py", "<module>", 1): DEF_SPAN,
    ("clean_module_level_script.py", "<module>", 1): DEF_SPAN,
    ("e0382_module_level_script.py", "<module>", 1): DEF_SPAN,
    ("e0382_nested_function_captures_moved.py", "main", 16): DEF_SPAN,
    ("e0502_nested_function_given_a_view_of_its_captured_output.py", "main", 24): DEF_SPAN,
    ("clean_nested_function_given_views_of_another_buffer.py", "main", 24): DEF_SPAN,
    ("e0308_nested_function_picks_a_kernel_for_a_captured_launch.py", "run", 34): DEF_SPAN,
    ("clean_nested_function_picks_a_kernel_with_its_launch.py", "run", 33): DEF_SPAN,
    ("e0502_module_level_simt_launch.py", "<module>", 1): DEF_SPAN,
    ("clean_method_of_unknown_receiver_by_name.py", "<module>", 1): DEF_SPAN,
    ("clean_init_moved_attribute.py", "<module>", 1): DEF_SPAN,
    ("clean_attribute_holding_callable_object.py", "<module>", 1): DEF_SPAN,
    ("e0502_attribute_holding_callable_object.py", "<module>", 1): DEF_SPAN,
    ("clean_nested_function_captured_attribute.py", "run", 30): DEF_SPAN,
    ("e0502_nested_function_captured_attribute.py", "run", 31): DEF_SPAN,
    ("e0382_init_moved_attribute.py", "<module>", 1): DEF_SPAN,
    ("clean_kernel_defined_in_function.py", "main", 11): DEF_SPAN,
    ("e0502_kernel_defined_in_function.py", "main", 11): DEF_SPAN,
    ("clean_nfkc_identifiers.py", "main", 20): NON_ASCII_COLUMNS,
    ("e0502_nfkc_identifiers.py", "main", 20): NON_ASCII_COLUMNS,
    ("clean_nonlocal_declaration_is_not_a_use.py", "main", 14): DEF_SPAN,
    ("clean_w0003_device_op_consumed.py", "captured", 91): DEF_SPAN,
    ("clean_captured_moved_and_rebound_in_nested_loop.py", "main", 15): DEF_SPAN,
    ("e0382_captured_moved_before_and_in_nested_loop.py", "main", 16): DEF_SPAN,
    ("e0382_nonlocal_moved_by_nested_function.py", "main", 15): DEF_SPAN,
    ("clean_nonlocal_moved_and_rebound_by_nested_function.py", "main", 15): DEF_SPAN,
    ("e0382_nested_function_called_after_move.py", "main", 17): DEF_SPAN,
    ("clean_nested_function_called_after_rebind.py", "main", 15): DEF_SPAN,
    ("e0499_nested_function_borrows_while_caller_op_pending.py", "main", 29): DEF_SPAN,
    ("clean_nested_function_launches_after_caller_sync.py", "main", 28): DEF_SPAN,
    ("clean_helper_returns_pending_op.py", "main", 28): DEF_SPAN,
    ("clean_nested_function_captured_aliases.py", "main", 24): DEF_SPAN,
    ("e0382_parameter_default_keeps_moved_value.py", "main", 18): DEF_SPAN,
    ("clean_parameter_default_keeps_moved_value.py", "main", 18): DEF_SPAN,
    ("clean_nonlocal_rebound_to_caller_value.py", "main", 21): DEF_SPAN,
    ("clean_then_chain_values_are_launch_buffers.py", "main", 28): DEF_SPAN,
    ("e0502_nested_function_captured_aliases.py", "main", 25): DEF_SPAN,
    ("clean_closure_capture_rebound_by_caller.py", "main", 22): DEF_SPAN,
    ("e0502_closure_capture_rebound_by_caller.py", "main", 24): DEF_SPAN,
    ("e0502_nonlocal_rebound_to_caller_value.py", "main", 22): DEF_SPAN,
    ("e0502_then_chain_values_are_launch_buffers.py", "main", 29): DEF_SPAN,
    ("e0505_helper_returns_pending_op.py", "main", 29): DEF_SPAN,
    ("clean_nested_function_captured_aliases.py", "inner", 38): TWO_LOWERINGS,
    ("clean_nested_function_captured_aliases.py", "step", 34): TWO_LOWERINGS,
    ("clean_then_chain_values_are_launch_buffers.py", "step", 45): TWO_LOWERINGS,
    ("e0502_nested_function_captured_aliases.py", "inner", 39): TWO_LOWERINGS,
    ("e0502_nested_function_captured_aliases.py", "step", 35): TWO_LOWERINGS,
    ("e0502_then_chain_values_are_launch_buffers.py", "step", 46): TWO_LOWERINGS,
    ("clean_nested_function_pending_op_against_captured_items.py", "main", 25): DEF_SPAN,
    ("clean_nested_function_pending_op_against_captured_items.py", "item_pending", 36): TWO_LOWERINGS,
    ("clean_nested_function_pending_op_against_captured_items.py", "name_pending", 41): TWO_LOWERINGS,
    ("clean_nested_function_pending_op_against_captured_items.py", "param_pending", 47): TWO_LOWERINGS,
    ("clean_nested_function_pending_op_against_captured_items.py", "step", 54): TWO_LOWERINGS,
    ("e0502_nested_function_pending_op_against_captured_items.py", "main", 26): DEF_SPAN,
    ("e0502_nested_function_pending_op_against_captured_items.py", "item_pending", 37): TWO_LOWERINGS,
    ("e0502_nested_function_pending_op_against_captured_items.py", "name_pending", 42): TWO_LOWERINGS,
    ("e0502_nested_function_pending_op_against_captured_items.py", "param_pending", 48): TWO_LOWERINGS,
    ("e0502_nested_function_pending_op_against_captured_items.py", "step", 55): TWO_LOWERINGS,
    ("clean_helper_pending_op_name_rebound.py", "main", 28): DEF_SPAN,
    ("e0499_helper_pending_op_name_rebound.py", "main", 29): DEF_SPAN,
    ("clean_prepared_from_enclosing_scope.py", "<module>", 1): DEF_SPAN,
    ("clean_prepared_from_enclosing_scope.py", "captured", 49): DEF_SPAN,
    ("e0308_prepared_from_enclosing_scope.py", "captured", 46): DEF_SPAN,
    ("clean_awaited_sibling_nested_function.py", "main", 18): DEF_SPAN,
    ("e0382_awaited_sibling_nested_function.py", "main", 17): DEF_SPAN,
    ("clean_op_yielded_by_generator.py", "nested_generator", 60): DEF_SPAN,
    ("e0505_op_yielded_by_generator.py", "nested_generator", 61): DEF_SPAN,
    ("clean_captured_holder_fields_passed_to_helper.py", "main", 49): DEF_SPAN,
    ("e0502_captured_holder_fields_passed_to_helper.py", "main", 52): DEF_SPAN,
    ("clean_attribute_registry_of_hooks.py", "<module>", 1): DEF_SPAN,
    ("e0502_attribute_registry_of_hooks.py", "<module>", 1): DEF_SPAN,
    ("clean_partial_items_of_comprehension.py", "<module>", 1): DEF_SPAN,
    ("e0502_partial_items_of_comprehension.py", "<module>", 1): DEF_SPAN,
    ("clean_helper_returned_object_fields.py", "<module>", 1): DEF_SPAN,
    ("e0502_helper_returned_object_fields.py", "<module>", 1): DEF_SPAN,
    ("clean_simple_namespace_fields.py", "<module>", 1): DEF_SPAN,
    ("e0502_simple_namespace_fields.py", "<module>", 1): DEF_SPAN,
    ("clean_reduce_helper_moves_accumulator.py", "nested", 36): DEF_SPAN,
    ("e0382_reduce_helper_moves_accumulator.py", "nested", 37): DEF_SPAN,
    ("clean_nonlocal_entry_value_moved_then_rebound.py", "always", 20): DEF_SPAN,
    ("clean_nonlocal_entry_value_moved_then_rebound.py", "on_one_path", 35): DEF_SPAN,
    ("e0505_nonlocal_entry_value_moved_then_rebound.py", "always", 21): DEF_SPAN,
    ("e0505_nonlocal_entry_value_moved_then_rebound.py", "on_one_path", 37): DEF_SPAN,
    ("clean_captured_container_item_two_levels_down.py", "plain", 23): DEF_SPAN,
    ("clean_captured_container_item_two_levels_down.py", "awaited", 41): DEF_SPAN,
    ("clean_captured_container_item_two_levels_down.py", "middle", 48): TWO_LOWERINGS,
    ("clean_captured_container_item_two_levels_down.py", "innermost", 31): TWO_LOWERINGS,
    ("clean_captured_container_item_two_levels_down.py", "innermost", 51): TWO_LOWERINGS,
    ("e0499_captured_container_item_two_levels_down.py", "plain", 23): DEF_SPAN,
    ("e0499_captured_container_item_two_levels_down.py", "awaited", 41): DEF_SPAN,
    ("e0499_captured_container_item_two_levels_down.py", "middle", 48): TWO_LOWERINGS,
    ("e0499_captured_container_item_two_levels_down.py", "innermost", 31): TWO_LOWERINGS,
    ("e0499_captured_container_item_two_levels_down.py", "innermost", 51): TWO_LOWERINGS,
    ("clean_nested_lambda_parameter_named_like_caller_op.py", "main", 20): DEF_SPAN,
    ("clean_nested_lambda_parameter_named_like_caller_op.py", "inner", 30): TWO_LOWERINGS,
    ("e0499_nested_lambda_parameter_named_like_caller_op.py", "main", 21): DEF_SPAN,
    ("e0499_nested_lambda_parameter_named_like_caller_op.py", "inner", 30): TWO_LOWERINGS,
    ("clean_w0003_op_bound_to_nonlocal.py", "deferred", 27): DEF_SPAN,
    ("clean_nested_function_runs_op_bound_to_nonlocal.py", "main", 25): DEF_SPAN,
    ("e0382_nested_function_runs_op_bound_to_nonlocal.py", "main", 26): DEF_SPAN,
    ("clean_nonlocal_op_keeps_its_loans.py", "main", 21): DEF_SPAN,
    ("e0499_nonlocal_op_keeps_its_loans.py", "main", 22): DEF_SPAN,
    ("w0003_op_bound_to_local_of_nested_function.py", "deferred", 17): DEF_SPAN,
    ("clean_nonlocal_declared_but_only_read.py", "run", 18): DEF_SPAN,
    ("e0382_nonlocal_rebound_before_none_test.py", "run", 19): DEF_SPAN,
    ("clean_chained_op_of_nested_function_synced_first.py", "main", 21): DEF_SPAN,
    ("e0499_chained_op_of_nested_function_writes_captured_item.py", "main", 22): DEF_SPAN,
    ("clean_escaping_closure_rebinds_nonlocal_state.py", "drain", 33): DEF_SPAN,
    ("clean_views_in_nested_function_of_captured_item.py", "main", 20): DEF_SPAN,
    ("e0502_view_in_nested_function_overlaps_captured_item.py", "main", 21): DEF_SPAN,
    ("clean_w0003_op_kept_by_escaping_closure.py", "make_finisher", 17): DEF_SPAN,
    ("w0003_op_kept_by_closure_never_called.py", "make_finisher", 18): DEF_SPAN,
    ("clean_chained_op_of_nested_function_synced_first.py", "step", 30): TWO_LOWERINGS,
    ("e0499_chained_op_of_nested_function_writes_captured_item.py", "step", 31): TWO_LOWERINGS,
    ("clean_views_in_nested_function_of_captured_item.py", "disjoint", 27): TWO_LOWERINGS,
    ("e0502_view_in_nested_function_overlaps_captured_item.py", "overlapping", 28): TWO_LOWERINGS,
    ("clean_counted_views_of_one_buffer_per_iteration.py", "<module>", 1): DEF_SPAN,
    ("clean_fields_a_helper_rebinds_through_a_loop_alias.py", "<module>", 1): DEF_SPAN,
    ("clean_helper_moves_an_attribute_init_bound.py", "<module>", 1): DEF_SPAN,
    ("e0505_helper_moves_an_attribute_init_bound.py", "<module>", 1): DEF_SPAN,
    ("clean_nested_function_binds_its_own_names.py", "main", 25): DEF_SPAN,
    ("e0382_nested_function_moves_the_callers_value.py", "main", 24): DEF_SPAN,
    ("clean_property_reads_beside_a_nested_functions_own_name.py", "main", 34): DEF_SPAN,
    ("e0502_property_read_beside_a_nested_functions_own_name.py", "main", 30): DEF_SPAN,
    ("clean_nonlocal_op_tested_right_after_its_binding.py", "main", 23): DEF_SPAN,
    ("e0382_nonlocal_op_tested_after_another_call.py", "main", 23): DEF_SPAN,
    ("e0382_nonlocal_op_tested_after_another_call.py", "step", 33): TWO_LOWERINGS,
}


def _normalized(value: Any) -> Any:
    """IR without the move events (see the module docstring)."""
    if isinstance(value, ir.Move):
        return ("Move", value.place, value.span, value.help)
    if isinstance(value, tuple):
        return tuple(_normalized(v) for v in value)
    if isinstance(value, ir.Branch | ir.Loop | ir.Try | ir.Unsafe):
        fields = {name: _normalized(getattr(value, name)) for name in value.__dataclass_fields__}
        return (type(value).__name__, tuple(sorted(fields.items(), key=lambda kv: kv[0])))
    return value


def _key(function: ir.Function) -> Key:
    return (Path(function.path).name, function.name, function.span.line)


@pytest.fixture(scope="module")
def lowered(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch_module: pytest.MonkeyPatch
) -> tuple[dict[Key, ir.Block], dict[Key, set[ir.Block]]]:
    import mypy_plugin.lowering as mypy_lowering
    from mypy_plugin.reporting import PASS_CACHE
    from ownership_check.api import check_paths
    from ownership_check.frontend import ast_lowering as cst_lowering  # the CLI's front end

    files = sorted(c for c in discover_cases() if c.is_file() and c.stem != "e0001_syntax_error")
    libcst: dict[Key, ir.Block] = {}
    original_module = cst_lowering.lower_module

    def record_module(*args: Any) -> list[ir.Function]:
        functions = original_module(*args)
        libcst.update((_key(f), f.body) for f in functions)
        return functions

    monkeypatch_module.setattr(cst_lowering, "lower_module", record_module)
    for case in files:
        check_paths([str(case)], use_cache=False)

    plugin: dict[Key, set[ir.Block]] = {}
    original_lower = mypy_lowering.FunctionLowerer.lower

    def record_lower(self: mypy_lowering.FunctionLowerer) -> ir.Function:
        function = original_lower(self)
        plugin.setdefault(_key(function), set()).add(function.body)
        return function

    monkeypatch_module.setattr(mypy_lowering.FunctionLowerer, "lower", record_lower)
    monkeypatch_module.setattr(PASS_CACHE, "enabled", False)
    cache = tmp_path_factory.mktemp("ir-parity") / "cache"
    shutil.copytree(_warm_cache(), cache)
    config = write_config(cache.parent, cache)
    old = os.getcwd()
    os.chdir(CASES_DIR)
    try:
        _, raw = run_mypy(["--config-file", str(config), *(c.name for c in files)])
    finally:
        os.chdir(old)
    assert "INTERNAL ERROR" not in raw, raw
    return libcst, plugin


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_both_front_ends_lower_corpus_functions_to_the_same_ir(
    lowered: tuple[dict[Key, ir.Block], dict[Key, set[ir.Block]]],
) -> None:
    libcst, plugin = lowered
    common = sorted(set(libcst) & set(plugin))
    assert len(common) >= 100, f"too few functions lowered by both front ends: {len(common)}"
    differing = []
    for key in common:
        expected = _normalized(libcst[key])
        if any(_normalized(body) != expected for body in plugin[key]):
            differing.append(key)
    assert sorted(set(differing) - set(IR_EXCEPTIONS)) == [], "IR differs between the front ends"
    assert sorted(set(IR_EXCEPTIONS) - set(differing)) == [], "pinned exceptions that no longer differ"


def test_tile_launch_moves_are_the_only_event_difference(
    lowered: tuple[dict[Key, ir.Block], dict[Key, set[ir.Block]]],
) -> None:
    """Without the event normalization, the differing functions are exactly those with a grouped move."""
    libcst, plugin = lowered

    def grouped(block: ir.Block) -> bool:
        return any(isinstance(v, ir.Move) and v.event >= 0 for v in _flatten(block))

    for key in sorted(set(libcst) & set(plugin)):
        if key in IR_EXCEPTIONS:
            continue
        assert all(body == libcst[key] for body in plugin[key]) != grouped(libcst[key]), key


def _flatten(block: ir.Block) -> Iterator[ir.Op]:
    for op in block:
        yield op
        if isinstance(op, ir.Branch):
            for arm in op.arms:
                yield from _flatten(arm)
        elif isinstance(op, ir.Loop):
            for part in (op.head, op.body, op.orelse):
                yield from _flatten(part)
        elif isinstance(op, ir.Try):
            for part in (op.body, *op.handlers, op.orelse, op.finalbody):
                yield from _flatten(part)
        elif isinstance(op, ir.Unsafe):
            yield from _flatten(op.body)
