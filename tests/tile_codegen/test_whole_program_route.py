"""Without a GPU: which kernels take the driver's whole-program route (`codegen.whole_program`), that their
nvJitLink cubins still assemble, the wgmma operand fence a whole-program ptxas needs, and the attention loop
with a producer warpgroup (`warpspec.ATTENTION`).

Where a CUDA toolkit's `ptxas` is installed (not a dependency: CI has none), the PTX is also compiled both
ways to show what the route is for: `ptxas -c` (what nvJitLink runs) ignores `setmaxnreg` (C7504), a
whole-program `ptxas` honours it and injects no `warpgroup.arrive` (C7519/C7520).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from safekernels.codegen import whole_program  # noqa: E402
from safekernels.codegen.tile import warpspec, wgmma  # noqa: E402
from safekernels.codegen.tile.pipeline import cache_key, compile_tile, validate_tile_meta  # noqa: E402
from safekernels.codegen.tile.specialize import param_info  # noqa: E402
from safekernels.dtypes import dtype_of  # noqa: E402

BF16, F32, I32 = (dtype_of(n) for n in ("bf16", "f32", "i32"))


def _gemm(n: int = 1024) -> Any:
    from bench.kernels import tile_kernels as K

    spec = [("partition", BF16, (n, n), (K.BM, K.BN)), ("tensor", BF16, (n, n), None), ("tensor", BF16, (n, n), None)]
    params = [param_info(f"p{i}", kd, dt, sh, t) for i, (kd, dt, sh, t) in enumerate(spec)]
    return compile_tile(K.gemm_bf16.fn, params, 2, arch="sm_90a", use_cache=False)


def _attention(d: int = 128) -> Any:
    from bench.kernels import attention_plain as P

    kern = P.make_attention_plain(128, 128, d)
    n = 4096
    spec: list[tuple[str, Any, tuple[int, ...], tuple[int, int] | None]] = [("partition", BF16, (n, d), (128, d))]
    spec += [("tensor", BF16, (n, d), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]
    params = [param_info(f"p{i}", kd, dt, sh, t) for i, (kd, dt, sh, t) in enumerate(spec)]
    return compile_tile(kern.fn, params, 1, arch="sm_90a", use_cache=False, fast_math=True, num_warps=8)


def _writes_between_fence_and_wgmma(ptx: str) -> int:
    """Writes to a wgmma's accumulator / A registers between the `wgmma.fence` and that wgmma."""
    count = 0
    for chunk in ptx.split("wgmma.fence.sync.aligned;")[1:]:
        before, _, after = chunk.partition("wgmma.mma_async")
        operands = set(re.findall(r"%r\d+", after.split(";", 1)[0]))
        written = re.findall(r"^\s*\w[\w.]*\s+(%r\d+),", before, flags=re.M)
        count += sum(1 for r in written if r in operands)
    return count


@pytest.fixture
def gemm_ws(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warpspec, "ENABLED", True)


@pytest.fixture
def attention_ws(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warpspec, "ATTENTION", True)


@pytest.mark.usefixtures("gemm_ws")
def test_setmaxnreg_kernels_take_the_driver_route_and_still_assemble() -> None:
    c = _gemm()
    assert "setmaxnreg.inc" in c.ptx and c.route == "driver"
    assert c.cubin[:4] == b"\x7fELF"  # nvJitLink's cubin: the check CI runs without a GPU


@pytest.mark.usefixtures("gemm_ws")
def test_the_route_is_opt_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(whole_program, "ENABLED", False)
    assert _gemm().route == "nvjitlink"


def test_kernels_without_setmaxnreg_keep_nvjitlink() -> None:
    c = _gemm()
    assert "setmaxnreg" not in c.ptx and c.route == "nvjitlink"


def test_cache_key_and_record_name_the_route(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.kernels import tile_kernels as K

    params = [param_info("p0", "partition", BF16, (256, 256), (K.BM, K.BN))]
    on = cache_key(K.gemm_bf16.fn, params, 2, "sm_90a", None)
    monkeypatch.setattr(whole_program, "ENABLED", False)
    assert cache_key(K.gemm_bf16.fn, params, 2, "sm_90a", None) != on
    meta = {"name": "k", "arch": "sm_90a", "threads": 384, "smem": 0, "abi": [], "asserts": [], "route": "driver"}
    assert validate_tile_meta(meta)
    assert not validate_tile_meta({**meta, "route": "elsewhere"})


@pytest.mark.usefixtures("gemm_ws")
def test_no_register_writes_between_the_wgmma_fence_and_the_wgmma(monkeypatch: pytest.MonkeyPatch) -> None:
    # the peeled first iteration's zero accumulators used to be copied in after the fence (127 `mov.b32`),
    # which a whole-program ptxas answers with an injected `warpgroup.arrive` and serialized wgmma
    assert _writes_between_fence_and_wgmma(_gemm().ptx) == 0
    monkeypatch.setattr(wgmma, "FENCE_OPERANDS", False)
    assert _writes_between_fence_and_wgmma(_gemm().ptx) > 0


@pytest.mark.usefixtures("attention_ws")
@pytest.mark.parametrize("d", [128, 64])
def test_attention_loop_gets_a_producer_warpgroup(d: int) -> None:
    c = _attention(d)
    ptx = c.ptx
    assert c.threads == 384 and c.route == "driver" and ".maxntid 384" in ptx
    dec = ptx.index(f"setmaxnreg.dec.sync.aligned.u32 {warpspec.SYNC_PRODUCER_REGS};")
    inc = ptx.index(f"setmaxnreg.inc.sync.aligned.u32 {warpspec.SYNC_CONSUMER_REGS};")
    copies = [m.start() for m in re.finditer(r"cp\.async\.bulk\.tensor", ptx)]
    assert copies and all(dec < at < inc for at in copies)  # only the producer issues the K/V copies
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1  # one CTA barrier, before the fork; none in the loop
    assert _writes_between_fence_and_wgmma(ptx) == 0


def test_attention_without_the_switch_is_unchanged() -> None:
    c = _attention()
    assert c.threads == 256 and c.route == "nvjitlink" and "setmaxnreg" not in c.ptx


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="no CUDA toolkit ptxas on this machine (optional)")
@pytest.mark.usefixtures("gemm_ws", "attention_ws")
@pytest.mark.parametrize("kernel", ["gemm", "attention"])
def test_whole_program_ptxas_honours_setmaxnreg(tmp_path: Path, kernel: str) -> None:
    c = _gemm() if kernel == "gemm" else _attention()
    src = tmp_path / "k.ptx"
    src.write_text(c.ptx)
    ptxas = str(shutil.which("ptxas"))

    def run(*flags: str) -> str:
        done = subprocess.run([ptxas, *flags, "-arch=sm_90a", "-v", str(src), "-o", str(tmp_path / "k.o")],
                              capture_output=True, text=True, check=True)  # fmt: skip
        return done.stdout + done.stderr

    relocatable, whole = run("-c"), run()
    assert "C7504" in relocatable
    assert not re.search(r"C75(04|19|20)", whole), whole
    assert whole_program.registers_used(whole) == [168]  # the entry cap of 384 threads: setmaxnreg in force


@pytest.mark.usefixtures("attention_ws")
def test_producer_warpgroup_with_ping_pong_consumers(monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.codegen.tile import wgmma_sync

    monkeypatch.setattr(wgmma_sync, "PINGPONG", True)
    ptx = _attention().ptx
    inc = ptx.index("setmaxnreg.inc")
    # after the fork, warpgroup 1 hands warpgroup 0 the first turn; each turn is a named barrier over the 256
    # consumers (barriers 2 and 3), never the producer's threads
    turns = [m.start() for m in re.finditer(r"bar\.(sync|arrive) %r\d+, 256;|bar\.arrive 2, 256;", ptx)]
    assert turns and min(turns) > inc
