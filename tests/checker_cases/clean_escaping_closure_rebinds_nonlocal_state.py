"""The twin of `e0382_escaping_closure_leaves_nonlocal_moved`: `forward` takes back both weights from `sync_on`,
so every run leaves its `nonlocal` names bound to live tensors and the next run may read them.  A nested function
that is only called where it is defined, or one that reads no `nonlocal` name before binding it, is not affected
either: its calls are checked where they are."""

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
        res, _, w, b = affine(out, x, w, b).sync_on(stream)
        return res.unpartition()

    return forward


def drain(stream: sk.Stream) -> Any:
    pending = affine(
        tile.zeros((128,), f32).partition((64,)), tile.ones((128,), f32), tile.ones((128,), f32),
        tile.zeros((128,), f32),
    )

    def finish() -> Any:
        nonlocal pending
        return pending.sync_on(stream)  # leaves `pending` moved: fine, `finish` runs once, here

    return finish()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    layer = make_layer(stream)
    for _ in range(2):
        layer(tile.ones((128,), f32))
    drain(stream)
