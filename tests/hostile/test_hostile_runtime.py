"""Hostile input for the runtime and the CPU executor: hypothesis-generated kernels and host API call sequences.

The promise (docs/reliability.md, "Runtime and executor"): whatever a program does through the public API on the
CPU executor, it either works or raises one of the documented error types, with a message; never an internal
error (AttributeError, KeyError, ZeroDivisionError, FloatingPointError, RecursionError, AssertionError, ...).
The documented types are `safekernels.SafeKernelsError` and its subclasses (`KernelTrapError` for a trap,
`LaunchContractError`, `AliasingError`, `UseAfterMoveError`, ...) and Python's argument errors `TypeError`,
`ValueError`, `OverflowError`, `IndexError`, plus `MemoryError` for an allocation no machine could satisfy.

Bounded and deterministic for CI (`derandomize=True`, small `max_examples`); a longer run is
`SK_HOSTILE_EXAMPLES=2000 pytest tests/hostile/test_hostile_runtime.py`.
"""

from __future__ import annotations

import atexit
import importlib.util
import itertools
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import safekernels as sk
from safekernels import simt

DOCUMENTED = (sk.SafeKernelsError, TypeError, ValueError, OverflowError, IndexError, MemoryError)
EXAMPLES = int(os.environ.get("SK_HOSTILE_EXAMPLES", "40"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
DEV = sk.Device.cpu()
_modules = itertools.count()
_TMP = Path(tempfile.mkdtemp(prefix="sk_hostile_"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


def outcome(action: Any) -> str:
    """Run `action`; 'ok', or the documented error's type name.  Anything else fails the test with its traceback."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            action()
        except DOCUMENTED as exc:
            assert str(exc), f"{type(exc).__name__} without a message"
            assert not isinstance(exc, AssertionError)
            return type(exc).__name__
    return "ok"


# -- generated kernels ---------------------------------------------------------------------------------------
DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "u32": np.uint32}


@st.composite
def expressions(draw: Any, dtype: str, depth: int = 0) -> str:
    is_float = dtype.startswith("f")
    leaves = ["a[i]", "b[i]", "s", "i", "len(a)", "x"]
    leaves.append(
        str(draw(st.floats(-1e6, 1e6, allow_nan=False, width=32))) if is_float else str(draw(st.integers(-9, 9)))
    )
    if depth >= 3 or draw(st.integers(0, 3)) == 0:
        leaf = draw(st.sampled_from(leaves))
        return f"{dtype}({leaf})" if leaf in ("i", "len(a)") else leaf
    ops = ["+", "-", "*", "//", "%"] + ([] if is_float else ["&", "|", "^", ">>"])
    kind = draw(st.integers(0, 5))
    left = draw(expressions(dtype, depth + 1))
    right = draw(expressions(dtype, depth + 1))
    if kind == 0:
        return f"{draw(st.sampled_from(['min', 'max']))}({left}, {right})"
    if kind == 1:
        return f"abs({left})"
    if kind == 2:
        cmp = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
        return f"({left} if {left} {cmp} {right} else {right})"
    if kind == 3:
        offset = draw(st.integers(-3, 3))
        return f"a[i + {offset}]" if offset >= 0 else f"b[i - {-offset}]"  # may trap at the edges
    return f"({left} {draw(st.sampled_from(ops))} {right})"


@st.composite
def kernels(draw: Any) -> tuple[str, str]:
    dtype = draw(st.sampled_from(sorted(DTYPES)))
    scalar = draw(st.sampled_from(["u32", "i32", "f32"] if dtype.startswith("f") else ["u32", "i32", "i64"]))
    block = draw(st.sampled_from([1, 32, 64]))
    body = [f"x = {dtype}(0)", f"x = {dtype}({draw(expressions(dtype))})"]
    for _ in range(draw(st.integers(0, 3))):
        form = draw(st.integers(0, 2))
        e = draw(expressions(dtype))
        if form == 0:
            body.append(f"x = {dtype}({e})")
        elif form == 1:
            body += [f"if {e} > x:", f"    x = {dtype}(x + {dtype}(1))"]
        else:
            body += [f"for j in range({draw(st.integers(0, 4))}):", f"    x = {dtype}({e})"]
    header = [
        "import math",
        "from safekernels import simt",
        "from safekernels.dtypes import f32, f64, i32, i64, u32",
        "from safekernels.simt import DisjointSlice, Slice, thread",
        "",
        "",
        "@simt.kernel",
        f"@simt.launch_contract(block={block})",
        f"def generated(a: Slice[{dtype}], b: Slice[{dtype}], c: DisjointSlice[{dtype}], s: {scalar}) -> None:",
        "    idx = thread.index_1d()",
        "    i = idx.get()",
        "    if i >= len(a):",
        "        return",
    ]
    footer = ["    if (out := c.get_mut(idx)) is not None:", f"        out.set({dtype}(x))"]
    source = "\n".join([*header, *(f"    {line}" for line in body), *footer]) + "\n"
    return source, dtype


def load_kernel(source: str) -> Any:
    path = _TMP / f"sk_hostile_kernel_{next(_modules)}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module.generated


@SETTINGS
@given(
    kernels(),
    st.integers(0, 70),
    st.integers(-(1 << 40), 1 << 40),
    st.integers(1, 3),
    st.integers(0, 2**32),
)
def test_generated_kernels_work_or_raise_documented_errors(
    program: tuple[str, str], n: int, scalar: int, grid: int, seed: int
) -> None:
    source, dtype = program
    kernel = load_kernel(source)
    rng = np.random.default_rng(seed)
    np_dtype = DTYPES[dtype]
    if dtype.startswith("f"):
        a, b = (rng.uniform(-100, 100, n).astype(np_dtype) for _ in range(2))
    else:
        info = np.iinfo(np_dtype)
        a, b = (
            rng.integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(np_dtype) for _ in range(2)
        )
    block = kernel.contract.block[0] if kernel.contract.block else 32

    def launch() -> None:
        prepared = kernel.prepare(simt.LaunchConfig1D(grid, block), DEV)
        kernel.launch(prepared, DEV.new_stream(), sk.to_device(a), sk.to_device(b), sk.zeros(n, dtype), scalar)

    outcome(launch)


# -- host API call sequences ---------------------------------------------------------------------------------
WEIRD_VALUES = [
    None,
    -1,
    0,
    3,
    2**62,
    2.5,
    "f32",
    "nope",
    b"x",
    (),
    [1, 2],
    object(),
    np.float32(1),
    True,
    np.zeros((2, 2), np.float32),
    np.zeros(3, complex),
    np.zeros(3, object),
    np.arange(10, dtype=np.float32)[::2],
    np.frombuffer(bytes(8), np.float32),
    float("nan"),
    float("inf"),
    -(2**70),
]
DTYPE_VALUES = ["f32", "i32", "u8", "bf16", "f16", "bool", None, "x", np.float64, int, float, 7]


@st.composite
def calls(draw: Any) -> list[tuple[str, Any, Any]]:
    names = [
        "zeros",
        "empty",
        "to_device",
        "as_buffer",
        "view",
        "slice",
        "split_at",
        "copy_from_numpy",
        "to_numpy",
        "partition",
        "launch",
        "launch_async",
        "tile_sync",
        "len",
        "host_view",
    ]
    length = draw(st.integers(1, 8))
    return [
        (
            draw(st.sampled_from(names)),
            draw(st.sampled_from(WEIRD_VALUES) | st.integers(-5, 40)),
            draw(st.sampled_from(DTYPE_VALUES) | st.integers(-5, 40)),
        )
        for _ in range(length)
    ]


@simt.kernel
@simt.launch_contract(block=32, requires=("len(a) >= n",))
def copy_n(a: simt.Slice[sk.f32], c: simt.DisjointSlice[sk.f32], n: sk.u32) -> None:
    idx = simt.thread.index_1d()
    i = idx.get()
    if i < n and (out := c.get_mut(idx)) is not None:
        out.set(a[i])


@SETTINGS
@given(calls())
def test_host_call_sequences_work_or_raise_documented_errors(sequence: list[tuple[str, Any, Any]]) -> None:
    from safekernels import tile

    pool: list[Any] = [sk.zeros(8, "f32", device=DEV), sk.to_device(np.arange(16, dtype=np.float32), device=DEV)]
    prepared = copy_n.prepare(simt.LaunchConfig1D(1, 32), DEV)
    pending: list[Any] = []
    partitions: list[Any] = []  # kept apart: `pool` holds only DeviceBuffers, the receivers of buffer methods

    def pick(k: Any) -> Any:
        """An argument: a pool value for an int, else the weird value itself."""
        return pool[k % len(pool)] if isinstance(k, int) and not isinstance(k, bool) else k

    def receiver(k: Any) -> Any:
        """A method's receiver is always a value this API made (calling `.view` on a str is Python's business)."""
        return pool[k % len(pool)] if isinstance(k, int) and not isinstance(k, bool) else pool[-1]

    for name, x, y in sequence:

        def step(name: str = name, x: Any = x, y: Any = y) -> None:
            if name == "zeros":
                pool.append(sk.zeros(x, y, device=DEV))
            elif name == "empty":
                pool.append(sk.empty(x, y, device=DEV))
            elif name == "to_device":
                pool.append(sk.to_device(x, device=DEV) if y is None else sk.to_device(x, dtype=y, device=DEV))
            elif name == "as_buffer":
                pool.append(sk.as_buffer(x))
            elif name == "view":
                pool.append(receiver(y).view(x, x if not isinstance(x, int) else x + 2))
            elif name == "slice":
                pool.append(receiver(y)[x : y if isinstance(y, int) else None])
            elif name == "split_at":
                pool.extend(receiver(y).split_at(x))
            elif name == "copy_from_numpy":
                receiver(y).copy_from_numpy(x)
            elif name == "to_numpy":
                receiver(x).to_numpy(y if isinstance(y, sk.Stream) else None)
            elif name == "partition":
                partitions.append(receiver(y).partition(x if not isinstance(x, int) else (max(x, 1),)))
            elif name == "launch":
                copy_n.launch(prepared, DEV.new_stream(), pick(x), pick(y), len(pool))
            elif name == "launch_async":
                pending.append(copy_n.launch_async(prepared, pick(x), pick(y), 1))
            elif name == "tile_sync":
                op = pending.pop() if pending else tile.zeros((4,), "f32")
                op.sync_on(x if isinstance(x, sk.Stream) else (DEV.new_stream() if x == 3 else x))
            elif name == "len":
                len(pick(x))
            elif name == "host_view":
                receiver(x).host_view()

        outcome(step)
    for op in pending:
        outcome(lambda op=op: op.sync_on(DEV.new_stream()))


def test_the_oracle_refuses_an_internal_error() -> None:
    with pytest.raises(KeyError):
        outcome(lambda: {}["missing"])
    assert outcome(lambda: sk.zeros(-1, "f32")) == "ValueError"
