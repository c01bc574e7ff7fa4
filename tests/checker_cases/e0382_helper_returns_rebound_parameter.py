"""The same helper moves the caller's tensor in its first layer: the caller's `x` is a moved value after the call
(the result is the new value), so reading `x` again is a use after move, reported at the use."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32], k: f32) -> None:
    out.store(tile.load_like(x, out) * k)


def forward(x: Tensor[f32], factors: list[float], stream: sk.Stream) -> Tensor[f32]:
    for k in factors:
        out = tile.zeros((256,), f32).partition((64,))
        out, _, _ = scale(out, x, k).sync_on(stream)
        x = out.unpartition()
    return x


def main() -> None:
    stream = sk.Device.default().new_stream()
    x = tile.from_numpy(np.ones(256, np.float32)).sync_on(stream)
    y = forward(x, [0.5, 2.0], stream)
    print(float(y.to_numpy(stream).sum()), float(x.to_numpy(stream).sum()))  # expect: E0382
