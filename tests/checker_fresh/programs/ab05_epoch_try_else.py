# fresh-expect: E0382 at line 31
# the try/else handback unpacks the bias into `_`, so the second epoch launches with the bias tensor the first epoch moved
"""A tiny training loop: each epoch applies a bias layer to the activations, retrying on shape errors."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

FEATURES = 512
TILE = 128


@tile.kernel
def bias_forward(out: Partition[f32], act: Tensor[f32], bias: Tensor[f32]) -> None:
    v = tile.load_like(act, out) + tile.load_like(bias, out)
    out.store(tile.where(v > 0.0, v, v * 0.01))


def train(epochs: int, stream: sk.Stream) -> np.ndarray:
    rng = np.random.default_rng(11)
    act = tile.from_numpy(rng.standard_normal(FEATURES).astype(np.float32))
    bias = tile.from_numpy(np.full(FEATURES, 0.1, np.float32))
    losses = []
    for epoch in range(epochs):
        out = tile.zeros((FEATURES,), f32).partition((TILE,))
        try:
            op = bias_forward(out, act, bias)
        except tile.ShapeError as exc:
            print(f"epoch {epoch}: skipped ({exc})")
            continue
        else:
            out, act, _ = op.sync_on(stream)
        act = out.unpartition()
        loss = float(np.square(act.to_numpy(stream)).mean())
        losses.append(loss)
        print(f"epoch {epoch}: loss {loss:.4f}")
    return np.array(losses)


def main() -> None:
    stream = sk.Device.default().new_stream()
    losses = train(3, stream)
    print("loss curve:", np.round(losses, 4))


if __name__ == "__main__":
    main()
