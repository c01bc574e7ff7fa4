# fresh-expect: clean
"""A torch-style training loop over a tiny linear model; the optimizer writes the next weights and swaps."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def grad_mse(x: Slice[f32], w: Slice[f32], y: Slice[f32], g: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := g.get_mut(idx)) is not None:
        o.set(2.0 * (w[i] * x[i] - y[i]) * x[i])


@simt.kernel
@simt.launch_contract(block=64)
def sgd(w: Slice[f32], g: Slice[f32], w_new: DisjointSlice[f32], lr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := w_new.get_mut(idx)) is not None:
        o.set(w[i] - lr * g[i])


class Linear:
    def __init__(self, n: int, dev, stream):
        self.weight = sk.to_device(np.zeros(n, np.float32), stream)
        self.next_weight = sk.zeros(n, f32, stream)
        self.grad = sk.zeros(n, f32, stream)
        config = simt.LaunchConfig1D.for_len(n, block=64)
        self.grad_launch = grad_mse.prepare(config, dev)
        self.sgd_launch = sgd.prepare(config, dev)

    def backward(self, stream, x, y):
        grad_mse.launch(self.grad_launch, stream, x, self.weight, y, self.grad)

    def optimizer_step(self, stream, lr: float):
        sgd.launch(self.sgd_launch, stream, self.weight, self.grad, self.next_weight, lr)
        self.weight, self.next_weight = self.next_weight, self.weight


dev = sk.Device.cpu()
stream = dev.new_stream()
model = Linear(128, dev, stream)
batches = [(sk.to_device(np.full(128, k + 1, np.float32), stream), sk.to_device(np.full(128, 2 * (k + 1), np.float32), stream)) for k in range(2)]
for epoch in range(2):
    for x, y in batches:
        model.backward(stream, x, y)
        model.optimizer_step(stream, 0.01)
print(model.weight.to_numpy(stream)[:4])
