"""`kernel.asm` / `kernel.inspect(...)`: the compiled stages from Python, as Triton's `compiled.asm` (issue 25 item 8).

The stages must be what `safekernels build --emit` writes for the same kernel (one pipeline), inspection must not
move a tile launch's values, and a missing specialization is a clear `TypeError`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from safekernels import simt, tile
from safekernels.asm import KernelAsm
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "cpu")


def test_simt_kernel_asm_has_every_stage() -> None:
    asm = vecadd.asm
    assert isinstance(asm, KernelAsm) and list(asm) == ["llvm", "ptx", "sass"]
    assert asm.arch == "sm_90"  # no GPU: the compiler's default architecture
    assert "define" in asm["llvm"] and asm["llir"] == asm["llvm"]
    assert ".target sm_90" in asm["ptx"] and f".entry {asm.entry}" in asm["ptx"]
    assert asm.cubin.startswith(b"\x7fELF")
    assert asm["sass"].startswith("kernel vecadd (sm_90)") and "registers/thread" in asm["sass"]
    with pytest.raises(KeyError, match="stages: llvm, ptx, sass"):
        asm["ttir"]


def test_simt_inspect_for_another_architecture() -> None:
    assert ".target sm_80" in vecadd.inspect(arch="sm_80")["ptx"]
    with pytest.raises(ValueError, match="sm_12"):
        vecadd.inspect(arch="sm_12")


def test_simt_asm_is_what_safekernels_build_writes(tmp_path: Path) -> None:
    from safekernels.codegen.build_cli import main as build_main

    source = Path(__file__).read_text(encoding="utf-8").split("\n\n@tile.kernel", 1)[0]  # the SIMT kernel only
    (tmp_path / "kernels.py").write_text(source, encoding="utf-8")
    assert (
        build_main([str(tmp_path / "kernels.py"), "--emit", "ptx", "-o", str(tmp_path / "out"), "-q", "--no-check"])
        == 0
    )
    assert (tmp_path / "out" / "vecadd.ptx").read_text() == vecadd.asm["ptx"]


def test_tile_inspect_from_launch_values_moves_nothing() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    asm = add.inspect(z, x, y)
    assert ".entry" in asm["ptx"] and asm.cubin.startswith(b"\x7fELF")
    stream = __import__("safekernels").Device.cpu().new_stream()
    z, x, y = add(z, x, y).sync_on(stream)  # the values are still the caller's
    assert float(z.unpartition().to_numpy(stream)[0]) == 2.0


def test_tile_inspect_from_specs_and_the_declared_specialization() -> None:
    specs = (tile.spec(1024, f32, tile=128), tile.spec(1024, f32), tile.spec(1024, f32))
    assert add.inspect(*specs)["ptx"] == add.inspect(*specs)["ptx"]
    with pytest.raises(TypeError, match=r"add\.asm needs one specialization: the kernel declares 0"):
        _ = add.asm

    @tile.kernel
    def scale(z: Partition[f32], x: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) * 2.0)

    tile.specialize(scale, tile.spec(256, f32, tile=64), tile.spec(256, f32))
    assert ".entry" in scale.asm["ptx"]
    with pytest.raises(TypeError, match="2 arguments expected"):
        scale.inspect(tile.spec(256, f32, tile=64))
    with pytest.raises(TypeError, match="Partition"):
        scale.inspect(tile.spec(256, f32), tile.spec(256, f32))
