"""A warm disk-cache hit loads no compiler: a fresh process gets a kernel's PTX and cubin from the cache without
importing llvmlite, the front ends, the lowering or libnvJitLink (`codegen.pipeline`, `codegen.toolchain`).

The hit is the real one a GPU launch takes (`compile_simt_kernel`, `compile_tile`), run without a GPU: a first
process compiles and fills a temporary cache, a second, fresh one asks again and reports `sys.modules`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from safekernels.codegen import toolchain
from safekernels.codegen.cubin import nvjitlink_version
from safekernels.codegen.pipeline import tool_versions

KERNELS = """
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=128)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))
"""

CHILD = textwrap.dedent(
    """
    import json, sys
    from warm_kernels import add, vecadd
    from safekernels.dtypes import dtype_of

    class Spec:
        def __init__(self, shape, tiles=None):
            self.shape, self.dtype, self.tile_shape, self.buffer = shape, dtype_of("f32"), tiles, None

    from safekernels import codegen
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import specialize

    simt = codegen.compile_simt_kernel(vecadd, arch="sm_90")
    infos, grid = specialize(add, [Spec((1024,), (128,)), Spec((1024,)), Spec((1024,))])
    tiled = compile_tile(add.fn, infos, grid, arch="sm_90")
    heavy = ("llvmlite", "cuda.bindings.nvjitlink", "safekernels.codegen.frontend.builder",
             "safekernels.codegen.lowering", "safekernels.codegen.ptx", "safekernels.codegen.tile.frontend",
             "safekernels.codegen.tile.lower")
    print(json.dumps({
        "hits": [simt.from_cache, tiled.from_cache],
        "cubins": [simt.cubin[:4].hex(), tiled.cubin[:4].hex()],
        "entry_in_ptx": [".entry" in simt.ptx, ".entry" in tiled.ptx],
        "loaded": [m for m in heavy if m in sys.modules],
    }))
    """
)


def _run(tmp_path: Path) -> dict[str, object]:
    env = dict(os.environ, SAFEKERNELS_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SAFEKERNELS_NO_CACHE", None)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_warm_cache_hit_imports_no_compiler(tmp_path: Path) -> None:
    (tmp_path / "warm_kernels.py").write_text(KERNELS)
    cold = _run(tmp_path)
    assert cold["hits"] == [False, False]  # the first process compiled (and so loaded the compiler)
    assert "llvmlite" in cold["loaded"]  # type: ignore[operator]
    warm = _run(tmp_path)
    assert warm["hits"] == [True, True]
    assert warm["cubins"] == ["7f454c46", "7f454c46"] and warm["entry_in_ptx"] == [True, True]
    assert warm["loaded"] == []


def test_tool_versions_come_from_distribution_metadata() -> None:
    import importlib.metadata

    versions = tool_versions()
    assert versions["llvmlite"] == importlib.metadata.version("llvmlite")
    wheel = importlib.metadata.version("nvidia-nvjitlink")
    assert nvjitlink_version() == versions["nvjitlink"]
    assert f"nvidia-nvjitlink={wheel}" in versions["nvjitlink"]
    assert f"cuda-bindings={importlib.metadata.version('cuda-bindings')}" in versions["nvjitlink"]


def test_distribution_versions_from_dist_info_and_egg_info(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Fancy_Tool-1.2.3.dist-info").mkdir()
    legacy = tmp_path / "old_tool.egg-info"
    legacy.mkdir()
    (legacy / "PKG-INFO").write_text("Metadata-Version: 1.0\nName: old-tool\nVersion: 0.9\n\nVersion: 5\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing")])
    toolchain._installed.cache_clear()
    try:
        assert toolchain.distribution_version("fancy-tool") == "1.2.3"
        assert toolchain.distribution_version("FANCY.tool") == "1.2.3"
        assert toolchain.distribution_version("old_tool") == "0.9"
        assert toolchain.distribution_version("llvmlite") is None
    finally:
        toolchain._installed.cache_clear()
