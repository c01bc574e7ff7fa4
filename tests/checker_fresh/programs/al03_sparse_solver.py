# fresh-expect: clean
# fresh-note: Jacobi iteration for a CSR sparse system with a dataclass holding the matrix, ping-ponging the iterate between two buffers and checking the residual on the host every few sweeps.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def jacobi_sweep(
    indptr: Slice[i32], indices: Slice[i32], data: Slice[f32], diag: Slice[f32],
    rhs: Slice[f32], x: Slice[f32], x_new: DisjointSlice[f32],
) -> None:
    idx = thread.index_1d()
    row = idx.get()
    if (o := x_new.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(indptr[row], indptr[row + 1]):
            col = indices[k]
            if col != row:
                acc += data[k] * x[col]
        o.set((rhs[row] - acc) / diag[row])


@dataclass(frozen=True)
class DeviceCSR:
    indptr: sk.DeviceBuffer
    indices: sk.DeviceBuffer
    data: sk.DeviceBuffer
    diag: sk.DeviceBuffer
    n: int


def poisson_1d(n: int, stream: sk.Stream) -> tuple[DeviceCSR, np.ndarray]:
    dense = np.zeros((n, n), np.float32)
    for r in range(n):
        dense[r, r] = 4.0
        if r > 0:
            dense[r, r - 1] = -1.0
        if r < n - 1:
            dense[r, r + 1] = -1.0
    rows, cols = np.nonzero(dense)
    indptr = np.searchsorted(rows, np.arange(n + 1)).astype(np.int32)
    csr = DeviceCSR(
        sk.to_device(indptr, stream), sk.to_device(cols.astype(np.int32), stream),
        sk.to_device(dense[rows, cols].astype(np.float32), stream),
        sk.to_device(np.diag(dense).astype(np.float32), stream), n,
    )
    return csr, dense


def solve(csr: DeviceCSR, rhs: sk.DeviceBuffer, dense: np.ndarray, b: np.ndarray, stream: sk.Stream,
          dev: sk.Device, sweeps: int) -> np.ndarray:
    prepared = jacobi_sweep.prepare(simt.LaunchConfig1D.for_len(csr.n, block=32), dev)
    cur = sk.zeros(csr.n, f32, stream)
    nxt = sk.zeros(csr.n, f32, stream)
    for sweep in range(sweeps):
        jacobi_sweep.launch(prepared, stream, csr.indptr, csr.indices, csr.data, csr.diag, rhs, cur, nxt)
        cur, nxt = nxt, cur
        if sweep % 5 == 4:
            residual = np.linalg.norm(dense @ cur.to_numpy(stream) - b)
            print(f"sweep {sweep + 1}: residual {residual:.3e}")
    return cur.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 48
    csr, dense = poisson_1d(n, stream)
    b = np.linspace(1.0, 2.0, n).astype(np.float32)
    rhs = sk.to_device(b, stream)
    x = solve(csr, rhs, dense, b, stream, dev, sweeps=25)
    np.testing.assert_allclose(dense @ x, b, atol=1e-3)
    print("jacobi converged; x[:3] =", x[:3])


if __name__ == "__main__":
    main()
