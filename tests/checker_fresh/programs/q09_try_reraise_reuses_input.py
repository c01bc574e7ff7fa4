# fresh-expect: E0382 at line 20
"""A try/except that logs and re-raises around the first launch; the second launch reuses the handed-back input."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 3.0)


def run_twice(stream, z1, z2, x):
    try:
        out1, _ = scale(z1, x).sync_on(stream)
    except sk.DeviceError as exc:
        print("first launch failed:", exc)
        raise
    out2, _ = scale(z2, x).sync_on(stream)  # BUG
    return out1, out2


stream = sk.Device.cpu().new_stream()
first, second = run_twice(
    stream,
    tile.zeros((128,), f32).partition((64,)),
    tile.zeros((128,), f32).partition((64,)),
    tile.ones((128,), f32),
)
print(first.unpartition().to_numpy(stream)[:2], second.unpartition().to_numpy(stream)[:2])
