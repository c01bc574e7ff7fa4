"""A retry loop whose `except` names only an exception class of this module: the handler can be entered only
from the statement that raises it, after the tile launch's results were bound back, so the retry's launch uses
live tensors.  The statements between the launch and its rebinding cannot raise `ThinCoat` (the module's own
code is the only code that raises it), so the handler never sees the tensors moved."""

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


class ThinCoat(Exception):
    def __init__(self, opacity: float) -> None:
        super().__init__(f"opacity {opacity:.2f}")
        self.opacity = opacity


@tile.kernel
def coat(out: Partition[f32], base: Tensor[f32], pigment: Tensor[f32], coats: f32) -> None:
    out.store(tile.load_like(base, out) + tile.load_like(pigment, out) * coats)


def opacity(paint: Partition[f32], stream: sk.Stream) -> float:
    return float(paint.unpartition().to_numpy(stream).mean())


def paint(base: Tensor[f32], pigment: Tensor[f32], stream: sk.Stream) -> float:
    coats = 1.0
    while coats <= 4.0:
        try:
            pending = coat(tile.zeros((64,), f32).partition((32,)), base, pigment, coats)
            layer, base, pigment, _ = pending.sync_on(stream)
            seen = opacity(layer, stream)
            if seen < 2.5:
                raise ThinCoat(seen)
        except ThinCoat as thin:
            print("retry after", thin)
            coats += 1.0
        else:
            return seen
    return 0.0


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    base = tile.from_numpy(np.ones(64, np.float32)).sync_on(stream)
    pigment = tile.from_numpy(np.full(64, 0.5, np.float32)).sync_on(stream)
    print(paint(base, pigment, stream))


if __name__ == "__main__":
    main()
