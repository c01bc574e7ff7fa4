# fresh-expect: W0003 at line 21
"""A training loop builds the update op every step but only syncs it on logging steps; the other steps drop it."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def train(stream, steps: int, log_every: int):
    n = 256
    params = tile.zeros((n,), f32).partition((64,))
    grads = tile.ones((n,), f32).sync_on(stream)
    lr_grad = tile.full((n,), 0.01, f32).sync_on(stream)
    for step in range(steps):
        update = add(params, grads, lr_grad)  # BUG
        if step % log_every != 0:
            params = tile.zeros((n,), f32).partition((64,))
            grads = tile.ones((n,), f32).sync_on(stream)
            lr_grad = tile.full((n,), 0.01, f32).sync_on(stream)
            continue
        params, grads, lr_grad = update.sync_on(stream)
        print("step", step, float(params.to_numpy(stream)[0]))
    return params


train(sk.Device.cpu().new_stream(), 3, 2)
