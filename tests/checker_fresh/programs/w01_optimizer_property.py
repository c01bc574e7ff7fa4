# fresh-expect: E0502 at line 40
"""SGD with momentum as a class; a property picks where the updated weights go."""
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


class MomentumSGD:
    """Owns the velocity and a shadow copy of the weights; `in_place` saves the shadow's memory."""

    def __init__(self, weights: sk.DeviceBuffer[f32], lr: float, dev: sk.Device, stream: sk.Stream,
                 in_place: bool) -> None:
        n = len(weights)
        self.weights = weights
        self.velocity = sk.zeros(n, f32, stream)
        self.shadow = sk.zeros(n, f32, stream)
        self.lr = lr
        self.stream = stream
        self.in_place = in_place
        self.prep = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)

    @property
    def update_target(self) -> sk.DeviceBuffer[f32]:
        return self.weights if self.in_place else self.shadow

    def step(self, grad: sk.DeviceBuffer[f32], new_velocity: sk.DeviceBuffer[f32]) -> None:
        axpy.launch(self.prep, self.stream, self.velocity, grad, new_velocity, 0.9)
        axpy.launch(self.prep, self.stream, new_velocity, self.weights, self.update_target, -self.lr)
        self.velocity, new_velocity = new_velocity, self.velocity


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    weights = sk.to_device(np.ones(n, dtype=np.float32), stream)
    opt = MomentumSGD(weights, lr=0.1, dev=dev, stream=stream, in_place=True)
    for _ in range(2):
        grad = sk.to_device(np.full(n, 0.5, dtype=np.float32), stream)
        scratch = sk.zeros(n, f32, stream)
        opt.step(grad, scratch)
    print(opt.update_target.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
