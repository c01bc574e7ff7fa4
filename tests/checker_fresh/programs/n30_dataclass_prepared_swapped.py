# fresh-expect: E0308 at line 47
"""A dataclass keeps one prepared launch per kernel; the saxpy launch is given the vecadd one."""
from dataclasses import dataclass
from typing import Any

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


@simt.kernel
@simt.launch_contract(block=128)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


@dataclass
class Launches:
    add: Any
    axpy: Any


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 256
launches = Launches(
    add=vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev),
    axpy=saxpy.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev),
)
x = sk.to_device(np.ones(n, np.float32), stream)
y = sk.to_device(np.ones(n, np.float32), stream)
out = sk.zeros(n, f32, stream)
saxpy.launch(launches.add, stream, x, y, out, 2.0)  # BUG E0308
