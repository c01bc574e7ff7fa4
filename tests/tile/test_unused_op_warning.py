"""A launch's `DeviceOp` collected without running warns (`UnusedDeviceOpWarning`, the runtime twin of W0003);
an op that was run, captured, chained, zipped or passed on never does; attribute errors of an op say to run it.
"""

from __future__ import annotations

import gc
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tile_harness import cpu_stream

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.errors import DeviceOpAttributeError, UnusedDeviceOpWarning
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

HERE = Path(__file__).name


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def args() -> tuple[Any, Any, Any]:
    return tile.zeros((256,), f32).partition((128,)), tile.ones((256,), f32), tile.ones((256,), f32)


@contextmanager
def collected() -> Iterator[list[warnings.WarningMessage]]:
    """Every `UnusedDeviceOpWarning` raised while the block runs and its garbage is collected."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found: list[warnings.WarningMessage] = []
        yield found
        gc.collect()
    found.extend(w for w in caught if issubclass(w.category, UnusedDeviceOpWarning))


def line_of(marker: str) -> int:
    """The line of this file that contains `marker` (so the expected line survives edits above it)."""
    lines = Path(__file__).read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if marker in text and "line_of(" not in text)


def test_a_dropped_tile_launch_warns_naming_the_kernel_and_the_line_that_built_it() -> None:
    with collected() as found:
        add(*args())  # built here, never run
    [w] = found
    text = str(w.message)
    assert "`add`" in text and f"{HERE}:{line_of('# built here, never run')}" in text
    assert (Path(w.filename).name, w.lineno) == (HERE, line_of("# built here, never run"))
    assert issubclass(UnusedDeviceOpWarning, ResourceWarning)


def test_the_warning_works_with_pytest_warns() -> None:
    with pytest.warns(UnusedDeviceOpWarning, match=r"kernel `add` built at .*never run"):
        op = add(*args())
        del op
        gc.collect()


CONSUMERS: dict[str, Callable[[Any], object]] = {
    "sync_on": lambda op: op.sync_on(cpu_stream()),
    "sync": lambda op: op.sync(),
    "then, synced": lambda op: op.then(lambda values: values).sync_on(cpu_stream()),
    "first, synced": lambda op: op.first().sync_on(cpu_stream()),
    "zip, synced": lambda op: sk.zip(op, tile.ones((4,), f32)).sync_on(cpu_stream()),
    "shared, synced": lambda op: op.shared().sync_on(cpu_stream()),
    "passed to a launch": lambda op: add(tile.zeros((256,), f32).partition((128,)), op.first().unpartition(),
                                         tile.ones((256,), f32)).sync_on(cpu_stream()),
}


@pytest.mark.parametrize("consume", CONSUMERS.values(), ids=CONSUMERS.keys())
def test_an_op_that_was_consumed_never_warns(consume: Callable[[Any], object]) -> None:
    with collected() as found:
        consume(add(*args()))
    assert found == []


def test_a_dropped_chain_warns_for_the_kernel_it_ends() -> None:
    with collected() as found:
        op = add(*args())
        chained = op.then(lambda values: values)  # the chain is built here
        del chained
    [w] = found
    assert "`add`" in str(w.message) and w.lineno == line_of("# the chain is built here")


def test_constructor_ops_run_no_kernel_and_never_warn() -> None:
    with collected() as found:
        tile.ones((4,), f32)
        tile.zeros((4,), f32).partition((4,))
    assert found == []


def test_a_dropped_launch_async_warns() -> None:
    stream = cpu_stream()
    dev = stream.device
    a, b, c = (sk.to_device(np.ones(64, np.float32), stream) for _ in range(3))
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    with collected() as found:
        vecadd.launch_async(prepared, a, b, c)  # an async launch nobody syncs
    [w] = found
    assert "`vecadd`" in str(w.message) and w.lineno == line_of("# an async launch nobody syncs")
    vecadd.launch(prepared, stream, a, b, c)  # its borrows ended with it


def test_value_attributes_of_an_op_say_to_sync_first() -> None:
    op = add(*args())
    with pytest.raises(DeviceOpAttributeError, match=r"has no attribute `to_numpy`.*call `\.sync_on\(stream\)` first"):
        op.to_numpy  # noqa: B018
    assert isinstance(DeviceOpAttributeError("x"), AttributeError)
    assert not hasattr(op, "to_numpy")
    with pytest.raises(DeviceOpAttributeError, match=r"`unpartition` of a launch's `DeviceOp`.*`\.sync_on\(stream\)`"):
        op.unpartition()
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        op.no_such_thing  # noqa: B018
    z, _, _ = op.sync_on(cpu_stream())  # the failed calls moved nothing
    assert z.unpartition().to_numpy(cpu_stream()).tolist() == [2.0] * 256
    lazy = tile.zeros((8,), f32).partition((4,)).unpartition()  # an op of a value still partitions lazily
    assert lazy.sync_on(cpu_stream()).to_numpy(cpu_stream()).tolist() == [0.0] * 8
