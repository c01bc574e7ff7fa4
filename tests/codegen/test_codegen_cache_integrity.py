"""Issue 15 items 12-14: cache keys cover closures and globals, the whole record is checksummed and validated,
non-ASCII kernel names are mangled, and kernel definition errors are located SK diagnostics."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from safekernels import codegen, simt
from safekernels.codegen.cache import MAGIC
from safekernels.dtypes import f32
from safekernels.errors import KernelDefinitionError
from safekernels.simt import DisjointSlice, Slice, thread


def make(scale: float) -> Any:
    @simt.kernel
    @simt.launch_contract(block=32)
    def scaled(a: Slice[f32], c: DisjointSlice[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if (out := c.get_mut(idx)) is not None:
            out.set(a[i] * scale)

    return scaled


@simt.kernel
@simt.launch_contract(block=32)
def by_namespace(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * 2.0)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_closure_values_are_part_of_the_key(cache: Path) -> None:
    three = codegen.compile_simt_kernel(make(3.0))
    five = codegen.compile_simt_kernel(make(5.0))
    assert not five.from_cache
    assert "0f40400000" in three.ptx and "0f40A00000" in five.ptx  # 3.0 and 5.0 as f32 immediates
    assert codegen.compile_simt_kernel(make(5.0)).from_cache


def _entry(cache: Path) -> Path:
    (entry,) = sorted(cache.glob("*.skc"))
    return entry


def _edit_header(entry: Path, edit: Any) -> None:
    data = entry.read_bytes()
    end = data.index(b"\n", len(MAGIC))
    header = json.loads(data[len(MAGIC) : end])
    edit(header)
    entry.write_bytes(MAGIC + json.dumps(header).encode() + data[end:])


@pytest.mark.parametrize(
    "edit",
    [
        lambda h: h["meta"].__setitem__("block", [1024, 1, 1]),
        lambda h: h["meta"].__setitem__("entry", "other"),
        lambda h: h["meta"].pop("plan"),
        lambda h: h.pop("meta"),
        lambda h: h.__setitem__("lengths", "x"),
    ],
    ids=["block", "entry", "missing-plan", "missing-meta", "bad-lengths"],
)
def test_edited_or_incomplete_header_is_a_miss_that_rebuilds(cache: Path, edit: Any) -> None:
    good = codegen.compile_simt_kernel(by_namespace)
    _edit_header(_entry(cache), edit)
    rebuilt = codegen.compile_simt_kernel(by_namespace)
    assert not rebuilt.from_cache and rebuilt.block == good.block == (32, 1, 1)
    assert rebuilt.entry_name == "by_namespace"
    assert codegen.compile_simt_kernel(by_namespace).from_cache


def test_a_header_that_is_not_json_is_a_miss(cache: Path) -> None:
    codegen.compile_simt_kernel(by_namespace)
    entry = _entry(cache)
    entry.write_bytes(MAGIC + b"{not json\n" + b"x" * 10)
    assert not codegen.compile_simt_kernel(by_namespace).from_cache


def test_non_ascii_kernel_name_is_mangled(tmp_path: Path) -> None:
    source = textwrap.dedent(
        """
        from safekernels import simt
        from safekernels.simt import Slice, DisjointSlice, thread
        from safekernels.dtypes import f32
        from safekernels import codegen

        @simt.kernel
        @simt.launch_contract(block=32)
        def vecadd_é(a: Slice[f32], c: DisjointSlice[f32]) -> None:
            idx = thread.index_1d()
            i = idx.get()
            if (out := c.get_mut(idx)) is not None:
                out.set(a[i])

        compiled = codegen.compile_simt_kernel(vecadd_é, use_cache=False)
        print(compiled.entry_name, len(compiled.cubin) > 0)
        """
    )
    script = tmp_path / "uni.py"
    script.write_text(source, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    name, ok = result.stdout.split()
    assert name.isascii() and name.startswith("_sk_vecadd_") and ok == "True"


@pytest.mark.parametrize(
    ("source", "code", "line", "column"),
    [
        ("@simt.kernel\ndef k(a, c: DisjointSlice[f32]) -> None:\n    pass\n", "SK011", 2, 7),
        ("@simt.kernel\ndef k(*args) -> None:\n    pass\n", "SK011", 2, 8),
        ("@simt.kernel\ndef k(a: Slice[str]) -> None:\n    pass\n", "SK011", 2, 7),
        ("k = simt.kernel(lambda a: None)\n", "SK010", 1, 17),
        (
            "@simt.kernel\n@simt.launch_contract(block=32, requires=('len(a) >>> n',))\n"
            "def k(a: Slice[f32], n: int) -> None:\n    pass\n",
            "SK012",
            2,
            43,
        ),
    ],
    ids=["unannotated", "star-args", "slice-of-str", "lambda", "bad-requires"],
)
def test_definition_errors_are_located_sk_diagnostics(
    tmp_path: Path, source: str, code: str, line: int, column: int
) -> None:
    header = "from safekernels import simt\nfrom safekernels.simt import Slice, DisjointSlice\n"
    header += "from safekernels.dtypes import f32\n"
    path = tmp_path / "defs.py"
    path.write_text(header + source)
    namespace: dict[str, Any] = {}
    with pytest.raises((KernelDefinitionError, simt.LaunchContractError)) as info:
        exec(compile(path.read_text(), str(path), "exec"), namespace)
    err: Any = info.value
    assert err.code == code
    assert (err.path, err.line, err.column) == (str(path), line + 3, column)
    assert f"{path}:{line + 3}:{column}" in str(err)


class Settings:
    FACTOR = 3.0


@simt.kernel
@simt.launch_contract(block=32)
def by_setting(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * Settings.FACTOR)


def test_namespace_constants_are_part_of_the_key(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    three = codegen.compile_simt_kernel(by_setting)
    monkeypatch.setattr(Settings, "FACTOR", 5.0)
    five = codegen.compile_simt_kernel(by_setting)
    assert not five.from_cache and "0f40400000" in three.ptx and "0f40A00000" in five.ptx
