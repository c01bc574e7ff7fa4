# fresh-expect: E0382 at line 62
# fresh-known-miss: cli,mypy list(model.params.values()) of a dict held in a dataclass attribute: its items are the tensors a later tile launch moves; dict views of attribute dicts give new values
"""A few SGD steps on a tiny two-layer model whose weights live in tile tensors.

After training, a drift report compares every weight with where it started.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64
SHAPES = {"w1": 256, "w2": 128}


@tile.kernel
def sgd(w_new: Partition[f32], w: Tensor[f32], g: Tensor[f32], lr: f32) -> None:
    w_new.store(tile.load_like(w, w_new) - lr * tile.load_like(g, w_new))


@dataclass
class Model:
    params: dict[str, Tensor] = field(default_factory=dict)
    steps: int = 0

    @classmethod
    def init(cls, stream: sk.Stream, seed: int = 1) -> "Model":
        rng = np.random.default_rng(seed)
        return cls({name: tile.from_numpy(rng.standard_normal(n).astype(np.float32)).sync_on(stream)
                    for name, n in SHAPES.items()})


def fake_grads(model: Model, scale: float) -> dict[str, np.ndarray]:
    return {name: np.full(w.shape, scale, np.float32) for name, w in model.params.items()}


def train_step(model: Model, grads: dict[str, np.ndarray], lr: float, stream: sk.Stream) -> None:
    updated = {}
    for name, w in model.params.items():
        fresh = tile.zeros(w.shape, f32).partition((TILE,))
        w_new, _w, _g, _lr = sgd(fresh, w, tile.from_numpy(grads[name]), lr).sync_on(stream)
        updated[name] = w_new.unpartition()
    model.params = updated
    model.steps += 1


def main() -> None:
    stream = sk.Device.default().new_stream()
    model = Model.init(stream)
    initial = list(model.params.values())  # starting point for the drift report

    for step in range(3):
        train_step(model, fake_grads(model, 0.5 / (step + 1)), lr=0.1, stream=stream)

    for (name, w), w0 in zip(model.params.items(), initial):
        drift = np.abs(w.to_numpy(stream) - w0.to_numpy(stream)).max()
        print(f"{name}: max drift after {model.steps} steps = {drift:.4f}")


if __name__ == "__main__":
    main()
