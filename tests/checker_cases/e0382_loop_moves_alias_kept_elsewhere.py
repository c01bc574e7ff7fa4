"""`w = self.w`, then a loop moves `w` and rebinds it from `sync_on`: `self.w` still names the first object, which
the first iteration moved.  Reading `self.w` after the loop without writing the handed-back value back is a use
after move (the runtime raises `UseAfterMoveError` there), as is a write-back on one branch only."""

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

    def run(self, batch: list[np.ndarray], stream: sk.Stream) -> float:
        w = self.w
        for payload in batch:
            x = tile.from_numpy(payload)
            out = tile.zeros((256,), f32).partition((64,))
            out, x, w = project(out, x, w).sync_on(stream)
        out = tile.zeros((256,), f32).partition((64,))
        out, _, _ = project(out, tile.ones((256,), f32), self.w).sync_on(stream)  # expect: E0382
        return float(out.unpartition().to_numpy(stream).sum())

    def run_some(self, batch: list[np.ndarray], keep: bool, stream: sk.Stream) -> None:
        w = self.w
        for payload in batch:
            out = tile.zeros((256,), f32).partition((64,))
            out, _, w = project(out, tile.from_numpy(payload), w).sync_on(stream)
        if keep:
            self.w = w
        out = tile.zeros((256,), f32).partition((64,))
        project(out, tile.ones((256,), f32), self.w).sync_on(stream)  # expect: E0382


def main() -> None:
    stream = sk.Device.default().new_stream()
    rows = [np.ones(256, np.float32)] * 3
    print(Layer().run(rows, stream))
    Layer().run_some(rows, False, stream)
