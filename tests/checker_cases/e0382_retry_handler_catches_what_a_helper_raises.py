"""The error twin of `clean_retry_handler_catches_only_its_own_exception`: a helper that may raise the module's
`ThinCoat` runs between the tile launch and the rebinding of its results, so the handler can be entered with the
tensors moved, and the retry's launch uses moved values (E0382), as the runtime raises."""

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


def check_coats(coats: float) -> None:
    if coats < 2.0:
        raise ThinCoat(0.0)


def paint(base: Tensor[f32], pigment: Tensor[f32], stream: sk.Stream) -> float:
    coats = 1.0
    while coats <= 4.0:
        try:
            pending = coat(tile.zeros((64,), f32).partition((32,)), base, pigment, coats)  # expect: E0382
            check_coats(coats)
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
