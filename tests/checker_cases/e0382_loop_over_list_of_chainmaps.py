"""A list display whose items are mappings (`ChainMap`s over one shared defaults dict, dict displays) keeps what
each item holds under a key: iterated by `for` (also through `zip` or `enumerate`), `cfg["bias"]` is
`defaults["bias"]` in every iteration, one tensor.  The first iteration's tile launch moves it; the second
iteration's launch uses it after the move (the runtime raises `UseAfterMoveError` at each marked line)."""

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


def zipped(stream: sk.Stream) -> None:
    defaults = {"bias": tile.from_numpy(np.ones((1, 64), np.float32)).sync_on(stream), "rows": 8}
    layers = [ChainMap({"name": "hidden1"}, defaults), ChainMap({"name": "hidden2", "rows": 16}, defaults)]
    acts = [np.ones((32, 64), np.float32), np.zeros((32, 64), np.float32)]
    for cfg, act in zip(layers, acts, strict=True):
        out = tile.zeros((32, 64), f32).partition((cfg["rows"], 64))
        out, _act, _bias = bias_relu(out, tile.from_numpy(act), cfg["bias"]).sync_on(stream)  # expect: E0382


def enumerated(stream: sk.Stream) -> None:
    shared = {"bias": tile.from_numpy(np.ones((1, 64), np.float32)).sync_on(stream)}
    layers = [{"bias": shared["bias"]}, {"bias": shared["bias"]}]
    for _i, cfg in enumerate(layers):
        out = tile.zeros((32, 64), f32).partition((8, 64))
        act = tile.from_numpy(np.ones((32, 64), np.float32))
        out, _act, _bias = bias_relu(out, act, cfg["bias"]).sync_on(stream)  # expect: E0382


def main() -> None:
    for step in (zipped, enumerated):
        try:
            step(sk.Device.default().new_stream())
        except sk.UseAfterMoveError as err:
            print("UseAfterMoveError:", err)


if __name__ == "__main__":
    main()
