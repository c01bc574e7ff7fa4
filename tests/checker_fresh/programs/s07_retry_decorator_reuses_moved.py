# fresh-expect: E0382 at line 49
"""A retry decorator re-invokes a tile step with the same arguments after a transient failure that happened after the
launch moved them."""
import functools

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class TransientError(RuntimeError):
    pass


def retry(times: int):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            for attempt in range(times):
                try:
                    return fn(*args, **kwargs)
                except TransientError:
                    print("retrying after attempt", attempt)
            raise RuntimeError("gave up")
        return wrapper
    return deco


calls = {"n": 0}


@retry(3)
def fused_step(z, x, y, stream):
    z, x, y = add(z, x, y).sync_on(stream)
    calls["n"] += 1
    if calls["n"] == 1:
        raise TransientError("ECC hiccup")
    return z, x, y


stream = sk.Device.cpu().new_stream()
z0 = tile.zeros((256,), f32).partition((64,))
out = fused_step(z0, tile.ones((256,), f32), tile.ones((256,), f32), stream)  # BUG
print(out[0].to_numpy(stream)[:2])
