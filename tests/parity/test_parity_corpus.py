"""The parity rule on the repository's own kernels (docs/tile.md "CPU/GPU parity").

Every module-level tile kernel in tests/, examples/ and bench/ is tried with a few specializations: the CPU
executor either runs it (a data-dependent trap counts as running) and then the GPU compiler must produce PTX
that nvJitLink assembles for sm_90 (no GPU needed), or both refuse it with the same SK code.  Every SIMT kernel
must compile too, except the named negative fixtures below, each refused with the SK code it exists for.
"""

from __future__ import annotations

import pytest
from kernel_corpus import collect, compile_for_gpu, run_on_cpu, tile_candidates

TILES, SIMTS, SKIPPED = collect()

#: SIMT kernels that exist to be refused (checker fixtures for E0133, executor tests of CPU-only code), with
#: the SK code the compiler must give.  The CPU executor refuses the E0133 ones too (UnsafeOperationError at
#: run time); every other refusal comes from the compiler's front end, which the CPU executor runs first.
KNOWN_SIMT_REJECTIONS = {
    "tests/checker_cases/e0133_device_helper_does_not_inherit.py:uses_helper": "SK005",
    "tests/checker_cases/e0133_get_unchecked_mut.py:fast_copy": "SK005",
    "tests/checker_cases/e0133_lookalike_unsafe_does_not_count.py:pretend": "SK001",
    "tests/checker_cases/e0133_shared_array_element_access.py:stage": "SK005",
    "tests/checker_cases/e0133_shared_array_parameter_of_device_helper.py:staged_copy": "SK005",
    "tests/checker_cases/e0133_unannotated_device_helper_parameter_given_a_shared_array.py:row_sum": "SK005",
    "tests/checker_cases/e0133_shared_array_outside_unsafe.py:block_sum": "SK005",
    "tests/checker_cases/e0133_unsafe_block_ends.py:two_buffers": "SK005",
    "tests/simt/test_simt_executor.py:shared_without_unsafe": "SK005",
    # a held-out checker program whose bug is the kernel's own shared-array read outside `with simt.unsafe()`
    "tests/checker_fresh/programs/r15_shared_read_after_block.py:block_sum": "SK005",
    "tests/checker_fresh/programs/at11_carillon_bell_harmonics.py:bell_energy": "SK005",
    "tests/checker_fresh/programs/au11_violin_bow_pressure.py:stroke_deviation": "SK005",
    # held-out programs whose bug is a `@simt.device` helper reading a shared array its caller's block covers
    "tests/checker_fresh/programs/ae09_embedding_row_norms_helper_unsafe.py:row_sumsq": "SK005",
    "tests/checker_fresh/programs/af07_sphere_ray_march.py:march": "SK005",
    "tests/checker_fresh/programs/ag10_image_pyramid.py:downsample": "SK005",
    "tests/checker_fresh/programs/an03_wafer_inspection.py:wafer_yield": "SK005",
    "tests/checker_fresh/programs/bh09_particles_energy.py:leapfrog": "SK005",  # the helper's array, a line early
    "tests/checker_fresh/programs/bj09_softmax_shared.py:row_softmax": "SK005",  # the helper indexes it unsafely
    "tests/checker_fresh/programs/bl23_async_softmax_driver.py:row_softmax": "SK005",  # helper: array outside unsafe
    "tests/checker_fresh/programs/bm23_exposure_metering.py:zone_meter": "SK005",  # helper indexes it unsafely
    "tests/checker_fresh/programs/bn09_return_histogram_shared.py:return_hist": "SK005",  # helper: array outside
    "tests/tile_codegen/test_fp8_dtypes.py:simt_reads_fp8": "SK011",  # fp8 is tile-kernel storage (both refuse)
    "tests/fixtures/lsp/unsafe_block.before.py:block_copy": "SK005",  # the checker's autofix fixtures
    "tests/fixtures/lsp/unsafe_block.after.py:block_copy": "SK003",  # `print(array)`: prints numbers only
    # fresh programs refused alike by both executors (a typed int with a float literal, u64 with a signed int)
    "tests/fresh_kernels/fresh_simt_programs.py:int_times_float_literal": "SK003",
    "tests/fresh_kernels/fresh_simt_programs.py:unsigned_with_signed": "SK003",
    "tests/fresh_kernels/fresh3_simt_programs.py:recursive": "SK009",  # recursion, direct and mutual
    "tests/fresh_kernels/fresh3_simt_programs.py:mutually_recursive": "SK009",
}


def test_the_corpus_is_the_whole_repository() -> None:
    wheres = {f.where.split(":")[0] for f in TILES}
    assert len(TILES) >= 60 and len(SIMTS) >= 100, (len(TILES), len(SIMTS))
    assert {"examples/add_tile.py", "examples/embedding_bag_tile.py", "bench/kernels/tile_kernels.py"} <= wheres
    unexplained = [path for path in SKIPPED if not _is_a_script(path) and not _needs_a_framework(path)]
    assert unexplained == [], f"kernel files the corpus could not import: {unexplained}"


#: Checker cases written as module-level scripts: importing one runs its (deliberately wrong) launches.
SCRIPTS = {
    "tests/checker_cases/clean_module_level_script.py",
    "tests/checker_cases/e0382_module_level_script.py",
    "tests/checker_cases/e0502_module_level_simt_launch.py",
    "tests/checker_cases/e0382_global_moved_in_function.py",
    "tests/checker_cases/e0382_class_decorator_forwards_call.py",
    "tests/checker_cases/e0502_attribute_registry_of_hooks.py",
    "tests/checker_cases/e0502_inherited_method_runs_subclass_override.py",
    "tests/checker_cases/e0502_method_from_mixin_override.py",
    "tests/checker_cases/e0502_partial_items_of_comprehension.py",
    "tests/checker_cases/e0382_namedtuple_fields_iterated.py",
    "tests/checker_cases/e0382_reduce_helper_moves_accumulator.py",
    "tests/checker_cases/e0308_subclass_kernel_with_base_prepared_launch.py",
    "tests/checker_cases/e0502_base_method_called_on_receiver.py",
    "tests/checker_cases/e0502_class_body_kernel_of_subclass.py",
    "tests/checker_cases/e0502_super_method_runs_on_receiver.py",
}


def _is_a_script(path: str) -> bool:
    """A named checker script, or a fresh-evaluation program with a deliberate ownership bug (its first line
    expects a diagnostic: it runs its launches when imported, and the runtime raises as the test there expects)."""
    if path in SCRIPTS:
        return True
    if not path.startswith("tests/checker_fresh/programs/"):
        return False
    from kernel_corpus import ROOT

    first = (ROOT / path).read_text(encoding="utf-8").split("\n", 1)[0]
    return first.startswith("# fresh-expect: ") and first != "# fresh-expect: clean"


def _needs_a_framework(path: str) -> bool:
    """A file that imports torch or JAX (optional, absent in CI) may be skipped where they are not installed."""
    import importlib.util
    import re

    from kernel_corpus import ROOT

    text = (ROOT / path).read_text(encoding="utf-8")
    imports = set(re.findall(r"^\s*(?:import|from)\s+(torch|jax)\b", text, re.MULTILINE))
    imports |= set(re.findall(r"importorskip\(\s*[\"'](torch|jax)\b", text))
    return any(importlib.util.find_spec(name) is None for name in imports)


@pytest.mark.parametrize("found", TILES, ids=[f.where for f in TILES])
def test_tile_kernel_cpu_and_gpu_accept_the_same_programs(found: object) -> None:
    kernel = found.kernel  # type: ignore[attr-defined]
    tried = 0
    for cand in tile_candidates(kernel):
        tried += 1
        cpu, cpu_detail = run_on_cpu(kernel, cand)
        gpu, gpu_detail = compile_for_gpu(kernel, cand)
        assert cpu == gpu, f"CPU {cpu} ({cpu_detail}) but GPU {gpu} ({gpu_detail}) for {cand}"
        if cpu == "reject" and "DiagnosticError" in cpu_detail:
            assert gpu_detail in cpu_detail, (cpu_detail, gpu_detail)
        if tried == 2:
            break
    if tried == 0:
        pytest.skip("no specialization passes the launch check (Dims need shapes this corpus does not make)")


@pytest.mark.parametrize("found", SIMTS, ids=[f.where for f in SIMTS])
def test_simt_kernel_compiles_or_is_a_named_negative_fixture(found: object) -> None:
    from ownership_check.diagnostics import DiagnosticError
    from safekernels import codegen

    where = found.where  # type: ignore[attr-defined]
    expected = KNOWN_SIMT_REJECTIONS.get(where)
    try:
        compiled = codegen.compile_simt_kernel(found.kernel, arch="sm_90")  # type: ignore[attr-defined]
    except DiagnosticError as exc:
        codes = {d.code for d in exc.diagnostics}
        assert expected is not None and expected in codes, f"{where} refused: {exc}"
        return
    assert expected is None, f"{where} compiles now: drop it from KNOWN_SIMT_REJECTIONS"
    assert compiled.cubin
