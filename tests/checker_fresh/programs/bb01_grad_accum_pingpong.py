# fresh-expect: E0502 at line 63
# fresh-known-miss: cli,mypy a config property giving a one-buffer list read as `bufs[step % len(bufs)]` through a property and a method: computed indices of a list attribute are not followed
# fresh-note: Accumulates micro-batch gradients with a ping-pong pair of buffers selected by step parity. Bug: low_memory=True makes the config keep one buffer, so `current` and `_spare()` are the same buffer and `add` launches it as both the Slice input and the DisjointSlice output (E0502).
"""Gradient accumulation over micro-batches with a ping-pong accumulator.
A PyTorch loop would do `acc += grad / micro_batches` in place; here every micro-batch reads the running sum
from one buffer and writes the new sum into the other, then the two swap roles.  In low-memory mode the
accumulator keeps fewer buffers around.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def accumulate(acc_in: Slice[f32], grad: Slice[f32], acc_out: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := acc_out.get_mut(idx)) is not None:
        out.set(acc_in[i] + scale * grad[i])


@dataclass
class AccumConfig:
    micro_batches: int = 4
    low_memory: bool = False

    @property
    def num_buffers(self) -> int:
        return 1 if self.low_memory else 2


class GradAccumulator:
    """Running sum of micro-batch gradients for one flat parameter vector."""

    def __init__(self, n: int, cfg: AccumConfig, dev: sk.Device, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        self.bufs = [sk.zeros(n, f32, stream) for _ in range(cfg.num_buffers)]
        self.prep = accumulate.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
        self.step = 0

    @property
    def current(self) -> sk.DeviceBuffer[f32]:
        return self.bufs[self.step % len(self.bufs)]

    def _spare(self) -> sk.DeviceBuffer[f32]:
        return self.bufs[(self.step + 1) % len(self.bufs)]

    def add(self, grad: sk.DeviceBuffer[f32]) -> None:
        src, dst = self.current, self._spare()
        scale = 1.0 / self.cfg.micro_batches
        accumulate.launch(self.prep, self.stream, src, grad, dst, scale)
        self.step += 1

    def reset(self) -> None:
        for buf in self.bufs:
            buf.copy_from_numpy(np.zeros(len(buf), np.float32))
        self.step = 0


def micro_batch_grads(rng: np.random.Generator, n: int, count: int) -> list[np.ndarray]:
    return [rng.standard_normal(n).astype(np.float32) for _ in range(count)]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 2048
    rng = np.random.default_rng(7)
    cfg = AccumConfig(micro_batches=4, low_memory=True)
    acc = GradAccumulator(n, cfg, dev, stream)
    history = []
    for step in range(2):
        host_grads = micro_batch_grads(rng, n, cfg.micro_batches)
        for g in host_grads:
            acc.add(sk.to_device(g, stream))
        mean_grad = acc.current.to_numpy(stream)
        want = np.mean(np.stack(host_grads), axis=0)
        history.append(float(np.max(np.abs(mean_grad - want))))
        acc.reset()
    print("accumulated", len(history), "steps, max err", max(history))


if __name__ == "__main__":
    main()
