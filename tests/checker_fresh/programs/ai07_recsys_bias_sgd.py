# fresh-expect: E0505 at line 59
# fresh-note: compute_grads leaves a pending launch_async op in state.pending that borrows state.bias and state.grad, and the loop calls apply_update, which partitions state.bias, before finish syncs it.
"""Training step of an item-bias click model for a recommender, SIMT gradients and a tile SGD update.

Every item has a learned bias; p(click) = sigmoid(bias[item] + user_bias).  Gradients of the log loss for one
impression batch are computed by a SIMT kernel launched asynchronously, so the host can compute the batch loss
meanwhile; the SGD step with L2 decay is a tile kernel over the bias vector.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

ITEMS = 300
TILE = 64
LR = 0.5
L2 = 1e-3
STEPS = 6


@simt.kernel
@simt.launch_contract(block=128)
def bias_grad(bias: Slice[f32], clicks: Slice[f32], grad: DisjointSlice[f32], user_bias: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (g := grad.get_mut(idx)) is not None:
        p = f32(1.0) / (f32(1.0) + math.exp(-(bias[i] + user_bias)))
        g.set(p - clicks[i])


@tile.kernel
def sgd_update(w: Partition[f32], grad: Tensor[f32], lr: f32, l2: f32) -> None:
    cur = w.load()
    w.store(cur - (tile.load_like(grad, w) + cur * l2) * lr)


@dataclass
class TrainState:
    bias: Tensor[f32]
    grad: sk.DeviceBuffer
    pending: sk.DeviceOp | None = None
    losses: list[float] = field(default_factory=list)


def compute_grads(state: TrainState, prep: simt.PreparedLaunch, clicks: sk.DeviceBuffer, user_bias: float) -> None:
    state.pending = bias_grad.launch_async(prep, state.bias, clicks, state.grad, user_bias)


def apply_update(state: TrainState, stream: sk.Stream, lr: float) -> None:
    w, g, _, _ = sgd_update(state.bias.partition((TILE,)), state.grad, lr, L2).sync_on(stream)
    state.bias, state.grad = w.unpartition(), g


def finish(state: TrainState, stream: sk.Stream) -> None:
    if state.pending is not None:
        state.pending.sync_on(stream)
        state.pending = None


def batch_loss(bias: np.ndarray, clicks: np.ndarray, user_bias: float) -> float:
    p = 1.0 / (1.0 + np.exp(-(bias + user_bias)))
    return float(-np.mean(clicks * np.log(p + 1e-7) + (1 - clicks) * np.log(1 - p + 1e-7)))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    true_ctr = rng.beta(1.0, 12.0, ITEMS).astype(np.float32)
    state = TrainState(bias=tile.full((ITEMS,), -2.0, f32).sync_on(stream), grad=sk.zeros(ITEMS, f32, stream))
    prep = bias_grad.prepare(simt.LaunchConfig1D.for_len(ITEMS, block=128), dev)
    user_bias = math.log(0.5)
    for step in range(STEPS):
        clicks_np = (rng.random(ITEMS) < true_ctr).astype(np.float32)
        clicks = sk.to_device(clicks_np, stream)
        compute_grads(state, prep, clicks, user_bias)
        state.losses.append(batch_loss(state.bias.to_numpy(stream), clicks_np, user_bias))
        apply_update(state, stream, LR)
        finish(state, stream)
        print(f"step {step}: log loss {state.losses[-1]:.4f}")
    learned = state.bias.to_numpy(stream)
    corr = float(np.corrcoef(learned, true_ctr)[0, 1])
    print(f"correlation of learned biases with true CTR after {STEPS} steps: {corr:.3f}")


if __name__ == "__main__":
    main()
