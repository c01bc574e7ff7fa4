"""Two layers' settings are `collections.ChainMap`s over one shared defaults dict; the second layer's own map has a
`"bias"` of its own, which its lookup finds first, so `first["bias"]` (the defaults' tensor) and `second["bias"]`
are two tensors, each moved into one tile launch."""

from collections import ChainMap

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def bias_relu(out: Partition[f32], act: Tensor[f32], bias: Tensor[f32]) -> None:
    a = tile.load_like(act, out)
    b = bias.load((0, 0), (1, out.tile_shape[1]))
    out.store(tile.maximum(a + b, 0.0))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    defaults = {"bias": tile.from_numpy(np.ones((1, 64), np.float32)).sync_on(stream), "rows": 8}
    first = ChainMap({"name": "hidden1"}, defaults)
    own_bias = tile.from_numpy(np.zeros((1, 64), np.float32)).sync_on(stream)
    second = ChainMap({"name": "hidden2", "rows": 16, "bias": own_bias}, defaults)
    act = np.ones((32, 64), np.float32)
    out = tile.zeros((32, 64), f32).partition((first["rows"], 64))
    out, _act, _bias = bias_relu(out, tile.from_numpy(act), first["bias"]).sync_on(stream)
    out2 = tile.zeros((32, 64), f32).partition((second["rows"], 64))
    out2, _act2, _bias2 = bias_relu(out2, tile.from_numpy(act), second["bias"]).sync_on(stream)


if __name__ == "__main__":
    main()
