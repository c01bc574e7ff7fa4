"""`sk.load_prebuilt(dir)`: what `safekernels build` wrote loads without llvmlite, keeps the launch checks,
and refuses edited files.  The GPU launch itself is in tests/codegen/test_gpu_device_io.py."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import safekernels as sk

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("prebuilt")
    for example in ("add_tile.py", "vecadd_simt.py"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "safekernels",
                "build",
                str(ROOT / "examples" / example),
                "--emit",
                "cubin",
                "-o",
                str(out / example),
                "--no-check",
                "-q",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
    return out


def test_loads_without_llvmlite_and_keeps_the_checks(built: Path) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        import safekernels as sk
        from safekernels import tile, simt
        from safekernels.dtypes import f32
        kernels = sk.load_prebuilt({str(built / "add_tile.py")!r})
        try:
            kernels.add(tile.zeros((64,), f32), tile.ones((64,), f32), tile.ones((64,), f32))
        except TypeError as exc:
            print("refused:", exc)
        simt_kernels = sk.load_prebuilt({str(built / "vecadd_simt.py")!r})
        (name,) = list(simt_kernels)
        k = simt_kernels[name]
        try:
            k.prepare(simt.LaunchConfig1D(grid=1, block=7), sk.Device.cpu())
        except simt.LaunchContractError as exc:
            print("contract:", str(exc)[:40])
        print("llvmlite" in sys.modules)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("refused: add: parameter `z` is a Partition")
    assert lines[1].startswith("contract:")
    assert lines[-1] == "False"


def test_edited_cubin_is_refused(built: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(built / "add_tile.py", copy)
    cubin = copy / "add.cubin"
    data = cubin.read_bytes()
    cubin.write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))
    with pytest.raises(sk.PrebuiltError, match="checksum mismatch"):
        sk.load_prebuilt(copy)
    with pytest.raises(sk.PrebuiltError, match="not a usable prebuilt folder"):
        sk.load_prebuilt(tmp_path / "missing")


def test_prebuilt_kernels_refuse_the_cpu_executor(built: Path) -> None:
    from safekernels import tile
    from safekernels.dtypes import f32

    kernels = sk.load_prebuilt(built / "add_tile.py")
    op = kernels.add(tile.zeros((256,), f32).partition((128,)), tile.ones((256,), f32), tile.ones((256,), f32))
    with pytest.raises(sk.DeviceError, match="prebuilt kernels run on a GPU"):
        op.sync_on(sk.Device.cpu().new_stream())


def test_a_build_without_cubins_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "safekernels",
            "build",
            str(ROOT / "examples" / "add_tile.py"),
            "--emit",
            "ptx",
            "-o",
            str(tmp_path),
            "--no-check",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["add.ptx", "manifest.json"]
    with pytest.raises(sk.PrebuiltError, match="built without its cubin"):
        sk.load_prebuilt(tmp_path)


def test_a_built_manifest_records_the_persistent_grid_and_fast_math(tmp_path: Path) -> None:
    """The launcher of a prebuilt kernel needs what the compiler decided (one CTA per SM for the persistent
    fp8 GEMM) and what the kernel asked for (`fast_math` on the attention kernel)."""
    import json

    source = ROOT / "bench" / "kernels" / "tensor_core_kernels.py"
    cmd = [sys.executable, "-m", "safekernels", "build", str(source), "--emit", "cubin", "-o", str(tmp_path)]
    result = subprocess.run([*cmd, "--no-check", "-q"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    entries = {e["name"]: e for e in json.loads((tmp_path / "manifest.json").read_text())["kernels"]}
    assert entries["gemm_fp8"]["persistent"] is True and entries["gemm_fp8"]["fast_math"] is False
    assert entries["attention"]["persistent"] is False and entries["attention"]["fast_math"] is True
    kernels = sk.load_prebuilt(tmp_path)
    assert kernels.gemm_fp8.prebuilt.entries[0].persistent and not kernels.attention.prebuilt.entries[0].persistent
    assert kernels.attention.fast_math and not kernels.gemm_fp8.fast_math
