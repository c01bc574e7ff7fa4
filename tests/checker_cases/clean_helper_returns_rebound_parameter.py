"""A helper that moves its parameter through a layer and rebinds it from the handed-back value, then returns it:
the caller's result is the new value (or, for no layer at all, the caller's own), never the moved one, so using the
result after the call is fine.  A returned parameter the body binds again is not taken for the caller's argument."""

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
    print(float(y.to_numpy(stream).sum()))
