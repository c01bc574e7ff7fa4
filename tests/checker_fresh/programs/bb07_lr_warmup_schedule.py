# fresh-expect: W0003 at line 63
# fresh-note: Warmup-then-step-decay LR schedule (match statement) whose update is computed by tile kernels. Bug: `update` builds the lr_scale op through `_scaled` before checking for the zero learning rate of warmup step 0, and returns early, dropping the op unrun (W0003 at the launch in `_scaled`).
"""Linear warmup followed by step decay, applied through tile kernels.

The scheduler mirrors torch.optim.lr_scheduler.SequentialLR(LinearLR, StepLR): the learning rate ramps up from
zero over the warmup steps, then halves every `step_size` steps.  The update `delta = -lr * grad` is computed on
the device and added to the weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 1536
TILE = 256


@tile.kernel
def lr_scale(delta: Partition[f32], grad: Tensor[f32], lr: f32) -> None:
    delta.store(tile.load_like(grad, delta) * -lr)


@tile.kernel
def apply_delta(out: Partition[f32], param: Tensor[f32], delta: Tensor[f32]) -> None:
    out.store(tile.load_like(param, out) + tile.load_like(delta, out))


@dataclass
class WarmupStepLR:
    base_lr: float
    warmup_steps: int
    step_size: int
    gamma: float = 0.5

    def phase(self, step: int) -> str:
        return "warmup" if step < self.warmup_steps else "decay"

    def __call__(self, step: int) -> float:
        match self.phase(step):
            case "warmup":
                return self.base_lr * step / self.warmup_steps
            case "decay":
                return self.base_lr * self.gamma ** ((step - self.warmup_steps) // self.step_size)
        raise ValueError(step)


class Trainer:
    def __init__(self, schedule: WarmupStepLR, stream: sk.Stream) -> None:
        self.schedule = schedule
        self.stream = stream
        self.weights = np.linspace(-2.0, 2.0, N, dtype=np.float32)
        self.lrs: list[float] = []

    def _scaled(self, grad_host: np.ndarray, lr: float) -> sk.DeviceOp:
        delta = tile.zeros((N,), f32).partition((TILE,))
        return lr_scale(delta, tile.from_numpy(grad_host), lr)

    def update(self, grad_host: np.ndarray, step: int) -> np.ndarray | None:
        lr = self.schedule(step)
        self.lrs.append(lr)
        pending = self._scaled(grad_host, lr)
        if lr == 0.0:
            return None
        delta, _grad, _lr = pending.sync_on(self.stream)
        out = tile.zeros((N,), f32).partition((TILE,))
        out, _w, _d = apply_delta(out, tile.from_numpy(self.weights), delta.unpartition()).sync_on(self.stream)
        return out.unpartition().to_numpy(self.stream)

    def fit(self, steps: int) -> float:
        for step in range(steps):
            grad = 2.0 * self.weights
            new = self.update(grad, step)
            if new is not None:
                self.weights = new
        return float(np.mean(self.weights ** 2))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    sched = WarmupStepLR(base_lr=0.2, warmup_steps=3, step_size=2)
    trainer = Trainer(sched, stream)
    loss = trainer.fit(8)
    print("lrs:", [round(x, 3) for x in trainer.lrs], "final loss:", round(loss, 5))


if __name__ == "__main__":
    main()
