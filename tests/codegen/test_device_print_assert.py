"""Device print / assert and the new SIMT atomics: CPU executor output, PTX shape, SK diagnostics."""

from __future__ import annotations

import numpy as np
import pytest

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import codegen, simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.simt.device_print import device_format, format_device_print


@simt.kernel
@simt.launch_contract(block=4)
def report(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i == 2:
        print("i=%d a=%.2f neg=%x %%", i, a[i], i32(-1))
    assert a[i] < 100.0, "a too big"
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])


@simt.kernel
@simt.launch_contract(block=8)
def bits(h: AtomicSlice[u32], cas: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    h.fetch_or(0, u32(1) << u32(i), order="acq_rel", scope="block")
    h.fetch_and(1, ~(u32(1) << u32(i)))
    h.fetch_xor(2, u32(1) << u32(i), order="seq_cst", scope="system")
    h.exchange(3, u32(i))
    cas.compare_exchange(0, i32(0), i32(i) + i32(1), order="acquire")


def _run_report(values: list[float]) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.array(values, np.float32), stream)
    c = sk.zeros(4, f32, stream)
    report.launch(report.prepare(simt.LaunchConfig1D.for_len(4, block=4), dev), stream, a, c)


def test_cpu_print_matches_the_gpu_format(capsys: pytest.CaptureFixture[str]) -> None:
    _run_report([1, 2, 3, 4])
    assert capsys.readouterr().out == "i=2 a=3.00 neg=ffffffffffffffff %\n"
    assert device_format("i=%d a=%.2f neg=%x %%") == "i=%lld a=%.2f neg=%llx %%\n"
    assert format_device_print("%5.1e|%-4u|", (1234.5, 7)) == "1.2e+03|7   |"


def test_failed_assert_names_kernel_line_message_and_thread() -> None:
    with pytest.raises(sk.KernelAssertionError) as info:
        _run_report([1, 2, 3, 400])
    err = info.value
    assert err.kernel == "report" and err.message == "a too big" and err.path == __file__
    assert str(err).startswith(f"report: assertion failed at {__file__}:{err.line}: a too big (thread (3, 0, 0)")
    assert "assert a[i] < 100.0" in open(__file__).read().splitlines()[err.line - 1]


def test_asserts_compile_out_under_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    on = codegen.compile_simt_kernel(report, use_cache=False)
    assert "__assertfail" in on.ptx and "vprintf" in on.ptx and on.meta["asserts"]
    monkeypatch.setenv("SAFEKERNELS_DISABLE_ASSERTS", "1")
    off = codegen.compile_simt_kernel(report, use_cache=False)
    assert "__assertfail" not in off.ptx and off.meta["asserts"] == []
    report._cpu_cache.clear()
    try:
        _run_report([1, 2, 3, 400])  # the assert is gone on the CPU too
    finally:
        report._cpu_cache.clear()


def test_atomics_on_the_cpu_and_in_ptx() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    h = sk.to_device(np.array([0, 0xFF, 0, 0], np.uint32), stream)
    cas = sk.zeros(1, i32, stream)
    bits.launch(bits.prepare(simt.LaunchConfig1D.for_len(8, block=8), dev), stream, h, cas)
    assert h.to_numpy(stream).tolist() == [0xFF, 0, 0xFF, 7]
    assert cas.to_numpy(stream).tolist() == [1]  # thread 0 won the compare-exchange
    ptx = codegen.compile_simt_kernel(bits, use_cache=False).ptx
    for needle in ("atom.global.or.b32", "atom.global.and.b32", "atom.global.xor.b32", "atom.global.exch.b32"):
        assert needle in ptx
    assert "cas.b32" in ptx and "fence.acq_rel.cta" in ptx and "fence.sc.sys" in ptx


def _kernel_with(body: str) -> object:
    namespace: dict[str, object] = {}
    source = (
        "from safekernels.simt import Slice, AtomicSlice, thread\nfrom safekernels.dtypes import f32, u32\n"
        f"def k(a: Slice[f32], h: AtomicSlice[u32]) -> None:\n    i = thread.index_1d().get()\n    {body}\n"
    )
    import linecache

    linecache.cache["<sk-test>"] = (len(source), None, source.splitlines(True), "<sk-test>")
    exec(compile(source, "<sk-test>", "exec"), namespace)
    return namespace["k"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('print("%d", a[i])', "SK003"),
        ('print("%s", i)', "SK008"),
        ('print("%d %d", i)', "SK006"),
        ("print(a)", "SK003"),  # Python's form: numbers and string literals only
        ("assert i < 3, i", "SK008"),
        ('h.fetch_add(0, u32(1), order="sloppy")', "SK008"),
        ('h.fetch_add(0, u32(1), scope="grid")', "SK008"),
        ("h.fetch_add(0, u32(1), ordr=1)", "SK006"),
    ],
)
def test_bad_print_assert_atomic_are_sk_diagnostics(body: str, code: str) -> None:
    with pytest.raises(DiagnosticError) as info:
        codegen.compile_simt_kernel(_kernel_with(body), use_cache=False)
    assert info.value.diagnostics[0].code == code
