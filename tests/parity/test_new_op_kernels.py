"""The fixed new-op kernels (`new_op_kernels`) against numpy on the CPU executor; on the H200 the same
kernels are compared with the CPU executor by test_gpu_parity.py."""

from __future__ import annotations

import numpy as np
from new_op_kernels import FLOATS, INTS, MATRIX, N, run_atomics, run_gather_scatter, run_integer_ops, run_scans

import safekernels as sk

CPU = sk.Device.cpu()


def test_integer_ops() -> None:
    z, u = run_integer_ops(CPU)
    t = INTS.astype(np.int64)
    d = np.where(t == 0, 1, t % 13 - 6)
    d = np.where(d == 0, 7, d)
    want = (t // d) + (t % d) + (t // -3) + (t % 5) + ((t & 12) | (t ^ 7)) + (t << 3) + (t >> 2) + ~t + (t >> 31)
    np.testing.assert_array_equal(z, want.astype(np.int32))
    w = INTS.astype(np.uint32)
    np.testing.assert_array_equal(u, (w >> 3) + (w % 7) + (w // 5) + (w << np.uint32(30)))


def test_scans() -> None:
    z, idx, h = run_scans(CPU)
    for bi in range(2):
        for bj in range(3):
            t = MATRIX[bi * 4 : bi * 4 + 4, bj * 32 : bj * 32 + 32]
            got = z[bi * 4 : bi * 4 + 4, bj * 32 : bj * 32 + 32]
            want = np.cumsum(t, 1) + np.maximum.accumulate(t, 0) - np.minimum.accumulate(t, 1)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
            where = t.argmax(1)[:, None] * 100 + t.argmin(0)[None, :] + t.argmax() * 10000
            np.testing.assert_array_equal(idx[bi * 4 : bi * 4 + 4, bj * 32 : bj * 32 + 32], where)
    assert h.dtype == np.float16


def test_gather_scatter() -> None:
    (z,) = run_gather_scatter(CPU)
    i = np.arange(256)
    g = np.where((i % 3 != 0) & ((i * 7) % 250 < N), FLOATS[np.minimum((i * 7) % 250, N - 1)], -1.0)
    r = (np.arange(64) % 8).reshape(8, 8)
    want = np.full(N, 7.0, np.float32)
    for b in range(4):
        ib = i[b * 64 : b * 64 + 64]
        c = ib.reshape(8, 8) % 100 - 2
        ok = (c >= 0) & (c < 96)
        h = np.where(ok, MATRIX[r, np.clip(c, 0, 95)], 0.5).reshape(64)
        vals = g[b * 64 : b * 64 + 64] + h
        for lane in range(64):
            pos = b * 64 + 63 - lane
            if ib[lane] % 5 != 0 and pos < N:
                want[pos] = vals[lane]
    np.testing.assert_allclose(z, want, rtol=1e-6)


def test_atomics() -> None:
    hist, sums, hi = run_atomics(CPU)
    t = INTS
    want = np.zeros(24, np.int64)
    want[:16] = np.bincount(t[t > -500] & 15, minlength=16)
    blocks = [t[b * 64 : b * 64 + 64] for b in range(4)]
    want[16:20] = [max(0, blk.max()) for blk in blocks]
    want[20:24] = [min(0, blk.min()) for blk in blocks]
    np.testing.assert_array_equal(hist, want)
    np.testing.assert_array_equal(sums, [np.where(blk > 0, 0.5, 0.25).sum() for blk in blocks])
    for k in range(4):
        sel = t[(t & 3) == k].astype(np.float32)
        assert hi[k] == max(0.0, sel.max()) and hi[4 + k] == min(0.0, sel.min())
