"""A loop moves a value and rebinds its name each iteration while another place still holds the first object:
`w = self.w` (or an item of a dict, or a plain `w = w0`), then `out, x, w = k(out, x, w).sync_on(s)` in the loop.
On the path where the first object was moved, `w` is the handed-back one, so no iteration uses a moved value; the
write-back after the loop (`self.w = w`) stores the live one.  Nested loops with a write-back per group too."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def project(out: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(w, out))


class Layer:
    def __init__(self) -> None:
        self.w = tile.ones((256,), f32)

    def run(self, batch: list[np.ndarray], stream: sk.Stream) -> list[float]:
        sums = []
        w = self.w
        for payload in batch:
            x = tile.from_numpy(payload)
            out = tile.zeros((256,), f32).partition((64,))
            out, x, w = project(out, x, w).sync_on(stream)
            sums.append(float(out.unpartition().to_numpy(stream).sum()))
        self.w = w
        return sums


def serve(weights: dict[str, Tensor[f32]], groups: list[tuple[str, list[np.ndarray]]], stream: sk.Stream) -> None:
    for model, batch in groups:
        w = weights[model]
        for payload in batch:
            if payload.size == 0:
                break
            x = tile.from_numpy(payload)
            out = tile.zeros((256,), f32).partition((64,))
            out, x, w = project(out, x, w).sync_on(stream)
        weights[model] = w


def main() -> None:
    stream = sk.Device.default().new_stream()
    layer = Layer()
    rows = [np.ones(256, np.float32)] * 3
    print(layer.run(rows, stream), layer.run(rows, stream))
    first = tile.ones((256,), f32)
    w = first
    for row in rows:
        out = tile.zeros((256,), f32).partition((64,))
        out, _, w = project(out, tile.from_numpy(row), w).sync_on(stream)
    serve({"a": w, "b": tile.ones((256,), f32)}, [("a", rows), ("b", rows), ("a", rows)], stream)
