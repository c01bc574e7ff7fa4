"""Device `print` in Python's (numba's) form: `print("first element", x[i])`, on both executors and both tracks.

The front end rewrites it into a printf format from the values' types; the CPU executor picks each value's
conversion from its numpy type.  Each dtype's format is checked to be the same on both sides (the front end's
`vprintf` format against the one the CPU derives), the CPU's text is captured, and the PTX assembles.
"""

from __future__ import annotations

import dataclasses
import linecache
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import codegen, simt, tile
from safekernels.codegen.frontend import build_module, spec_from_kernel
from safekernels.codegen.ir import nodes as ir
from safekernels.codegen.tile.frontend import build_tile_ir
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import specialize
from safekernels.dtypes import dtype_of, f32, i32, u32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.simt.device_print import PrintText, device_format, python_print_format, value_print_kind
from safekernels.tile import Partition, Tensor

#: dtype -> (two values, the text the CPU and the GPU print for them with "%f" / "%d" / "%u")
CASES: dict[str, tuple[list[Any], list[str]]] = {
    "f16": ([1.5, -2.25], ["1.500000", "-2.250000"]),
    "bf16": ([1.5, -2.25], ["1.500000", "-2.250000"]),
    "f32": ([0.1, -1e-7], ["0.100000", "-0.000000"]),
    "f64": ([1e20, 2.5], ["100000000000000000000.000000", "2.500000"]),
    "i8": ([7, -128], ["7", "-128"]),
    "i16": ([7, -3], ["7", "-3"]),
    "i32": ([7, -(2**31)], ["7", "-2147483648"]),
    "i64": ([7, -(2**63)], ["7", "-9223372036854775808"]),
    "u8": ([7, 255], ["7", "255"]),
    "u16": ([7, 65535], ["7", "65535"]),
    "u32": ([7, 2**32 - 1], ["7", "4294967295"]),
    "u64": ([7, 2**64 - 1], ["7", "18446744073709551615"]),
}


def _simt_printer(dt: str) -> Any:
    """A SIMT kernel printing `"v", a[i], "at", i` for a Slice of `dt` (source registered for inspect)."""
    source = (
        "from safekernels.simt import Slice, DisjointSlice, thread\n"
        f"from safekernels.dtypes import f32, {dt}\n"
        f"def printer_{dt}(a: Slice[{dt}], c: DisjointSlice[f32]) -> None:\n"
        "    idx = thread.index_1d()\n"
        "    i = idx.get()\n"
        '    print("v", a[i], "at", i)\n'
        "    if (o := c.get_mut(idx)) is not None:\n"
        "        o.set(f32(0.0))\n"
    )
    filename = f"<print-{dt}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), namespace)
    return simt.kernel(simt.launch_contract(block=2)(namespace[f"printer_{dt}"]))


def _prints(node: Any) -> list[ir.Print]:
    """Every `ir.Print` reachable from a front end result."""
    found: list[ir.Print] = []
    seen: set[int] = set()

    def walk(value: Any) -> None:
        if id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, ir.Print):
            found.append(value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                walk(getattr(value, field.name))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(node)
    return found


def _device_array(dt: str, values: list[Any], stream: Any) -> Any:
    d = dtype_of(dt)
    if d.storage.kind != "f" and d.kind == "f":  # bf16: stored as bit patterns, made from f32 values
        return sk.to_device(np.array(values, np.float32), stream, dtype=d)
    return sk.to_device(np.array(values, d.storage), stream)


@pytest.mark.parametrize("dt", list(CASES))
def test_each_dtype_prints_the_same_format_on_both_executors(dt: str, capsys: pytest.CaptureFixture[str]) -> None:
    kernel = _simt_printer(dt)
    values, texts = CASES[dt]
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = _device_array(dt, values, stream)
    kernel.launch(kernel.prepare(simt.LaunchConfig1D.for_len(2, block=2), dev), stream, a, sk.zeros(2, f32, stream))
    assert capsys.readouterr().out == f"v {texts[0]} at 0\nv {texts[1]} at 1\n"
    (printed,) = _prints(build_module(spec_from_kernel(kernel)))  # what the GPU's vprintf gets
    element = a.to_numpy(stream)[0] if dt != "bf16" else np.float32(values[0])
    cpu_format = python_print_format([PrintText("v"), value_print_kind(element), PrintText("at"), "int"])
    assert printed.format == device_format(cpu_format)
    conversion = "%f" if dtype_of(dt).kind == "f" else "%llu" if dtype_of(dt).kind == "u" else "%lld"
    assert printed.format == f"v {conversion} at %lld\n"


@simt.kernel
@simt.launch_contract(block=4)
def first_element(x: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i == 0:
        print("first element", x[i])
        print("sure:", i, "of", len(x), "and", u32(3), "100%", "printf still works: %d")
        print()
        print(i, x[i] * 2.0)
    if (o := c.get_mut(idx)) is not None:
        o.set(x[i])


def test_simt_python_form_on_the_cpu_and_in_the_ptx(capsys: pytest.CaptureFixture[str]) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.array([1.25, 2, 3, 4], np.float32), stream)
    first_element.launch(
        first_element.prepare(simt.LaunchConfig1D.for_len(4, block=4), dev), stream, x, sk.zeros(4, f32, stream)
    )
    assert capsys.readouterr().out == (
        "first element 1.250000\nsure: 0 of 4 and 3 100% printf still works: %d\n\n0 2.500000\n"
    )
    formats = [p.format for p in _prints(build_module(spec_from_kernel(first_element)))]
    assert formats == [
        "first element %f\n",
        "sure: %lld of %lld and %llu 100%% printf still works: %%d\n",
        "\n",
        "%lld %f\n",
    ]
    compiled = codegen.compile_simt_kernel(first_element, arch="sm_90", use_cache=False)
    assert compiled.cubin[:4] == b"\x7fELF" and "vprintf" in compiled.ptx


@tile.kernel
def tile_show(z: Partition[f32], x: Tensor[f32], s: f32, n: i32, u: u32) -> None:
    print("block", tile.bid(0), "of", tile.num_blocks(0), "rows", x.shape[0], "s", s, n, u)
    z.store(tile.load_like(x, z) * s)


class _Spec:
    def __init__(self, shape: tuple[int, ...], tile_shape: tuple[int, ...] | None = None) -> None:
        self.shape, self.dtype, self.tile_shape, self.buffer = shape, dtype_of("f32"), tile_shape, None


def test_tile_python_form_on_the_cpu_and_in_the_ptx(capsys: pytest.CaptureFixture[str]) -> None:
    stream = sk.Device.cpu().new_stream()
    tile_show(tile.zeros((256,), f32).partition((128,)), tile.ones((256,), f32), 0.5, -4, 7).sync_on(stream)
    assert capsys.readouterr().out == ("block 0 of 2 rows 256 s 0.500000 -4 7\nblock 1 of 2 rows 256 s 0.500000 -4 7\n")
    infos, grid = specialize(tile_show, [_Spec((256,), (128,)), _Spec((256,)), 0.5, -4, 7])
    (op,) = [o for o in build_tile_ir(tile_show.fn, infos, grid).body if o.kind == "print"]
    kinds = [value_print_kind(v) for v in (0, 2, 256, np.float32(0.5), np.int32(-4), np.uint32(7))]
    text: list[PrintText | str] = [PrintText("block"), kinds[0], PrintText("of"), kinds[1], PrintText("rows")]
    text += [kinds[2], PrintText("s")]
    assert op.attrs["format"] == device_format(python_print_format([*text, *kinds[3:]]))
    assert op.attrs["format"] == "block %lld of %lld rows %lld s %f %lld %llu\n"
    compiled = compile_tile(tile_show.fn, infos, grid, use_cache=False)
    assert compiled.cubin[:4] == b"\x7fELF" and "vprintf" in compiled.ptx


def _simt_with(body: str) -> Any:
    source = (
        "from safekernels.simt import Slice, thread\nfrom safekernels.dtypes import f32, i32\n"
        f"def k(a: Slice[f32]) -> None:\n    i = thread.index_1d().get()\n    {body}\n"
    )
    linecache.cache["<print-bad>"] = (len(source), None, source.splitlines(True), "<print-bad>")
    namespace: dict[str, Any] = {}
    exec(compile(source, "<print-bad>", "exec"), namespace)
    return namespace["k"]


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ('print("flag", i < 3)', "SK003", "print in a kernel cannot show a bool"),
        ('print("slice", a)', "SK003", "print in a kernel takes string literals and numbers, not"),
        ('print("100%", i)', "SK008", "incomplete conversion"),
        ('print("x", i, sep="")', "SK006", "keyword arguments are not supported"),
    ],
)
def test_simt_python_form_errors(body: str, code: str, message: str) -> None:
    with pytest.raises(DiagnosticError) as info:
        codegen.compile_simt_kernel(_simt_with(body), use_cache=False)
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.code == code and message in diagnostic.message
    assert diagnostic.line == 5  # the kernel's file and line


def test_the_bool_help_works_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    kernel = simt.kernel(simt.launch_contract(block=1)(_simt_with('print("flag %d", i < 3)')))
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    kernel.launch(kernel.prepare(simt.LaunchConfig1D.for_len(1, block=1), dev), stream, sk.zeros(1, f32, stream))

    @tile.kernel
    def flagged(z: Partition[f32], x: Tensor[f32]) -> None:
        print("flag %d", tile.bid(0) < 1)
        z.store(tile.load_like(x, z))

    flagged(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32)).sync_on(stream)
    assert capsys.readouterr().out == "flag 1\nflag 1\nflag 0\n"
    infos, grid = specialize(flagged, [_Spec((8,), (4,)), _Spec((8,))])
    assert compile_tile(flagged.fn, infos, grid, use_cache=False).cubin[:4] == b"\x7fELF"


def test_tile_python_form_errors() -> None:
    @tile.kernel
    def bad_bool(z: Partition[f32], x: Tensor[f32]) -> None:
        print("first", tile.bid(0) < 1)
        z.store(tile.load_like(x, z))

    @tile.kernel
    def bad_tile(z: Partition[f32], x: Tensor[f32]) -> None:
        t = tile.load_like(x, z)
        print("tile", t)
        z.store(t)

    for kernel, message in ((bad_bool, "cannot show a bool"), (bad_tile, "print takes scalars in a tile kernel")):
        infos, grid = specialize(kernel, [_Spec((256,), (128,)), _Spec((256,))])
        with pytest.raises(DiagnosticError) as info:
            build_tile_ir(kernel.fn, infos, grid)
        assert info.value.diagnostics[0].code == "SK023" and message in info.value.diagnostics[0].message
