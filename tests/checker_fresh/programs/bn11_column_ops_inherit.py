# fresh-expect: E0308 at line 75
# fresh-note: Columnar transform pipeline built from a spec with a match statement; ClipOp overrides run() to launch clip_col but inherits the base class's `kernel = scale_col`, so its prepared launch is branded for scale_col (E0308).
"""A tiny columnar transform pipeline: each step rewrites one column of a table with a SIMT kernel."""
from __future__ import annotations

from functools import reduce
from typing import ClassVar

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def scale_col(src: Slice[f32], dst: DisjointSlice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * factor)


@simt.kernel
@simt.launch_contract(block=128)
def clip_col(src: Slice[f32], dst: DisjointSlice[f32], limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(max(src[i], -limit), limit))


@simt.kernel
@simt.launch_contract(block=128)
def shift_col(src: Slice[f32], dst: DisjointSlice[f32], offset: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + offset)


class ColumnOp:
    kernel: ClassVar = scale_col

    def __init__(self, column: str, param: float, dev: sk.Device, rows: int) -> None:
        self.column = column
        self.param = param
        self.prepared = type(self).kernel.prepare(simt.LaunchConfig1D.for_len(rows, block=128), dev)

    def run(self, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        type(self).kernel.launch(self.prepared, stream, src, dst, self.param)

    def reference(self, x: np.ndarray) -> np.ndarray:
        return x * np.float32(self.param)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.column!r}, {self.param})"


class ShiftOp(ColumnOp):
    kernel = shift_col

    def reference(self, x: np.ndarray) -> np.ndarray:
        return x + np.float32(self.param)


class ClipOp(ColumnOp):
    def reference(self, x: np.ndarray) -> np.ndarray:
        return np.clip(x, -self.param, self.param)

    def run(self, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        limit = abs(self.param)
        clip_col.launch(self.prepared, stream, src, dst, limit)


def build(spec: list[tuple], dev: sk.Device, rows: int) -> list[ColumnOp]:
    ops = []
    for step in spec:
        match step:
            case ("scale", col, factor):
                ops.append(ColumnOp(col, factor, dev, rows))
            case ("shift", col, offset):
                ops.append(ShiftOp(col, offset, dev, rows))
            case ("clip", col, limit) if limit > 0:
                ops.append(ClipOp(col, limit, dev, rows))
            case _:
                raise ValueError(f"bad step {step!r}")
    return ops


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rows = 200
    rng = np.random.default_rng(2)
    host = {"price": rng.uniform(90, 110, rows), "pnl": rng.normal(0, 50, rows)}
    table = {name: sk.to_device(col.astype(np.float32), stream) for name, col in host.items()}
    spec = [("scale", "price", 1.1), ("shift", "pnl", -5.0), ("clip", "pnl", 60.0)]
    ops = build(spec, dev, rows)
    for op in ops:
        out = sk.zeros(rows, f32, stream)
        op.run(stream, table[op.column], out)
        table[op.column] = out
    for name in table:
        want = reduce(lambda x, op: op.reference(x), [o for o in ops if o.column == name],
                      host[name].astype(np.float32))
        assert np.allclose(table[name].to_numpy(stream), want, atol=1e-3), name
    print("applied:", ", ".join(map(repr, ops)))


if __name__ == "__main__":
    main()
