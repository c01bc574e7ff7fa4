# fresh-expect: E0382 at line 75
# fresh-known-false-alarm: cli,mypy false E0382 at 89: a second read of the items `EMA.update` left moved in `model.params`, after the training loop: a real use after move the runtime never reaches once line 75 raises
# fresh-note: SGD training with an EMA shadow of the weights folded in by a tile kernel every other step. Bug: `EMA.update` unpacks the tile launch result as `self.shadow[name], *_`, throwing away the handle of the weights it moved, so the next `fake_grads` reads a moved `model.params` buffer (E0382).
"""Exponential moving average of model weights (like torch.optim.swa_utils.AveragedModel with an EMA decay).
Training updates the parameters with a SIMT SGD kernel; every few steps a tile kernel folds the current weights
into the shadow copy that is used for evaluation.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 256


@simt.kernel
@simt.launch_contract(block=128)
def sgd_step(param: Slice[f32], grad: Slice[f32], out: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(param[i] - lr * grad[i])


@tile.kernel
def ema_fold(shadow: Partition[f32], weights: Tensor[f32], decay: f32) -> None:
    s = shadow.load()
    w = tile.load_like(weights, shadow)
    shadow.store(s * decay + w * (1.0 - decay))


class TinyModel:
    def __init__(self, sizes: dict[str, int], dev: sk.Device, stream: sk.Stream) -> None:
        rng = np.random.default_rng(3)
        self.stream = stream
        self.dev = dev
        self.params = {k: sk.to_device(rng.standard_normal(n).astype(np.float32), stream) for k, n in sizes.items()}

    def sgd(self, grads: dict[str, sk.DeviceBuffer[f32]], lr: float) -> None:
        for name, grad in grads.items():
            param = self.params[name]
            n = len(grad)
            out = sk.zeros(n, f32, self.stream)
            prep = sgd_step.prepare(simt.LaunchConfig1D.for_len(n, block=128), self.dev)
            sgd_step.launch(prep, self.stream, param, grad, out, lr)
            self.params[name] = out


class EMA:
    def __init__(self, model: TinyModel, decay: float = 0.9) -> None:
        self.decay = decay
        self.stream = model.stream
        self.shadow: dict[str, Partition[f32]] = {}
        for name, p in model.params.items():
            init = sk.to_device(p.to_numpy(model.stream), model.stream)
            self.shadow[name] = init.partition((TILE,))

    def update(self, model: TinyModel) -> None:
        for name, weights in model.params.items():
            fold = ema_fold(self.shadow[name], weights, self.decay)
            self.shadow[name], *_ = fold.sync_on(self.stream)

    def averaged(self, name: str) -> np.ndarray:
        return self.shadow[name].to_numpy(self.stream)


def fake_grads(model: TinyModel, step: int) -> dict[str, sk.DeviceBuffer[f32]]:
    return {
        k: sk.to_device((0.1 * (step + 1) * p.to_numpy(model.stream)).astype(np.float32), model.stream)
        for k, p in model.params.items()
    }


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    model = TinyModel({"conv.weight": 1152, "conv.bias": 32, "fc.weight": 640}, dev, stream)
    ema = EMA(model, decay=0.8)
    for step in range(6):
        model.sgd(fake_grads(model, step), lr=0.5)
        if step % 2 == 1:
            ema.update(model)
    gap = {k: float(np.abs(ema.averaged(k) - model.params[k].to_numpy(stream)).max()) for k in model.params}
    print("ema gap per tensor:", {k: round(v, 4) for k, v in gap.items()})


if __name__ == "__main__":
    main()
