# fresh-expect: E0505 at line 41
# fresh-note: found since: asyncio.gather checks each coroutine against the loans the earlier ones leave pending at their awaits (compute's launch_async pending across its sleep meets reduce_blocks' move of out)
"""An asyncio pipeline: one task computes residuals on the device, another reduces them with a tile kernel."""
import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 256


@simt.kernel
@simt.launch_contract(block=256)
def residual(pred: Slice[f32], target: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        d = pred[i] - target[i]
        o.set(d * d)


@tile.kernel
def block_sum(sums: Partition[f32], x: Tensor[f32]) -> None:
    sums.store(tile.sum(x.load((tile.bid(0),), (TILE,)), axis=0, keepdims=True))


async def compute(prep, stream, pred, target, out) -> None:
    op = residual.launch_async(prep, pred, target, out)
    await asyncio.sleep(0.01)  # meanwhile, the next batch is read from disk
    op.sync_on(stream)


async def reduce_blocks(stream, out, blocks: int) -> np.ndarray:
    await asyncio.sleep(0)
    sums = tile.zeros((blocks,), f32).partition((1,))
    sums, _out = block_sum(sums, out).sync_on(stream)
    return sums.unpartition().to_numpy(stream)


async def run(dev: sk.Device, pred_np: np.ndarray, target_np: np.ndarray) -> np.ndarray:
    stream = dev.new_stream()
    n = len(pred_np)
    pred, target = sk.to_device(pred_np, stream), sk.to_device(target_np, stream)
    out = sk.zeros(n, f32, stream)
    prep = residual.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    _, sums = await asyncio.gather(compute(prep, stream, pred, target, out), reduce_blocks(stream, out, n // TILE))
    return sums


def main() -> None:
    rng = np.random.default_rng(43)
    pred = rng.standard_normal(2048).astype(np.float32)
    target = rng.standard_normal(2048).astype(np.float32)
    sums = asyncio.run(run(sk.Device.default(), pred, target))
    np.testing.assert_allclose(sums, ((pred - target) ** 2).reshape(-1, TILE).sum(axis=1), rtol=1e-5)
    print("mse", float(sums.sum() / len(pred)))


if __name__ == "__main__":
    main()
