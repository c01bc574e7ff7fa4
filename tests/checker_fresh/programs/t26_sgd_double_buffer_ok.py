# fresh-expect: clean
"""SGD with a scratch buffer per weight: the update is written out of place, then the two are swapped."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def axpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


class SGD:
    def __init__(self, params: dict, dev, stream, lr: float = 0.1) -> None:
        self.params = params
        self.stream = stream
        self.lr = lr
        self.scratch = {name: sk.zeros(len(w), f32, stream) for name, w in params.items()}
        self.launches = {
            name: axpy.prepare(simt.LaunchConfig1D.for_len(len(w), block=128), dev) for name, w in params.items()
        }

    def step(self, grads: dict) -> None:
        for name in list(self.params):
            w, new_w = self.params[name], self.scratch[name]
            axpy.launch(self.launches[name], self.stream, grads[name], w, new_w, -self.lr)
            self.params[name], self.scratch[name] = new_w, w


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    params = {"w1": sk.to_device(np.ones(256, np.float32), stream), "b1": sk.zeros(64, f32, stream)}
    opt = SGD(params, dev, stream, lr=0.5)
    for step in range(3):
        grads = {k: sk.to_device(np.full(len(w), 0.01 * (step + 1), np.float32), stream) for k, w in params.items()}
        opt.step(grads)
    print({name: w.to_numpy(stream)[:2] for name, w in opt.params.items()})


if __name__ == "__main__":
    main()
