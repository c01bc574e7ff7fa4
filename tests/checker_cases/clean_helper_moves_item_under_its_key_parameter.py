"""A helper takes a dict of tensors and a key, moves `layers[key]` into a tile launch and stores the tensor
`sync_on` hands back under the same key, so the caller's later read of `layers["enamel"]` runs clean."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def threshold(z: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(tile.where(t > 0.5, t, t * 0.0))


def segment(layers: dict[str, Any], key: str, stream: sk.Stream) -> Tensor:
    mask = tile.zeros((256,), f32).partition((128,))
    mask, layers[key] = threshold(mask, layers[key]).sync_on(stream)
    return mask.unpartition()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    layers = {"enamel": tile.ones((256,), f32), "dentin": tile.ones((256,), f32)}
    mask = segment(layers, "enamel", stream)
    print(mask.to_numpy(stream)[:2])
    wear = tile.zeros((256,), f32).partition((128,))
    wear, _ = threshold(wear, layers["enamel"]).sync_on(stream)
    print(wear.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
