"""On the GPU (`pytest -m gpu`): device print text equals the CPU executor's, a failed assert is a
`KernelAssertionError` naming kernel, file:line, message and thread, the new atomics agree with numpy,
`sk.load_prebuilt` launches a built cubin, and line info reaches the cubin.  Each device-side scenario runs in
a subprocess (a trapped kernel leaves the CUDA context unusable).  Must import neither libcst nor mypy."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, AtomicSlice, thread
from safekernels.dtypes import f32, i32, u32

@simt.kernel
@simt.launch_contract(block=32)
def report(a: Slice[f32], c: DisjointSlice[f32], h: AtomicSlice[u32], cas: AtomicSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i == 5:
        print("i=%d a=%.3f neg=%x u=%u %%", i, a[i], i32(-3), u32(7))
        print("first element", a[i], "at", i, "u", u32(7), "100%")
    h.fetch_or(0, u32(1) << u32(i), order="acq_rel", scope="block")
    h.fetch_xor(1, u32(1) << u32(i), order="seq_cst", scope="system")
    h.fetch_and(2, ~(u32(1) << u32(i)), order="release")
    cas.compare_exchange(0, i32(0), i32(i) + i32(1), order="acquire", scope="device")
    assert a[i] < 100.0, "a too big"
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])

dev = sk.Device.cpu() if sys.argv[1] == "cpu" else sk.Device(0)
stream = dev.new_stream()
values = np.arange(32, dtype=np.float32)
if sys.argv[2] == "fail":
    values[17] = 500.0
a = sk.to_device(values, stream)
c = sk.zeros(32, f32, stream)
h = sk.to_device(np.array([0, 0, 0xFFFFFFFF], np.uint32), stream)
cas = sk.zeros(1, i32, stream)
try:
    report.launch(report.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev), stream, a, c, h, cas)
    got = h.to_numpy(stream).tolist(), int(cas.to_numpy(stream)[0]) > 0
    sys.stdout.flush()
    print("RESULT", got)
except sk.KernelAssertionError as exc:
    sys.stdout.flush()
    print("ASSERT", exc.kernel, exc.line, exc.message, "thread (17, 0, 0)" in str(exc) or "thread (" in str(exc))
"""


def run(device: str, mode: str, tmp_path: Path) -> str:
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    result = subprocess.run(
        [sys.executable, str(script), device, mode], capture_output=True, text=True, timeout=300, env=env
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_print_and_atomics_match_the_cpu_executor(tmp_path: Path) -> None:
    gpu = run("gpu", "ok", tmp_path)
    cpu = run("cpu", "ok", tmp_path)
    assert gpu == cpu
    assert "i=5 a=5.000 neg=fffffffffffffffd u=7 %\n" in gpu
    assert "first element 5.000000 at 5 u 7 100%\n" in gpu  # Python's form, the same text on both
    assert "RESULT ([4294967295, 4294967295, 0], True)" in gpu


def test_failed_assert_is_a_kernel_assertion_error(tmp_path: Path) -> None:
    line = PROGRAM.splitlines().index('    assert a[i] < 100.0, "a too big"') + 1
    gpu = run("gpu", "fail", tmp_path)
    assert f"ASSERT report {line} a too big True" in gpu
    cpu = run("cpu", "fail", tmp_path)
    assert f"ASSERT report {line} a too big True" in cpu


def test_load_prebuilt_launches_on_the_gpu(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "safekernels",
            "build",
            str(ROOT / "examples" / "add_tile.py"),
            "--emit",
            "cubin",
            "-o",
            str(out),
            "--no-check",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert built.returncode == 0, built.stderr
    script = textwrap.dedent(
        f"""
        import sys
        import numpy as np
        import safekernels as sk
        from safekernels import tile
        kernels = sk.load_prebuilt({str(out)!r})
        dev = sk.Device(0)
        stream = dev.new_stream()
        a = np.arange(100_000, dtype=np.float32)
        z = tile.zeros((100_000,), np.float32).partition((128,))
        z, x, y = kernels.add(z, tile.from_numpy(a), tile.from_numpy(a)).sync_on(stream)
        np.testing.assert_array_equal(z.unpartition().to_numpy(stream), 2 * a)
        print("OK", "llvmlite" in sys.modules)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "OK False"


def test_line_info_names_the_python_file() -> None:
    from safekernels import codegen, simt
    from safekernels.dtypes import f32
    from safekernels.simt import DisjointSlice, Slice, thread

    @simt.kernel
    @simt.launch_contract(block=32)
    def copy(a: Slice[f32], c: DisjointSlice[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if (out := c.get_mut(idx)) is not None:
            out.set(a[i])

    compiled = codegen.compile_simt_kernel(copy, use_cache=False, line_info=True)
    assert f'.file\t1 "{__file__}"' in compiled.ptx and ".loc\t1" in compiled.ptx
    assert ".target sm_90\n" in compiled.ptx  # no `, debug`: ptxas optimizes as usual
    assert Path(__file__).name.encode() in compiled.cubin  # nvJitLink -lineinfo kept the line table


def test_load_prebuilt_simt_kernel_launches_on_the_gpu(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "safekernels",
            "build",
            str(ROOT / "examples" / "vecadd_simt.py"),
            "--emit",
            "cubin",
            "-o",
            str(out),
            "--no-check",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert built.returncode == 0, built.stderr
    script = textwrap.dedent(
        f"""
        import sys
        import numpy as np
        import safekernels as sk
        from safekernels import simt
        kernels = sk.load_prebuilt({str(out)!r})
        dev = sk.Device(0)
        stream = dev.new_stream()
        n = 100_003
        a = sk.to_device(np.arange(n, dtype=np.float32), stream)
        c = sk.to_device(np.full(n, np.nan, np.float32), stream)
        prepared = kernels.vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
        kernels.vecadd.launch(prepared, stream, a, a, c)
        np.testing.assert_array_equal(c.to_numpy(stream), 2 * np.arange(n, dtype=np.float32))
        try:
            kernels.vecadd.launch(prepared, stream, a, a, a)
        except sk.AliasingError:
            print("aliasing refused")
        print("OK", "llvmlite" in sys.modules)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split("\n")[-3:-1] == ["aliasing refused", "OK False"]


TILE_PROGRAM = """
import sys
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32], s: f32) -> None:
    b = tile.bid(0)
    print("block %d of n=%d s=%.2f", b, x.shape[0], s)
    assert b < 3, "too many blocks"
    z.store(tile.load_like(x, z) * s)

dev = sk.Device.cpu() if sys.argv[1] == "cpu" else sk.Device(0)
stream = dev.new_stream()
n = 256 if sys.argv[2] == "ok" else 512
try:
    z, x, s = scale(tile.zeros((n,), f32).partition((128,)), tile.ones((n,), f32), 2.0).sync_on(stream)
    total = float(z.unpartition().to_numpy(stream).sum())
    sys.stdout.flush()
    print("RESULT", total)
except sk.KernelAssertionError as exc:
    sys.stdout.flush()
    print("ASSERT", exc.kernel, exc.line, exc.message)
"""


def test_tile_print_and_assert_match_the_cpu_executor(tmp_path: Path) -> None:
    script = tmp_path / "tile_program.py"
    script.write_text(TILE_PROGRAM)
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    outputs = {}
    for device in ("gpu", "cpu"):
        for mode in ("ok", "fail"):
            result = subprocess.run(
                [sys.executable, str(script), device, mode], capture_output=True, text=True, timeout=300, env=env
            )
            assert result.returncode == 0, result.stderr[-3000:]
            outputs[device, mode] = result.stdout
    ok = outputs["gpu", "ok"]
    assert sorted(ok.splitlines()) == sorted(outputs["cpu", "ok"].splitlines())
    assert "RESULT 512.0" in ok and "block 1 of n=256 s=2.00" in ok
    line = TILE_PROGRAM.splitlines().index('    assert b < 3, "too many blocks"') + 1
    assert f"ASSERT scale {line} too many blocks" in outputs["gpu", "fail"]
    assert f"ASSERT scale {line} too many blocks" in outputs["cpu", "fail"]
