# fresh-expect: E0382 at line 35
# fresh-note: found since: a for over a list display of mappings (through zip) reads, under a key every item takes from one registry (ChainMap(..., defaults)), that registry's item: cfg['bias'] is defaults['bias'] in each iteration
"""Two dense layers' bias-add steps configured through layered defaults (ChainMap)."""
from collections import ChainMap

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BM = 8


@tile.kernel
def bias_relu(out: Partition[f32], act: Tensor[f32], bias: Tensor[f32]) -> None:
    a = tile.load_like(act, out)
    b = bias.load((0, 0), (1, out.tile_shape[1]))
    out.store(tile.maximum(a + b, 0.0))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(31)
    width = 64
    bias_np = rng.standard_normal((1, width)).astype(np.float32)
    defaults = {"bias": tile.from_numpy(bias_np).sync_on(stream), "rows": BM}
    layer_cfgs = [ChainMap({"name": "hidden1"}, defaults), ChainMap({"name": "hidden2", "rows": 2 * BM}, defaults)]
    acts = [rng.standard_normal((32, width)).astype(np.float32) for _ in layer_cfgs]
    outputs = {}
    for cfg, act_np in zip(layer_cfgs, acts):
        out = tile.zeros(act_np.shape, f32).partition((cfg["rows"], width))
        out, _act, _bias = bias_relu(out, tile.from_numpy(act_np), cfg["bias"]).sync_on(stream)
        outputs[cfg["name"]] = out.unpartition().to_numpy(stream)
    for (name, got), act_np in zip(outputs.items(), acts):
        np.testing.assert_allclose(got, np.maximum(act_np + bias_np, 0.0), rtol=1e-6)
        print(name, "active fraction", float((got > 0).mean()))


if __name__ == "__main__":
    main()
