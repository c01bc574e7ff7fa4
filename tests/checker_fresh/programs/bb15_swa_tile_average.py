# fresh-expect: clean
# fresh-note: Stochastic weight averaging: SGD steps in SIMT, and every other step a tile kernel folds the weights into a running average; the launch's handed-back weight buffers are stored back into the model dict.
"""Stochastic weight averaging (torch.optim.swa_utils.AveragedModel with the default running mean).

After each cycle the current weights are folded into the average with weight 1 / (n + 1); the average lives
in tile partitions, the training weights in SIMT buffers.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def sgd(param: Slice[f32], grad: Slice[f32], out: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(param[i] - lr * grad[i])


@tile.kernel
def running_mean(avg: Partition[f32], w: Tensor[f32], weight: f32) -> None:
    a = avg.load()
    avg.store(a + (tile.load_like(w, avg) - a) * weight)


class Model:
    def __init__(self, sizes: dict[str, int], dev: sk.Device, stream: sk.Stream) -> None:
        rng = np.random.default_rng(15)
        self.dev, self.stream = dev, stream
        self.params = {k: sk.to_device(rng.standard_normal(n).astype(np.float32), stream) for k, n in sizes.items()}

    def step(self, lr: float) -> None:
        for name in list(self.params):
            p = self.params[name]
            grad = sk.to_device(p.to_numpy(self.stream) * 0.5, self.stream)
            out = sk.zeros(len(p), f32, self.stream)
            sgd.launch(sgd.prepare(simt.LaunchConfig1D.for_len(len(p), block=128), self.dev), self.stream, p, grad, out, lr)
            self.params[name] = out


class SWA:
    def __init__(self, model: Model) -> None:
        self.stream = model.stream
        self.count = 0
        self.avg = {k: tile.zeros((len(p),), f32).partition((TILE,)) for k, p in model.params.items()}

    def fold(self, model: Model) -> None:
        weight = 1.0 / (self.count + 1)
        for name in list(model.params):
            op = running_mean(self.avg[name], model.params[name], weight)
            self.avg[name], model.params[name], _ = op.sync_on(self.stream)
        self.count += 1

    def snapshot(self) -> dict[str, np.ndarray]:
        return {k: a.to_numpy(self.stream) for k, a in self.avg.items()}


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    model = Model({"enc.w": 1024, "enc.b": 48, "dec.w": 768}, dev, stream)
    swa = SWA(model)
    for step in range(6):
        model.step(lr=0.4)
        if step % 2 == 1:
            swa.fold(model)
    averaged = swa.snapshot()
    current = {k: p.to_numpy(stream) for k, p in model.params.items()}
    print("swa folds:", swa.count, {k: round(float(np.abs(averaged[k] - current[k]).max()), 4) for k in current})


if __name__ == "__main__":
    main()
