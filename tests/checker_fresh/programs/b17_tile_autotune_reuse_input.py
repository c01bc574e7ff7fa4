# fresh-expect: E0382 at line 22
"""An autotuned tile kernel moves its input; the old handle is reused."""
from typing import Annotated

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BLOCK = 32


@tile.autotune(configs=[tile.Config(BLOCK=32), tile.Config(BLOCK=64)], key=["x"], warmup=1, rep=1)
@tile.kernel
def scale(out: Annotated[Partition[f32], tile.Dims(BLOCK)], x: Tensor[f32], a: f32) -> None:
    out.store(tile.load_like(x, out) * a)


stream = sk.Device.cpu().new_stream()
x = tile.ones((256,), f32).sync_on(stream)
first, _, _ = scale(tile.zeros((256,), f32), x, 2.0).sync_on(stream)
second, _, _ = scale(tile.zeros((256,), f32), x, 3.0).sync_on(stream)  # BUG E0382
