# fresh-expect: E0133 at line 29
# idiom: shared-memory block reduction through a @simt.device helper; the helper relies on the caller's unsafe block
"""L2-normalize the rows of an embedding table on the device.

One thread block per row: every thread squares one element into a shared-memory scratch array, a
device helper folds the scratch array in a tree, and thread 0 stores the row's squared norm.  A
second kernel divides every element by its row's norm.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, SharedArray, Slice, thread

DIM = 64  # embedding width == threads per block


@simt.device
def tree_reduce(scratch: SharedArray[f32], t: int) -> None:
    stride = DIM // 2
    while stride > 0:
        if t < stride:
            scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2


@simt.kernel
@simt.launch_contract(block=DIM)
def row_sumsq(table: Slice[f32], sumsq: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    row = thread.block_idx_x()
    v = table[row * DIM + t]
    with simt.unsafe():
        scratch = simt.shared_array(f32, DIM)
        scratch[t] = v * v
    thread.sync_threads()
    with simt.unsafe():
        tree_reduce(scratch, t)
        if t == 0:
            sumsq.get_unchecked_mut(row).set(scratch[0])


@simt.kernel
@simt.launch_contract(block=128)
def scale_rows(table: Slice[f32], sumsq: Slice[f32], out: DisjointSlice[f32], dim: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(table[i] / math.sqrt(sumsq[i // dim] + 1e-12))


def normalize_table(table: np.ndarray, device: sk.Device) -> np.ndarray:
    rows, dim = table.shape
    assert dim == DIM
    stream = device.new_stream()
    src = sk.to_device(table.reshape(-1).astype(np.float32), stream)
    sumsq = sk.zeros(rows, f32, stream)
    out = sk.zeros(rows * dim, f32, stream)
    reduce_launch = row_sumsq.prepare(simt.LaunchConfig1D(grid=rows, block=DIM), device)
    row_sumsq.launch(reduce_launch, stream, src, sumsq)
    scale_launch = scale_rows.prepare(simt.LaunchConfig1D.for_len(rows * dim, block=128), device)
    scale_rows.launch(scale_launch, stream, src, sumsq, out, dim)
    return out.to_numpy(stream).reshape(rows, dim)


def main() -> None:
    rng = np.random.default_rng(5)
    table = rng.standard_normal((12, DIM)).astype(np.float32)
    unit = normalize_table(table, sk.Device.cpu())
    norms = np.linalg.norm(unit, axis=1)
    print("row norms after normalization:", np.round(norms[:4], 5), "max dev", float(np.abs(norms - 1).max()))


if __name__ == "__main__":
    main()
