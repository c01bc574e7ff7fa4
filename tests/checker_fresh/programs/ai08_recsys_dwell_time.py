# fresh-expect: clean
# fresh-note: compute_grads leaves a pending launch_async op in state.pending, and apply_update runs it through finish before it partitions state.weights.
"""Training step of a per-item dwell-time regressor for a recommender feed, SIMT gradients and a tile update.

Each item has a weight w; predicted log dwell time is w[item] * freshness[item] + offset.  The squared-error
gradient of a batch is computed by a SIMT kernel launched asynchronously while the host computes the batch loss;
the momentum-free SGD step is a tile kernel over the weight vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

ITEMS = 320
TILE = 64
LR = 0.2
L2 = 1e-3
STEPS = 6


@simt.kernel
@simt.launch_contract(block=128)
def dwell_grad(weights: Slice[f32], fresh: Slice[f32], target: Slice[f32], grad: DisjointSlice[f32],
               offset: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (g := grad.get_mut(idx)) is not None:
        residual = weights[i] * fresh[i] + offset - target[i]
        g.set(residual * fresh[i])


@tile.kernel
def sgd_update(w: Partition[f32], grad: Tensor[f32], lr: f32, l2: f32) -> None:
    cur = w.load()
    w.store(cur - (tile.load_like(grad, w) + cur * l2) * lr)


@dataclass
class TrainState:
    weights: Tensor[f32]
    grad: sk.DeviceBuffer
    pending: sk.DeviceOp | None = None
    losses: list[float] = field(default_factory=list)


def compute_grads(state: TrainState, prep: simt.PreparedLaunch, fresh: sk.DeviceBuffer, target: sk.DeviceBuffer,
                  offset: float) -> None:
    state.pending = dwell_grad.launch_async(prep, state.weights, fresh, target, state.grad, offset)


def finish(state: TrainState, stream: sk.Stream) -> None:
    if state.pending is not None:
        state.pending.sync_on(stream)
        state.pending = None


def apply_update(state: TrainState, stream: sk.Stream, lr: float) -> None:
    finish(state, stream)
    w, g, _, _ = sgd_update(state.weights.partition((TILE,)), state.grad, lr, L2).sync_on(stream)
    state.weights, state.grad = w.unpartition(), g


def batch_loss(w: np.ndarray, fresh: np.ndarray, target: np.ndarray, offset: float) -> float:
    return float(np.mean((w * fresh + offset - target) ** 2))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    true_w = rng.normal(1.0, 0.5, ITEMS).astype(np.float32)
    offset = 2.0
    state = TrainState(weights=tile.zeros((ITEMS,), f32).sync_on(stream), grad=sk.zeros(ITEMS, f32, stream))
    prep = dwell_grad.prepare(simt.LaunchConfig1D.for_len(ITEMS, block=128), dev)
    for step in range(STEPS):
        fresh_np = rng.uniform(0.5, 1.5, ITEMS).astype(np.float32)
        target_np = (true_w * fresh_np + offset + rng.normal(0.0, 0.05, ITEMS)).astype(np.float32)
        fresh = sk.to_device(fresh_np, stream)
        target = sk.to_device(target_np, stream)
        compute_grads(state, prep, fresh, target, offset)
        state.losses.append(batch_loss(state.weights.to_numpy(stream), fresh_np, target_np, offset))
        apply_update(state, stream, LR)
        print(f"step {step}: mse {state.losses[-1]:.4f}")
    err = float(np.abs(state.weights.to_numpy(stream) - true_w).mean())
    print(f"mean absolute weight error after {STEPS} steps: {err:.3f}")


if __name__ == "__main__":
    main()
