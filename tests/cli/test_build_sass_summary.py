"""`safekernels build --emit sass-summary`, `--quiet`, progress; the cubin/SASS parsers on fixtures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from safekernels.codegen.sass_summary import (
    ElfFormatError,
    classify,
    format_summary,
    parse_cubin,
    parse_ptxas_log,
    parse_sass,
    summarize,
)

KERNELS = """
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * 2.0)


@simt.kernel
@simt.launch_contract(block=128)
def staged(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    with simt.unsafe():
        s = simt.shared_array(f32, 128)
        s[t] = a[i] if i < len(a) else f32(0.0)
    thread.sync_threads()
    if (out := c.get_mut(idx)) is not None:
        with simt.unsafe():
            out.set(s[127 - t])
"""


def _build(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "kernels.py"
    source.write_text(KERNELS)
    env = dict(os.environ, SAFEKERNELS_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run(
        [sys.executable, "-m", "safekernels", "build", str(source), "-o", str(tmp_path / "out"), *extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_sass_summary_reports_registers_spills_and_shared_memory(tmp_path: Path) -> None:
    proc = _build(tmp_path, "--emit", "sass-summary")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    scale = (tmp_path / "out" / "scale.sass-summary.txt").read_text()
    staged = (tmp_path / "out" / "staged.sass-summary.txt").read_text()
    assert scale in proc.stdout and staged in proc.stdout
    assert "spills            0 bytes stored, 0 bytes loaded" in scale
    assert "shared memory     512 bytes static" in staged  # 128 f32
    assert "required block    (128, 1, 1)" in staged
    assert "\r" not in proc.stderr  # no progress line when stderr is not a terminal
    for text in (scale, staged):
        registers = next(line for line in text.splitlines() if "registers/thread" in line).split()[-1]
        assert registers.isdigit() and 4 <= int(registers) <= 255
        if "instruction mix" not in text.split("unavailable", 1)[0]:
            assert "nvdisasm" in text  # said clearly what is missing


def test_elf_registers_agree_with_ptxas(tmp_path: Path) -> None:
    from safekernels.codegen import compile_simt_kernel
    from safekernels.codegen.sass_summary import ptxas_report

    source = tmp_path / "k.py"
    source.write_text(KERNELS)
    import importlib.util

    spec = importlib.util.spec_from_file_location("sass_summary_kernels", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sass_summary_kernels"] = module
    spec.loader.exec_module(module)
    for kernel in (module.scale, module.staged):
        compiled = compile_simt_kernel(kernel, use_cache=False)
        elf = parse_cubin(compiled.cubin)[compiled.entry_name]
        report = ptxas_report(compiled.ptx, "sm_90", kernel.name)
        assert elf.registers == report.registers
        assert elf.instruction_slots is not None and elf.instruction_slots > 4


def test_quiet_prints_nothing_and_still_writes(tmp_path: Path) -> None:
    proc = _build(tmp_path, "--emit", "ptx", "--emit", "sass-summary", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "manifest.json",
        "scale.ptx",
        "scale.sass-summary.txt",
        "staged.ptx",
        "staged.sass-summary.txt",
    ]


SASS = """
        code for sm_90
                Function : scale
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/              @!P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;
        /*0030*/                   LDG.E R6, desc[UR4][R2.64] ;
        /*0040*/                   HMMA.16816.F32 R8, R12, R16, R8 ;
        /*0050*/                   FFMA R6, R6, 2, RZ ;
        /*0060*/                   STG.E.64 desc[UR4][R2.64], R6 ;
        /*0070*/                   EXIT ;
        /*0080*/                   BRA 0x80;
        /*0090*/                   NOP;
"""


def test_sass_mix_counts_vector_widths_and_tensor_cores() -> None:
    mix = parse_sass(SASS, "cuobjdump")
    assert mix.counts["LDG.128"] == 1 and mix.counts["LDG.32"] == 1 and mix.counts["STG.64"] == 1
    assert mix.counts["HMMA"] == 1 and mix.counts["FFMA"] == 1 and mix.counts["control"] == 2
    assert mix.total == 9  # NOP is padding
    assert classify("ATOMG.E.ADD.F32") == "ATOM/RED"


def test_ptxas_log_parser() -> None:
    log = (
        "ptxas info    : Function properties for k\n"
        "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
        "ptxas info    : Used 40 registers, used 1 barriers\n"
        "info    : used 40 registers, used 1 barriers, 16 stack, 1024 bytes smem, 560 bytes cmem[0], "
        "0 bytes lmem\n"
    )
    report = parse_ptxas_log(log)
    assert (
        report.registers,
        report.stack_frame_bytes,
        report.spill_store_bytes,
        report.spill_load_bytes,
    ) == (
        40,
        16,
        8,
        4,
    )
    assert report.shared_bytes == 1024 and report.constant_bytes == 560


def test_garbage_cubin_is_reported_as_unavailable_not_a_crash() -> None:
    with pytest.raises(ElfFormatError):
        parse_cubin(b"not an elf")
    summary = summarize("k", "k", "sm_90", "not ptx", b"\x7fELF garbage")
    text = format_summary(summary)
    assert "registers/thread  unavailable" in text
    assert "ELF metadata" in text and "ptxas report" in text


TWO_ENTRIES_LOG = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'scale_x4' for 'sm_90'
ptxas info    : Function properties for scale_x4
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, used 0 barriers
ptxas info    : Compiling entry function 'scale' for 'sm_90'
ptxas info    : Function properties for scale
ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers
"""


def test_a_report_names_the_entry_asked_for_when_the_module_has_two() -> None:
    """A SIMT module carries the kernel and its coarsened twin: each entry's figures, never the other's."""
    scale = parse_ptxas_log(TWO_ENTRIES_LOG, "scale")
    assert (scale.registers, scale.stack_frame_bytes, scale.spill_store_bytes) == (10, 8, 4)
    twin = parse_ptxas_log(TWO_ENTRIES_LOG, "scale_x4")
    assert (twin.registers, twin.stack_frame_bytes) == (14, 0)
    assert parse_ptxas_log("ptxas info    : Used 7 registers", "k").registers == 7  # a log naming no function
