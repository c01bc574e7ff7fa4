# fresh-expect: clean
# int8 block quantization of checkpoint weights: async SIMT scaling under a context manager, tile rounding afterwards
from __future__ import annotations

from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

QBLOCK = 64  # weights sharing one scale


@simt.kernel
@simt.launch_contract(block=QBLOCK)
def apply_scales(w: Slice[f32], inv_scale: Slice[f32], scaled: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := scaled.get_mut(idx)) is not None:
        o.set(w[i] * inv_scale[thread.block_idx_x()])


@tile.kernel
def round_to_int8(q: Partition[i32], scaled: Tensor[f32]) -> None:
    v = tile.load_like(scaled, q)
    r = tile.where(v >= 0.0, v + 0.5, v - 0.5).astype(i32)
    q.store(tile.minimum(tile.maximum(r, -127), 127))


@contextmanager
def scaling(w: sk.DeviceBuffer, inv_scale: sk.DeviceBuffer, scaled: sk.DeviceBuffer, dev: sk.Device,
            stream: sk.Stream):
    prepared = apply_scales.prepare(simt.LaunchConfig1D.for_len(len(w), block=QBLOCK), dev)
    op = apply_scales.launch_async(prepared, w, inv_scale, scaled)
    try:
        yield
    finally:
        op.sync_on(stream)


def quantize(weights: np.ndarray, dev: sk.Device, stream: sk.Stream) -> tuple[np.ndarray, np.ndarray]:
    blocks = weights.reshape(-1, QBLOCK)
    scales = np.maximum(np.abs(blocks).max(axis=1), 1e-8).astype(np.float32) / 127.0
    w = sk.to_device(weights, stream)
    inv = sk.to_device((1.0 / scales).astype(np.float32), stream)
    scaled = sk.zeros(len(weights), f32, stream)
    with scaling(w, inv, scaled, dev, stream):
        outliers = int((np.abs(blocks) > 3 * blocks.std()).sum())  # host work overlaps the kernel
    q, _ = round_to_int8(tile.zeros((len(weights),), i32).partition((256,)), scaled).sync_on(stream)
    if outliers:
        print(f"  {outliers} outlier weights widen their block scales")
    return q.unpartition().to_numpy(stream).astype(np.int8), scales


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    layers = {"attn.q": (1024,), "attn.o": (2048,), "mlp.up": (4096,)}
    for name, shape in layers.items():
        weights = (rng.standard_normal(shape) * 0.02).astype(np.float32)
        q, scales = quantize(weights, dev, stream)
        restored = (q.reshape(-1, QBLOCK).astype(np.float32) * scales[:, None]).ravel()
        err = float(np.abs(restored - weights).max() / np.abs(weights).max())
        print(f"{name:>7}: {weights.nbytes} B -> {q.nbytes + scales.nbytes} B, max rel error {err:.4f}")
        assert err < 0.01


if __name__ == "__main__":
    main()
