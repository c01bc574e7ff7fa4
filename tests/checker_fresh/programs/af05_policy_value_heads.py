# fresh-expect: E0505 at line 93
# idiom: list comprehension of launch_async head ops; logits partitioned for a tile softmax before they are synced (bug)
"""Forward pass of a tiny policy/value network for a batch of game observations.

A shared trunk layer (dense + ReLU) feeds two heads that run concurrently: a policy head
producing one logit per action and a value head producing one scalar per observation.  The
policy logits are turned into probabilities by a row softmax on the tile track.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

BLOCK = 64
ACTIONS = 8
ROWS = 4  # observations per softmax tile


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(w) >= n_in * n_out", "len(b) >= n_out"))
def dense(x: Slice[f32], w: Slice[f32], b: Slice[f32], y: DisjointSlice[f32], n_in: u32, n_out: u32,
          relu: bool) -> None:
    idx = thread.index_1d()
    i = idx.get()
    row = i // n_out
    j = i % n_out
    if (out := y.get_mut(idx)) is not None:
        acc = b[j]
        for k in range(n_in):
            acc += x[row * n_in + k] * w[j * n_in + k]
        if relu and acc < 0.0:
            acc = f32(0.0)
        out.set(acc)


@tile.kernel
def softmax_rows(p: Annotated[Partition[f32], tile.Dims(ROWS * ACTIONS)]) -> None:
    t = tile.reshape(p.load(), (ROWS, ACTIONS))
    e = tile.exp(t - tile.max(t, axis=1, keepdims=True))
    p.store(tile.reshape(e / tile.sum(e, axis=1, keepdims=True), (ROWS * ACTIONS,)))


@dataclass
class Dense:
    w: sk.DeviceBuffer
    b: sk.DeviceBuffer
    n_in: int
    n_out: int
    relu: bool
    host: tuple[np.ndarray, np.ndarray]


def make_layer(rng: np.random.Generator, n_in: int, n_out: int, relu: bool, stream: sk.Stream) -> Dense:
    w = (rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(np.float32)
    b = (0.1 * rng.standard_normal(n_out)).astype(np.float32)
    return Dense(sk.to_device(w.ravel(), stream), sk.to_device(b, stream), n_in, n_out, relu, (w, b))


class PolicyValueNet:
    def __init__(self, features: int, hidden: int, dev: sk.Device, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.dev = dev
        self.stream = dev.new_stream()
        self.trunk = make_layer(rng, features, hidden, True, self.stream)
        self.policy = make_layer(rng, hidden, ACTIONS, False, self.stream)
        self.value = make_layer(rng, hidden, 1, False, self.stream)

    def _launch_for(self, n: int) -> simt.PreparedLaunch:
        return dense.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.dev)

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        batch = obs.shape[0]
        s = self.stream
        x = sk.to_device(obs.astype(np.float32).ravel(), s)
        hidden = sk.zeros(batch * self.trunk.n_out, f32, s)
        t = self.trunk
        dense.launch(self._launch_for(batch * t.n_out), s, x, t.w, t.b, hidden, t.n_in, t.n_out, t.relu)
        logits = sk.zeros(batch * ACTIONS, f32, s)
        values = sk.zeros(batch, f32, s)
        pending = [
            dense.launch_async(self._launch_for(batch * h.n_out), hidden, h.w, h.b, out, h.n_in, h.n_out, h.relu)
            for h, out in ((self.policy, logits), (self.value, values))
        ]
        probs_op = softmax_rows(logits.partition((ROWS * ACTIONS,)))
        for op in pending:
            op.sync_on(s)
        (probs,) = probs_op.sync_on(s)
        return probs.unpartition().to_numpy(s).reshape(batch, ACTIONS), values.to_numpy(s)


def reference(net: PolicyValueNet, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    def apply(layer: Dense, a: np.ndarray) -> np.ndarray:
        w, b = layer.host
        z = a @ w.T + b
        return np.maximum(z, 0.0) if layer.relu else z

    h = apply(net.trunk, obs)
    z = apply(net.policy, h)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True), apply(net.value, h)[:, 0]


def main() -> None:
    net = PolicyValueNet(features=12, hidden=16, dev=sk.Device.cpu())
    obs = np.random.default_rng(5).standard_normal((10, 12)).astype(np.float32)
    probs, values = net.forward(obs)
    want_p, want_v = reference(net, obs)
    np.testing.assert_allclose(probs, want_p, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(values, want_v, rtol=1e-4, atol=1e-5)
    print("greedy actions:", probs.argmax(axis=1).tolist())


if __name__ == "__main__":
    main()
