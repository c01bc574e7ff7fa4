"""`list(itertools.starmap(f, rows))` runs `f(*row)` for each row, in order, and `list(map(f, rows))` runs `f(row)`:
with `f` a partial of a launch, a launch itself or a function of the module, a row that reads and writes one buffer
is E0502 at the consuming call."""

import functools
import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def add_into(prepared: simt.PreparedLaunch, stream: sk.Stream, a: sk.DeviceBuffer, c: sk.DeviceBuffer) -> None:
    vecadd.launch(prepared, stream, a, a, c)  # expect: E0502


def partial_of_launch(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    x = sk.to_device(np.ones(n, np.float32), stream)
    y = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    launch = functools.partial(vecadd.launch, prepared, stream)
    jobs = [(x, x, y), (y, x, y)]
    list(itertools.starmap(launch, jobs))  # expect: E0502


def inline_rows(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    x = sk.to_device(np.ones(n, np.float32), stream)
    y = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    run = functools.partial(add_into, prepared, stream)
    list(itertools.starmap(run, [(x, y), (y, y)]))
