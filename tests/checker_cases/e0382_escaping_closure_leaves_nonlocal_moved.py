"""A layer built by a closure factory keeps its weights in `nonlocal` names between calls.  `forward` moves both
into the tile launch but takes back only `w` from `sync_on` (`b` is discarded as `_`), so `b` stays moved when it
returns; the factory returns `forward`, so it may run again, and its next run reads the moved `b`: E0382 at that
read, as the runtime's `UseAfterMoveError` on the second batch."""

from collections.abc import Callable
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def affine(out: Partition[f32], x: Tensor[f32], w: Tensor[f32], b: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(w, out) + tile.load_like(b, out))


def make_layer(stream: sk.Stream) -> Callable[[Any], Any]:
    w = tile.ones((128,), f32).sync_on(stream)
    b = tile.zeros((128,), f32).sync_on(stream)

    def forward(x: Any) -> Any:
        nonlocal w, b
        out = tile.zeros((128,), f32).partition((64,))
        res, _, w, _ = affine(out, x, w, b).sync_on(stream)  # expect: E0382
        return res.unpartition()

    return forward


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    layer = make_layer(stream)
    for _ in range(2):
        layer(tile.ones((128,), f32))
