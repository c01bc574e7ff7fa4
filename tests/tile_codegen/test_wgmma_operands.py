"""sm_90a warpgroup-MMA operands beyond a plain load (codegen.tile.wgmma_operands), the forms FlashAttention-2's
backward pass needs: A written `tile.transpose(load)` (read MN-major from the load's one staged tile, which the
same loop also reads plainly as A) and B computed in registers (written to shared memory first), with the
product added into an `AtomicTensor` by `tile.atomic_add` in the accumulator's own layout.  No GPU needed: the
CPU executor against numpy here, the instructions from PTX and nvJitLink for sm_90a and sm_80; the H200 value
check is tests/gpu_tile/test_gpu_wgmma_operands.py."""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import bf16, bf16_to_f32, dtype_of, f32, f32_to_bf16, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

BF, F = dtype_of("bf16"), dtype_of("f32")
ROWS = 512


@tile.kernel(num_warps=8)
def transposed_a_register_b(
    out: Annotated[Partition[f32], tile.Dims(128, 64)], acc_t: AtomicTensor[f32], k: Tensor[bf16], q: Tensor[bf16]
) -> None:
    """out = sum_j K^T (K Q_j^T) over the 64-row blocks Q_j (K: this block's 128 rows), and the same products
    per block added into acc_t transposed (acc_t[j-block rows, :] += (K^T S_j)^T), as attention's dQ."""
    kt = k.load((tile.bid(0), 0), (128, 128))
    rows = tile.reshape(tile.iota(64, i32), (1, 64))
    cols = tile.reshape(tile.iota(128, i32), (128, 1))
    acc = tile.zeros((128, 64), f32)
    for j in range(q.shape[0] // 64):
        qt = q.load((j, 0), (64, 128))
        st = tile.matmul(kt, tile.transpose(qt), tile.zeros((128, 64), f32)).astype(bf16)
        part = tile.matmul(tile.transpose(kt), st, tile.zeros((128, 64), f32))
        tile.atomic_add(acc_t, (rows + j * 64, cols), part)
        acc = acc + part
    out.store(acc)


@tile.kernel(num_warps=4)
def computed_b(out: Annotated[Partition[f32], tile.Dims(64, 64)], a: Tensor[bf16], b: Tensor[bf16]) -> None:
    """A (64, 128) load times a B computed elementwise (the `Blocked` layout, not an accumulator's)."""
    bt = (b.load((0, 0), (128, 64)).astype(f32) * 0.5).astype(bf16)
    out.store(tile.matmul(a.load((tile.bid(0), 0), (64, 128)), bt, tile.zeros((64, 64), f32)))


def run_computed_b(device: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    s = device.new_stream()
    out = tile.zeros((a.shape[0], 64), f32, device=device).partition((64, 64))
    at, bt = (tile.from_numpy(x, dtype=bf16, device=device) for x in (a, b))
    out, *_ = computed_b(out, at, bt).sync_on(s)
    return out.unpartition().to_numpy(s)  # type: ignore[no-any-return]


def inputs(seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    k, q = (bf16_to_f32(f32_to_bf16(rng.standard_normal((ROWS, 128)) * 0.25)) for _ in range(2))
    return k, q


def reference(k: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float64 (out, acc_t), with S rounded to bf16 as the kernel does."""
    out = np.zeros((ROWS, 64))
    acc_t = np.zeros((ROWS, 128))
    for b in range(ROWS // 128):
        kb = k[b * 128 : (b + 1) * 128].astype(np.float64)
        for j in range(ROWS // 64):
            s = bf16_to_f32(f32_to_bf16((kb @ q[j * 64 : (j + 1) * 64].T).astype(np.float32))).astype(np.float64)
            part = kb.T @ s
            out[b * 128 : (b + 1) * 128] += part
            acc_t[j * 64 : (j + 1) * 64] += part.T
    return out, acc_t


def run(device: Any, k: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = device.new_stream()
    out = tile.zeros((ROWS, 64), f32, device=device).partition((128, 64))
    acc_t = tile.zeros((ROWS, 128), f32, device=device)
    ks, qs = (tile.from_numpy(x, dtype=bf16, device=device) for x in (k, q))
    out, acc_t, *_ = transposed_a_register_b(out, acc_t, ks, qs).sync_on(s)
    return out.unpartition().to_numpy(s), acc_t.to_numpy(s)


def _rel(got: np.ndarray, want: np.ndarray) -> float:
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))


def test_cpu_executor_matches_numpy() -> None:
    k, q = inputs()
    out, acc_t = run(sk.Device.cpu(), k, q)
    want_out, want_acc = reference(k, q)
    assert _rel(out, want_out) < 1e-4 and _rel(acc_t, want_acc) < 1e-4  # f32 sums of 8 products


def _compile(arch: str) -> Any:
    params = [
        param_info("out", "partition", F, (ROWS, 64), (128, 64)),
        param_info("acc_t", "atomic", F, (ROWS, 128)),
        param_info("k", "tensor", BF, (ROWS, 128)),
        param_info("q", "tensor", BF, (ROWS, 128)),
    ]
    return compile_tile(transposed_a_register_b.fn, params, 2, arch=arch, use_cache=False, num_warps=8)


def test_sm90a_reads_the_transposed_a_and_the_register_b_on_warpgroup_mma() -> None:
    c = _compile("sm_90a")
    assert c.cubin[:4] == b"\x7fELF"
    assert "mma.sync" not in c.ptx and "ld.local" not in c.ptx
    # K Q^T: 8 k16 steps, A K-major, B K-major; K^T S: 8 k16 steps, A MN-major (trans-a 1), B MN-major
    assert c.ptx.count("wgmma.mma_async") == 16
    assert c.ptx.count("p, 1, 1, 0, 0;") == 8
    assert c.ptx.count("p, 1, 1, 1, 1;") == 8
    # one staged copy of K (cp.async before the loop), Q by the copy engine; the atomics straight from the
    # accumulator registers: 128 x 64 / 256 threads each, no shared-memory round trip for them
    assert c.ptx.count("atom.global.add.f32") + c.ptx.count("red.global.add.f32") == 32
    assert "fence.proxy.async.shared::cta" in c.ptx


def test_sm80_takes_the_mma_sync_path() -> None:
    c = _compile("sm_80")
    assert c.cubin[:4] == b"\x7fELF"
    assert "wgmma" not in c.ptx and "mma.sync" in c.ptx


def test_a_computed_b_in_the_blocked_layout() -> None:
    k, q = inputs(5)
    a, b = k[:256], q[:128, :64]
    got = run_computed_b(sk.Device.cpu(), a, b)
    assert _rel(got, a.astype(np.float64) @ (b.astype(np.float64) * 0.5)) < 1e-5  # * 0.5 is exact in bf16
    params = [
        param_info("out", "partition", F, (256, 64), (64, 64)),
        param_info("a", "tensor", BF, (256, 128)),
        param_info("b", "tensor", BF, (128, 64)),
    ]
    c = compile_tile(computed_b.fn, params, 2, arch="sm_90a", use_cache=False, num_warps=4)
    assert c.cubin[:4] == b"\x7fELF"
    assert "mma.sync" not in c.ptx and c.ptx.count("wgmma.mma_async") == 8  # B staged, read MN-major
    assert c.ptx.count("p, 1, 1, 0, 1;") == 8 and "fence.proxy.async.shared::cta" in c.ptx
