"""The runtime is the oracle for the checker's golden cases of issue 20 / 22 (one error case and its clean twin per
class): on the CPU executor each error case raises the runtime's own twin of its code exactly at the line marked
`# expect:`, and each clean twin runs to the end.

A case with several markers is run once per marker, the other marked lines replaced by `pass` (line numbers
kept), so every marked line is shown to raise on its own.  The checker's side is the golden test
(`tests/checker_golden`) and the front-end parity test (`tests/mypy_plugin/test_parity.py`) over the same files.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tokenize
from pathlib import Path
from types import ModuleType

import pytest

from safekernels.errors import AliasingError, BorrowError, BrandError, UnsafeOperationError, UseAfterMoveError

CASES = Path(__file__).resolve().parents[1] / "checker_cases"
MARKER = re.compile(r"#\s*expect:\s*(E\d{4})")

#: The runtime's twin of each checker code (E0502/E0499: `AliasingError` within one launch, `BorrowError` against a
#: pending op's loan).
TWINS: dict[str, type[Exception] | tuple[type[Exception], ...]] = {
    "E0502": (AliasingError, BorrowError),
    "E0499": (AliasingError, BorrowError),
    "E0382": UseAfterMoveError,
    "E0505": BorrowError,
    "E0133": UnsafeOperationError,
    "E0308": BrandError,
}

#: Class -> (error case, clean twin); a directory case runs its `host.py`.
PAIRS: dict[str, tuple[str, str]] = {
    "1 autotuned SIMT launch": ("e0502_autotune_simt_launch", "clean_autotune_simt_launch"),
    "2 tile kernel body": ("e0382_tile_kernel_body_partition", "clean_tile_kernel_body_partition"),
    "3 conditional argument": ("e0502_conditional_argument", "clean_conditional_argument"),
    "3 or argument": ("e0502_or_argument", "clean_or_argument"),
    "3 containers, walrus, helpers": ("e0502_container_and_helper_arguments", "clean_container_and_helper_arguments"),
    "3 conditional tile argument": ("e0382_conditional_tile_argument", "clean_conditional_tile_argument"),
    "4a attribute places": ("e0505_pending_attribute_places", "clean_pending_attribute_places"),
    "4b moved into a chain": ("e0505_pending_moved_into_chain", "clean_pending_moved_into_chain"),
    "5 SharedArray parameter": (
        "e0133_shared_array_parameter_of_device_helper", "clean_shared_array_parameter_of_device_helper"
    ),
    "6a shared op": ("e0382_shared_op_source_reused", "clean_shared_op_read_twice"),
    "6b after a splat": ("e0502_scalar_after_star_args", "clean_scalar_after_star_args"),
    "6c for over a display": ("e0382_for_over_tuple_unpartition", "clean_for_over_tuple_unpartition"),
    "7 type aliases": ("e0502_type_alias_parameters", "clean_type_alias_parameters"),
    "7 kernel in a function": ("e0502_kernel_defined_in_function", "clean_kernel_defined_in_function"),
    "7/J star imports": ("e0502_star_import_and_reexport", "clean_star_import_and_reexport"),
    "8 tile autotune call": ("e0382_tile_autotune_call_moves", "clean_tile_autotune_call_moves"),
    "9 unreachable to mypy": ("e0502_launch_mypy_thinks_unreachable", "clean_launch_mypy_thinks_unreachable"),
    "10 unpacked sync_on": ("e0382_move_inside_unpacked_sync_on", "clean_move_inside_unpacked_sync_on"),
    "J re-export chain": ("e0502_reexport_chain_deep", "clean_reexport_chain_deep"),
    "K NFKC identifiers": ("e0502_nfkc_identifiers", "clean_nfkc_identifiers"),
    "L latin-1 source": ("e0502_latin1_source", "clean_latin1_source"),
    "table: as_buffer aliases": ("e0502_as_buffer_aliases", "clean_as_buffer_aliases"),
    "table: to moves a buffer": ("e0382_to_moves_buffer", "clean_to_returned_buffer"),
    "table: to while borrowed": ("e0505_to_while_async_borrowed", "clean_to_after_sync"),
    "table: to of other libraries": ("e0382_to_moves_buffer", "clean_to_of_other_libraries"),
    "fresh: as_buffer method lends": (
        "e0505_as_buffer_method_while_async_borrowed", "clean_as_buffer_method_after_sync"
    ),
    "fresh: shared of an Any value": (
        "e0382_unannotated_param_passed_twice_to_tile_launch", "clean_shared_of_unannotated_param_passed_twice"
    ),
    "fresh: views of an Any value": (
        "e0502_views_of_unannotated_param_overlap", "clean_views_of_unannotated_param_disjoint"
    ),
    "surface: an op's value is its launch's buffers": (
        "e0502_sync_on_returns_launch_buffers", "clean_sync_on_returns_launch_buffers"
    ),
    "fresh: dict display items": ("e0502_dict_display_items", "clean_dict_display_items"),
    "fresh: symbolic view bounds": ("e0502_symbolic_view_bounds", "clean_symbolic_view_bounds"),
    "fresh: loop items of one list": ("e0502_loop_items_of_one_list", "clean_loop_items_of_one_list"),
    "fresh: kernel factory result": ("e0502_kernel_factory_result", "clean_kernel_factory_result"),
    "fresh: view of a conditional base": ("e0502_view_of_conditional_base", "clean_view_of_conditional_base"),
    "surface: view argument temporary": (
        "e0382_view_argument_then_loop_moves", "clean_view_argument_then_loop_rebinds"
    ),
    "surface: nested function's captured aliases": (
        "e0502_nested_function_captured_aliases", "clean_nested_function_captured_aliases"
    ),
    "fresh r: a closure's capture rebound by the caller": (
        "e0502_closure_capture_rebound_by_caller", "clean_closure_capture_rebound_by_caller"
    ),
    "fresh r: slices a helper returns": (
        "e0499_helper_returns_overlapping_slices", "clean_helper_returns_disjoint_slices"
    ),
    "fresh r: an op stored in a container": ("e0505_op_stored_in_container", "clean_op_stored_in_container"),
    "fresh r: a call through a function value": (
        "e0382_call_through_function_value", "clean_call_through_function_value"
    ),
    "fresh r: an op a generator yields": ("e0505_op_yielded_by_generator", "clean_op_yielded_by_generator"),
    "fresh r: a context manager yielding its parameter": (
        "e0499_contextmanager_yields_parameter", "clean_contextmanager_yields_parameter"
    ),
    "surface: a then chain's values": (
        "e0502_then_chain_values_are_launch_buffers", "clean_then_chain_values_are_launch_buffers"
    ),
    "surface: a helper returns a pending op": ("e0505_helper_returns_pending_op", "clean_helper_returns_pending_op"),
    "surface: nonlocal rebound to a caller's value": (
        "e0502_nonlocal_rebound_to_caller_value", "clean_nonlocal_rebound_to_caller_value"
    ),
    "surface: comprehension items": (
        "e0502_comprehension_items_of_a_display", "clean_comprehension_items_of_a_display"
    ),
    "surface: a helper's pending op under a rebound name": (
        "e0499_helper_pending_op_name_rebound", "clean_helper_pending_op_name_rebound"
    ),
    "surface: a nested function's pending op against captured items": (
        "e0502_nested_function_pending_op_against_captured_items",
        "clean_nested_function_pending_op_against_captured_items",
    ),
    "fresh 4: a partition handed to a kernel": (
        "e0382_partition_result_launched_proves_receiver", "clean_partition_result_launched_proves_receiver"
    ),
    "fresh 4: starred unpacking": ("e0502_starred_unpack_of_container", "clean_starred_unpack_of_container"),
    "fresh 4: a lambda is its own frame": (
        "e0133_unchecked_launch_in_lambda_in_unsafe_block", "clean_unchecked_launch_in_lambda_in_unsafe_block"
    ),
    "fresh 5: picked places bound to a name": ("e0502_bound_picked_places", "clean_bound_picked_places"),
    "fresh 5: a helper returns a tuple": ("e0502_helper_returns_tuple", "clean_helper_returns_tuple"),
    "fresh 5: an alias made in __init__": ("e0502_init_attribute_alias", "clean_init_attribute_alias"),
    "fresh 5: a list grown then splatted": ("e0502_list_grown_then_splatted", "clean_list_grown_then_splatted"),
    "fresh: a comprehension-built list's items": (
        "e0382_comprehension_built_list_items", "clean_comprehension_built_list_items"
    ),
    "fresh: a starred target's items": ("e0502_starred_target_items", "clean_starred_target_items"),
    "fresh: a display nested in a container display": ("e0502_nested_display_items", "clean_nested_display_items"),
    "fresh: match captures bind the subject's items": (
        "e0502_match_captures_subject_items", "clean_match_captures_subject_items"
    ),
    "fresh: literal keys of a comprehension-built dict": (
        "e0502_dict_comprehension_literal_keys", "clean_dict_comprehension_literal_keys"
    ),
    "fresh: constructed fields": ("e0499_constructed_fields", "clean_constructed_fields"),
    "fresh: a pending op a constructor keeps": ("e0505_constructed_pending_op", "clean_constructed_pending_op"),
    "fresh: a property that is an attribute": ("e0502_property_attribute", "clean_property_attribute"),
    "fresh: unpacking through __iter__": ("e0502_iterated_attributes", "clean_iterated_attributes"),
    "fresh: a method moves a receiver's attribute": (
        "e0382_method_moves_receiver_attribute", "clean_method_moves_receiver_attribute"
    ),
    "fresh: a pending op a method leaves on self": (
        "e0505_pending_op_kept_by_method", "clean_pending_op_kept_by_method"
    ),
    "fresh: functools.partial of a launch": ("e0502_partial_of_launch", "clean_partial_of_launch"),
    "parity: sync_on of an op the checker cannot name": (
        "e0382_sync_on_of_op_the_checker_cannot_name", "clean_sync_on_of_op_the_checker_cannot_name"
    ),
    "fresh: map applies a callable per item": (
        "e0382_map_applies_callable_per_item", "clean_map_applies_callable_per_item"
    ),
    "fresh: a function factory's result": ("e0382_function_factory_result", "clean_function_factory_result"),
    "fresh: a forwarding decorator": ("e0382_forwarding_decorator", "clean_forwarding_decorator"),
    "fresh: a global moved in a function": ("e0382_global_moved_in_function", "clean_global_moved_in_function"),
    "fresh v: slices a method returns of its receiver": (
        "e0499_method_returns_receiver_slices", "clean_method_returns_receiver_slices"
    ),
    "fresh w: a dict item partitioned inline": (
        "e0382_dict_item_partitioned_inline", "clean_dict_item_partitioned_inline"
    ),
    "fresh w: a memoizing getter's item": ("e0382_memoizing_getter_item", "clean_memoizing_getter_item"),
    "fresh w: a splat of a dict's values into zip": (
        "e0382_zip_splat_of_dict_values", "clean_zip_splat_of_dict_values"
    ),
    "fresh x: captures of a class pattern": (
        "e0502_match_class_pattern_captures", "clean_match_class_pattern_captures"
    ),
    "fresh x: a helper's launch beside a raise": (
        "e0502_helper_launch_beside_raise", "clean_helper_launch_beside_raise"
    ),
    "fresh x: an item taken out of a queue or a heap": ("e0502_container_taken_item", "clean_container_taken_item"),
    "generator: builtins beside a callable object": (
        "e0382_callable_object_beside_builtins", "clean_builtin_calls_beside_a_callable_object"
    ),
    "generator: a nested function's own names": (
        "e0382_nested_function_moves_the_callers_value", "clean_nested_function_binds_its_own_names"
    ),
    "generator: a property read beside a nested function's own name": (
        "e0502_property_read_beside_a_nested_functions_own_name",
        "clean_property_reads_beside_a_nested_functions_own_name",
    ),
    "fresh bb: a repetition unpacked": (
        "e0499_unpacked_repetition_of_one_buffer", "clean_unpacked_displays_of_two_buffers"
    ),
    "fresh: a kernel table and prepared launches under one key": (
        "e0308_kernel_table_and_prepared_launches_under_one_key",
        "clean_kernel_table_and_prepared_launches_under_one_key",
    ),
    "generator: a helper returning an operator argument": (
        "e0502_helper_returns_an_operator_argument", "clean_helper_returns_an_operator_argument"
    ),
    "fresh bb: pending ops on each loop item's field": (
        "e0499_pending_ops_of_one_loop_items_field", "clean_pending_ops_of_each_loop_items_field"
    ),
    "fresh bb: fields of states a method keeps": (
        "e0502_field_of_a_state_a_method_keeps_aliased", "clean_swapped_fields_of_states_a_method_keeps"
    ),
    "fresh bc: an allocator an attribute holds": (
        "e0499_allocator_an_attribute_holds_hands_out_overlapping_views", "clean_bump_allocator_an_attribute_holds"
    ),
    "fresh bc: a pending op kept beside a new buffer": (
        "e0505_pending_op_kept_beside_a_new_buffer_across_methods",
        "clean_pending_op_kept_beside_a_new_buffer_run_first",
    ),
    "generator: call arguments through dict.get and next": (
        "e0502_call_arguments_through_dict_get_and_next", "clean_call_arguments_through_dict_get_and_next"
    ),
    "fresh bd: a pool handing back its argument": (
        "e0502_pool_hands_back_its_argument", "clean_pool_hands_back_a_new_buffer"
    ),
    "generator: a helper wrapped by an untyped decorator": (
        "e0502_helper_wrapped_by_an_untyped_decorator", "clean_helper_wrapped_by_an_untyped_decorator"
    ),
    "generator: a helper returning parts of call arguments": (
        "e0502_helper_returns_parts_of_call_arguments", "clean_helper_returns_parts_of_call_arguments"
    ),
    "fresh be: frames of a packed history down a descending counter": (
        "e0502_frames_of_a_packed_history_offset_by_the_wrong_stride",
        "clean_frames_of_a_packed_history_offset_by_the_stride",
    ),
    "fresh be: ping-pong attributes a method swaps around a pending op": (
        "e0505_ping_pong_attribute_a_method_moves_while_an_op_reads_it",
        "clean_ping_pong_attributes_a_method_swaps_around_a_pending_op",
    ),
    "fresh be: an attribute a method moves and rebinds only on some paths": (
        "e0382_attribute_a_method_moves_and_rebinds_only_on_some_paths",
        "clean_attribute_a_method_moves_and_rebinds_on_every_path",
    ),
    "generator: a nonlocal op tested right after its binding": (
        "e0382_nonlocal_op_tested_after_another_call", "clean_nonlocal_op_tested_right_after_its_binding"
    ),
    "fresh bg: the items of an enumerated generator": (
        "e0505_item_of_an_enumerated_generator_moved_while_its_op_borrows_it",
        "clean_item_of_an_enumerated_generator_moved_after_its_op_ran",
    ),
    "fresh bd: items of a list a loop appended a moved handle to": (
        "e0382_item_of_a_list_a_loop_appended_a_moved_handle_to", "clean_item_of_a_list_a_loop_appended_a_copy_to"
    ),
    "fresh bg: items a helper's loop moved and left in the dict": (
        "e0382_item_a_helper_loop_moved_read_after_the_call", "clean_items_a_helper_loop_moved_stored_back"
    ),
    "fresh bh: a cached property's prepared launch used for another kernel": (
        "e0308_cached_property_prepared_for_another_kernel", "clean_cached_property_prepared_for_each_kernel"
    ),
    "fresh bi: an unchecked launch on an attribute typed Any": (
        "e0133_unchecked_launch_on_an_untyped_attribute", "clean_unchecked_launch_on_an_untyped_attribute"
    ),
    "fresh bi: __init__ stores a helper's dict of one buffer": (
        "e0499_init_stores_a_helper_dict_of_one_buffer", "clean_init_stores_a_helper_dict_of_a_buffer_per_key"
    ),
    "fresh bi: __init__ stores a dict display of one buffer": (
        "e0499_init_stores_a_dict_display_of_one_buffer", "clean_init_stores_a_dict_display_of_two_buffers"
    ),
    "fresh bi: a subclass __init__ calling super() prepares the base class's kernel": (
        "e0308_subclass_init_through_super_prepares_the_base_kernel",
        "clean_subclass_init_through_super_prepares_its_own_kernel",
    ),
    "fresh bj: an inherited method of a registered subclass launches its kernel": (
        "e0308_inherited_method_of_a_registered_subclass", "clean_inherited_method_of_a_registered_subclass"
    ),
    "generator: a base method launches its kernel with a subclass's prepared launch": (
        "e0308_base_method_runs_with_a_subclass_prepared_launch",
        "clean_base_method_runs_with_a_subclass_prepared_launch",
    ),
    "fresh bk: an attribute bound through a local alias of its object": (
        "e0502_attribute_bound_through_a_local_alias", "clean_attribute_rebound_through_a_local_alias"
    ),
    "fresh bk: a hand-written cache whose key is built through locals": (
        "e0499_cache_key_through_a_local_shares_a_prefix", "clean_cache_key_through_a_local"
    ),
    "fresh bk: a pending op left in an attribute on one path out of a method": (
        "e0505_pending_op_left_in_an_attribute_on_one_path", "clean_pending_op_left_in_an_attribute_on_one_path"
    ),
    "fresh bl: a pool counting its hits in the lookup's else": (
        "e0502_pool_counting_hits_in_an_else_keyed_by_size", "clean_pool_counting_hits_in_an_else_keyed_by_tag"
    ),
    "fresh bk: a repeated buffer read through properties of an object outside its class": (
        "e0502_repeated_buffer_read_through_properties_of_an_object",
        "clean_buffers_read_through_properties_of_an_object",
    ),
    "generator: a nested function given a view of the output it captures": (
        "e0502_nested_function_given_a_view_of_its_captured_output",
        "clean_nested_function_given_views_of_another_buffer",
    ),
    "generator: a loop over classes constructs objects, it runs no __call__": (
        "e0502_loop_over_classes_constructs_objects", "clean_loop_over_classes_constructs_objects"
    ),
    "generator: a nested function picks a kernel for a captured prepared launch": (
        "e0308_nested_function_picks_a_kernel_for_a_captured_launch",
        "clean_nested_function_picks_a_kernel_with_its_launch",
    ),
    "fresh bn: a property and __getitem__ reading one column in one method": (
        "e0502_property_and_getitem_read_one_column", "clean_property_and_getitem_read_two_columns"
    ),
    "a keyword registry's items read through __getitem__": (
        "e0502_keyword_registry_items_read_through_getitem", "clean_keyword_registry_items_read_through_getitem"
    ),
    "fresh bi: a kernel bound from a table under the prepared launch's key": (
        "e0308_kernel_bound_from_a_table_under_the_launch_key", "clean_kernel_bound_from_a_table_under_the_launch_key"
    ),
    "fresh bi: a method reads items another method's loop moved": (
        "e0382_method_reads_items_another_method_moved", "clean_method_reads_items_another_method_stored_back"
    ),
    "fresh bj: __init__ aliases an attribute under a flag": (
        "e0499_init_aliases_an_attribute_under_a_flag", "clean_init_aliases_an_attribute_under_a_flag"
    ),
    "fresh bj: an unannotated device helper parameter given a shared array": (
        "e0133_unannotated_device_helper_parameter_given_a_shared_array",
        "clean_unannotated_device_helper_parameter_given_a_shared_array",
    ),
    "generator: a walrus argument whose name a later argument binds again": (
        "e0502_walrus_name_rebound_by_a_later_argument", "clean_walrus_name_rebound_by_a_later_argument"
    ),
    "fresh bh: a pool looking its buffer up with get hands it out twice": (
        "e0499_pool_getting_its_buffer_by_size_hands_it_out_twice", "clean_pool_getting_its_buffer_by_size_and_slot"
    ),
    "fresh bh: pending ops kept in a dict display drained by pop": (
        "e0505_pending_op_in_a_dict_display_drained_by_pop", "clean_pending_ops_in_a_dict_display_drained_before_a_move"
    ),
    "fresh bn: a static method called on an object moves its argument": (
        "e0382_static_method_called_on_an_object_moves_its_argument",
        "clean_static_method_called_on_an_object_moves_its_argument",
    ),
    "fresh bn: a static method returns views of the caller's buffer": (
        "e0499_static_method_returns_overlapping_views", "clean_static_method_returns_disjoint_views"
    ),
    "fresh br: a callee runs another object's held ops before it moves": (
        "e0505_callee_moves_before_flushing_held_ops", "clean_callee_flushes_held_ops_before_moving"
    ),
    "fresh bq: a hand-written cache keyed by fields of the object it is given": (
        "e0499_cache_keyed_by_fields_of_its_argument", "clean_cache_keyed_by_fields_of_its_argument"
    ),
    "generator: a helper returns another helper's views": (
        "e0502_helper_returns_another_helpers_views", "clean_helper_returns_another_helpers_views"
    ),
    "fresh br: a launch cache an attribute holds prepares for the kernel it is given": (
        "e0308_launch_cache_held_by_an_attribute", "clean_launch_cache_held_by_an_attribute"
    ),
    "fresh bi: a generator method the caller iterates moves its receiver's items": (
        "e0382_generator_method_moves_receiver_items", "clean_generator_method_moves_receiver_items"
    ),
    "fresh bp: an escaping closure moves a captured local": (
        "e0382_escaping_closure_moves_captured_local", "clean_escaping_closure_moves_captured_local"
    ),
    "fresh bp: a test chain without else falls through to a stale name": (
        "e0382_test_chain_falls_through_to_stale_name", "clean_test_chain_falls_through_to_stale_name"
    ),
    "fresh bo: a memoised call read, then moved by a call whose key may be equal": (
        "e0382_memoized_call_read_then_moved_across_runs", "clean_memoized_call_read_then_moved_across_runs"
    ),
    "fresh bo: an initializer stores views of its argument": (
        "e0502_initializer_stores_views_of_its_argument", "clean_initializer_stores_views_of_its_argument"
    ),
    "fresh bo: a dataclass's __post_init__ stores views of a base moved later": (
        "e0382_dataclass_post_init_views_of_a_moved_base", "clean_dataclass_post_init_views_of_a_moved_base"
    ),
    "fresh bp: a gathered coroutine reads on some paths": (
        "e0502_gathered_coroutine_reads_on_some_path", "clean_gathered_coroutine_reads_on_some_path"
    ),
}


def _entry(case: str) -> Path:
    path = CASES / case
    return path / "host.py" if path.is_dir() else path.with_suffix(".py")


def _source(path: Path) -> str:
    with tokenize.open(path) as handle:
        return handle.read()


def _copy(case: str, tmp_path: Path, keep_line: int | None) -> Path:
    """The case in `tmp_path` (with its sibling modules), every marked line but `keep_line` replaced by `pass`."""
    source_dir = CASES / case if (CASES / case).is_dir() else CASES
    target = tmp_path / case
    target.mkdir()
    entry = _entry(case)
    if (CASES / case).is_dir():
        for file in (CASES / case).rglob("*.py"):
            if "__pycache__" not in file.parts:
                destination = target / file.relative_to(source_dir)
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(file.read_bytes())
    lines = _source(entry).splitlines()
    for number, line in enumerate(lines, start=1):
        if MARKER.search(line) and number != keep_line:
            lines[number - 1] = line[: len(line) - len(line.lstrip())] + "pass"
    path = target / f"runnable_{case}.py"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(path: Path) -> None:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    sys.modules[path.stem] = module
    before = set(sys.modules)
    try:
        spec.loader.exec_module(module)
        module.main()
    finally:
        sys.path.remove(str(path.parent))
        for name in set(sys.modules) - before:  # the case's own modules (`pkg`, `m00`...): other cases reuse names
            if getattr(sys.modules[name], "__file__", None) and str(path.parent) in str(sys.modules[name].__file__):
                del sys.modules[name]
        del sys.modules[path.stem]


@pytest.fixture(autouse=True)
def _private_tuning_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path / "cache"))


def _markers(case: str) -> list[tuple[int, str]]:
    return [
        (number, match.group(1))
        for number, line in enumerate(_source(_entry(case)).splitlines(), start=1)
        if (match := MARKER.search(line))
    ]


#: Error cases whose markers are at calls of a nested function (`ir.Borrow.call`): the runtime raises at the nested
#: launch, one frame below the marked call.
REPORTED_AT_CALL: frozenset[str] = frozenset(
    {
        "e0502_nested_function_captured_aliases",
        "e0502_closure_capture_rebound_by_caller",
        "e0382_call_through_function_value",  # the function the value runs moves its argument into a launch
        "e0502_nested_function_given_a_view_of_its_captured_output",  # a view argument against a capture
    }
)

ERROR_RUNS = [(label, pair[0], line, code) for label, pair in PAIRS.items() for line, code in _markers(pair[0])]


@pytest.mark.parametrize(("label", "case", "line", "code"), ERROR_RUNS, ids=[f"{r[0]}:{r[2]}" for r in ERROR_RUNS])
def test_each_error_case_raises_its_runtime_twin_at_the_marked_line(
    label: str, case: str, line: int, code: str, tmp_path: Path
) -> None:
    path = _copy(case, tmp_path, keep_line=line)
    with pytest.raises(TWINS[code]) as excinfo:
        _run(path)
    frames = [entry for entry in excinfo.traceback if Path(str(entry.path)) == path]
    assert frames, f"{label}: raised outside the case\n{excinfo.getrepr()}"
    lines = [frame.lineno + 1 for frame in frames]
    if case in REPORTED_AT_CALL:
        # the conflict the caller's names make between a nested function's captures: marked at the call, under
        # which the nested launch raises (or, for a call that runs one known function, at that launch itself)
        assert line in lines, f"{label}: raised under the calls at lines {lines}, marked {line}"
        return
    assert lines[-1] == line, f"{label}: raised at line {lines[-1]}, marked {line}"


@pytest.mark.parametrize(("label", "case"), [(label, pair[1]) for label, pair in PAIRS.items()], ids=list(PAIRS))
def test_each_clean_twin_runs(label: str, case: str, tmp_path: Path) -> None:
    assert _markers(case) == [], label
    _run(_copy(case, tmp_path, keep_line=None))


def test_every_issue_case_is_a_golden_case() -> None:
    for error, clean in PAIRS.values():
        assert _entry(error).exists() and _entry(clean).exists()
