"""Typed launches: host arguments are checked against the kernel's own parameters."""

from __future__ import annotations

from pathlib import Path

from plugin_cases import check

SIMT = """
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, f64
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def saxpy(alpha: f32, x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(f32(alpha * x[i]))


@simt.kernel
@simt.launch_contract(block=256)
def fill(y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (out := y.get_mut(idx)) is not None:
        out.set(f32(0.0))


dev = sk.Device(0)
PLAN = fill.prepare(simt.LaunchConfig1D.for_len(8, block=256), dev)


def main(n: int, x: sk.DeviceBuffer[f32], y: sk.DeviceBuffer[f32], z: sk.DeviceBuffer[f64]) -> None:
    stream = dev.new_stream()
    plan = saxpy.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    {line}
"""


def _errors(tmp_path: Path, line: str) -> list[tuple[str | None, str]]:
    text = SIMT.format(line=line).lstrip()
    number = text.splitlines().index(f"    {line}") + 1
    reported, _ = check(tmp_path, {"prog.py": text})
    return [(r.code, r.message) for r in reported if r.severity == "error" and r.line == number]


def test_well_typed_launch_is_accepted(tmp_path: Path) -> None:
    assert _errors(tmp_path, "saxpy.launch(plan, stream, 2.0, x, y)") == []


def test_arity_is_checked(tmp_path: Path) -> None:
    assert [c for c, _ in _errors(tmp_path, "saxpy.launch(plan, stream, 2.0, x)")] == ["call-arg"]


def test_buffer_element_type_is_checked(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "saxpy.launch(plan, stream, 2.0, x, z)")
    assert [c for c, _ in errors] == ["arg-type"], errors
    assert 'expected "DeviceBuffer[f32]"' in errors[0][1]


def test_scalar_parameter_wants_a_python_number(tmp_path: Path) -> None:
    errors = _errors(tmp_path, 'saxpy.launch(plan, stream, "2", x, y)')
    assert [c for c, _ in errors] == ["arg-type"], errors
    assert 'expected "float"' in errors[0][1]


def test_prepared_launch_of_another_kernel_is_e0308_even_through_a_global(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "saxpy.launch(PLAN, stream, 2.0, x, y)")
    assert [c for c, _ in errors] == ["E0308"], errors


def test_brand_does_not_break_annotations(tmp_path: Path) -> None:
    line = "keep: simt.PreparedLaunch[simt.SimtKernel] = plan; saxpy.launch(keep, stream, 2.0, x, y)"
    assert _errors(tmp_path, line) == []


def test_tile_kernel_call_is_typed(tmp_path: Path) -> None:
    source = """
    import safekernels as sk
    from safekernels import tile
    from safekernels.dtypes import f32
    from safekernels.tile import Partition, Tensor


    @tile.kernel
    def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32], s: f32) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))


    def main(stream: sk.Stream) -> None:
        x = tile.ones((1024,), f32)
        z = tile.zeros((1024,), f32).partition((128,))
        reveal_type(x)
        op = add(z, x, tile.ones((1024,), f32), 2.0)
        reveal_type(op)
        add(z, x)
    """
    reported, raw = check(tmp_path, {"prog.py": source})
    revealed = [r.message for r in reported if r.message.startswith("Revealed type")]
    assert revealed[0] == (
        'Revealed type is "safekernels.runtime.device_op.DeviceOp[safekernels.tile.tensor.Tensor['
        'safekernels.dtypes.f32]]"'
    )
    assert revealed[1].replace("builtins.float", "float") == (  # mypy < 1.12 spells it `builtins.float`
        'Revealed type is "safekernels.runtime.device_op.DeviceOp[tuple[safekernels.tile.tensor.Partition['
        'safekernels.dtypes.f32], safekernels.tile.tensor.Tensor[safekernels.dtypes.f32], '
        'safekernels.tile.tensor.Tensor[safekernels.dtypes.f32], float]]"'
    ), raw
    assert any(r.code == "call-arg" and r.line == 18 for r in reported), raw


def test_get_mut_unchecked_is_mypys_union_attr(tmp_path: Path) -> None:
    source = """
    from safekernels import simt
    from safekernels.dtypes import f32
    from safekernels.simt import DisjointSlice, thread


    @simt.kernel
    @simt.launch_contract(block=256)
    def k(c: DisjointSlice[f32]) -> None:
        c.get_mut(thread.index_1d()).set(f32(1.0))
    """
    reported, raw = check(tmp_path, {"kern.py": source})
    assert [(r.line, r.code) for r in reported if r.severity == "error"] == [(9, "union-attr")], raw


TYPED_SCALARS = """
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def running(n: i32, x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    acc: f32 = f32(0.0)
    count: i32 = i32(0)
    for k in range(n):
        acc += x[i] * 2.0
        acc = -acc + 1.0
        count += 3
        count = count * 2 - n
    if (out := y.get_mut(idx)) is not None:
        out.set(acc / 2.0)
"""


def test_typed_scalars_keep_their_dtype_under_arithmetic_with_numbers(tmp_path: Path) -> None:
    """`acc: f32 = f32(0.0); acc += x[i] * 2.0` and `count: i32; count += 3` type-check as the kernel compilers
    type them (the dtype kept), where int's and float's own signatures gave `int` / `float`."""
    reported, output = check(tmp_path, {"typed_scalars.py": TYPED_SCALARS})
    assert reported == [], output
