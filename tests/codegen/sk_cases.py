"""Kernels codegen must refuse, one per SK diagnostic; `# expect: CODE:COLUMN` marks the reported line.

Plain functions with string annotations: codegen reads parameter kinds from the annotation syntax, so these need
neither the checker nor a decorator (and the language layer never sees them).
"""
# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import thread

LIMIT = 4


def list_literal(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    xs = [1, 2]  # expect: SK001:10


def try_statement(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    try:  # expect: SK001:5
        pass
    except ValueError:
        pass


def unknown_name(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    x = undefined_thing + 1  # expect: SK002:9


def int_times_float_literal(a: "Slice[i32]", c: "DisjointSlice[f32]") -> None:
    i = thread.index_1d().get()
    y = a[i] * 0.5  # expect: SK003:9


def print_call(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    print("first", a[0] < 1.0)  # expect: SK003:20


def shared_outside_unsafe(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    s = simt.shared_array(f32, 128)  # expect: SK005:9


def index_2d_without_stride(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    idx = thread.index_2d()  # expect: SK006:11


def changes_type(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    i = thread.index_1d().get()
    v = i
    v = a[i]  # expect: SK007:5


def shared_runtime_length(a: "Slice[f32]", c: "DisjointSlice[f32]", n: "i32") -> None:
    with simt.unsafe():
        s = simt.shared_array(f32, n)  # expect: SK008:36


def returns_value(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    return 1  # expect: SK009:5


def unannotated(a, c: "DisjointSlice[f32]") -> None:  # expect: SK011:17
    pass


def writes_slice(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    a[0] = 1.0  # expect: SK003:5


def get_mut_with_int(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    i = thread.index_1d().get()
    out = c.get_mut(i)  # expect: SK003:21


def unchecked_outside_unsafe(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    c.get_unchecked_mut(0).set(1.0)  # expect: SK005:5


def for_over_slice(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    for x in a:  # expect: SK001:14
        pass


@simt.device
def recursive(x: f32) -> f32:
    return recursive(x)  # expect: SK009:12


def calls_recursive(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    y = recursive(f32(1.0))


@simt.device
def helper_uses_shared(x: f32) -> f32:
    s = simt.shared_array(f32, 4)  # expect: SK005:9
    return x


def unsafe_not_inherited(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    with simt.unsafe():
        y = helper_uses_shared(f32(1.0))


def string_constant(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    s = "text"  # expect: SK001:9


def lambda_expr(a: "Slice[f32]", c: "DisjointSlice[f32]") -> None:
    f = lambda: 1  # expect: SK001:9


CASES = [
    list_literal,
    try_statement,
    unknown_name,
    int_times_float_literal,
    print_call,
    shared_outside_unsafe,
    index_2d_without_stride,
    changes_type,
    shared_runtime_length,
    returns_value,
    unannotated,
    writes_slice,
    get_mut_with_int,
    unchecked_outside_unsafe,
    for_over_slice,
    calls_recursive,
    unsafe_not_inherited,
    string_constant,
    lambda_expr,
]
