# fresh-expect: clean
# fresh-known-false-alarm: cli,mypy false E0382 at 67: `out` is bound in every case of a `match` over a `Literal`-typed field, without a wildcard case; the checker reads no types (its note names the `case _: raise ...` that declares one case always matches)
# fresh-note: The `case "buffer"` arm stores the tensor the copy launch hands back into `p.value`, as the other arm does, so training keeps using a live running-stat tensor.
"""Model EMA over typed parameters (weights, biases, norms, running-stat buffers) with a tile-track update."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 32
Kind = Literal["weight", "bias", "norm", "buffer"]


@tile.kernel
def ema_update(shadow: Partition[f32], param: Tensor[f32], decay: f32) -> None:
    shadow.store(shadow.load() * decay + tile.load_like(param, shadow) * (1.0 - decay))


@tile.kernel
def copy_tile(dst: Partition[f32], src: Tensor[f32]) -> None:
    dst.store(tile.load_like(src, dst))


@tile.kernel
def sgd_tile(w: Partition[f32], g: Tensor[f32], lr: f32) -> None:
    w.store(w.load() - tile.load_like(g, w) * lr)


@dataclass
class TrackedParam:
    name: str
    kind: Kind
    value: tile.Tensor
    shadow: tile.Tensor | None = None


class ModelEMA:
    def __init__(self, params: list[TrackedParam], stream: sk.Stream, decay: float = 0.9) -> None:
        self.params = params
        self.stream = stream
        self.decay = decay
        for p in params:
            p.shadow = tile.from_numpy(p.value.to_numpy(stream)).sync_on(stream)

    def decay_for(self, kind: Kind, step: int) -> float:
        warm = min(self.decay, (1 + step) / (10 + step))
        return warm**0.5 if kind in ("bias", "norm") else warm

    def update(self, step: int) -> None:
        for p in self.params:
            assert p.shadow is not None
            match p.kind:
                case "buffer":
                    # running statistics are copied into the shadow model, not averaged
                    out, p.value = copy_tile(p.shadow.partition((TILE,)), p.value).sync_on(self.stream)
                case "weight" | "bias" | "norm":
                    decay = self.decay_for(p.kind, step)
                    out, p.value, _ = ema_update(p.shadow.partition((TILE,)), p.value, decay).sync_on(self.stream)
            p.shadow = out.unpartition()

    def state_dict(self) -> dict[str, np.ndarray]:
        return {p.name: p.shadow.to_numpy(self.stream) for p in self.params if p.shadow is not None}


def train_step(params: list[TrackedParam], rng: np.random.Generator, stream: sk.Stream, lr: float = 0.1) -> None:
    for p in params:
        if p.kind == "buffer":
            running = p.value.to_numpy(stream)
            batch_mean = rng.standard_normal(running.size).astype(np.float32)
            p.value = tile.from_numpy((0.9 * running + 0.1 * batch_mean).astype(np.float32)).sync_on(stream)
            continue
        grad = tile.from_numpy(rng.standard_normal(p.value.shape[0]).astype(np.float32))
        w, _g, _lr = sgd_tile(p.value.partition((TILE,)), grad, lr).sync_on(stream)
        p.value = w.unpartition()


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    layout: dict[str, tuple[Kind, int]] = {
        "fc.weight": ("weight", 96),
        "fc.bias": ("bias", 24),
        "bn.weight": ("norm", 24),
        "bn.running_mean": ("buffer", 24),
    }
    params = [
        TrackedParam(name, kind, tile.from_numpy(rng.standard_normal(n).astype(np.float32)).sync_on(stream))
        for name, (kind, n) in layout.items()
    ]
    ema = ModelEMA(params, stream)
    for step in range(4):
        train_step(params, rng, stream)
        ema.update(step)
    for name, shadow in ema.state_dict().items():
        live = next(p for p in params if p.name == name).value.to_numpy(stream)
        print(f"{name:18s} |ema - live| = {float(np.abs(shadow - live).mean()):.4f}")


if __name__ == "__main__":
    main()
