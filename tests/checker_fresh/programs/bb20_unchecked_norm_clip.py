# fresh-expect: clean
# fresh-note: Gradient-norm clipping: a block-reduction kernel with a shared-memory scratch (inside `with simt.unsafe():` in the kernel) adds per-block sums of squares into an atomic total, and the scaled SGD update is re-launched with `launch_unchecked` inside the method's own unsafe block.
"""Clip-by-global-norm (torch.nn.utils.clip_grad_norm_) followed by SGD, with a hand-rolled block reduction.

The reduction kernel adds one partial sum of squares per block into a single atomic total; the host computes
the clip factor, and the update kernel applies `p - lr * g * factor`.  The update launch was validated once with
`prepare`, so the hot loop re-launches it unchecked.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def block_sumsq(g: Slice[f32], sumsq: AtomicSlice[f32]) -> None:
    t = thread.thread_idx_x()
    i = thread.block_idx_x() * BLOCK + t
    v = g[i] if i < len(g) else 0.0
    with simt.unsafe():
        scratch = simt.shared_array(f32, BLOCK)
        scratch[t] = v * v
    thread.sync_threads()
    stride = BLOCK // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2
    if t == 0:
        with simt.unsafe():
            total = scratch[0]
        sumsq.fetch_add(0, total)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def scaled_sgd(p: Slice[f32], g: Slice[f32], out: DisjointSlice[f32], lr: f32, factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(p[i] - lr * factor * g[i])


class ClipNormSGD:
    def __init__(self, n: int, dev: sk.Device, stream: sk.Stream, lr: float, max_norm: float) -> None:
        self.n, self.dev, self.stream = n, dev, stream
        self.lr, self.max_norm = lr, max_norm
        self.cfg = simt.LaunchConfig1D.for_len(n, block=BLOCK)
        scaled_sgd.prepare(self.cfg, dev)
        self.reduce_prep = block_sumsq.prepare(self.cfg, dev)

    def grad_norm(self, g: sk.DeviceBuffer[f32]) -> float:
        sumsq = sk.zeros(1, f32, self.stream)
        block_sumsq.launch(self.reduce_prep, self.stream, g, sumsq)
        return float(np.sqrt(sumsq.to_numpy(self.stream)[0]))

    def step(self, p: sk.DeviceBuffer[f32], g: sk.DeviceBuffer[f32]) -> tuple[sk.DeviceBuffer[f32], float]:
        norm = self.grad_norm(g)
        factor = min(1.0, self.max_norm / (norm + 1e-6))
        out = sk.zeros(self.n, f32, self.stream)
        with simt.unsafe():
            scaled_sgd.launch_unchecked(self.cfg, self.stream, p, g, out, self.lr, factor)
        return out, norm


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 1000
    rng = np.random.default_rng(20)
    p = sk.to_device(rng.standard_normal(n).astype(np.float32) * 3.0, stream)
    opt = ClipNormSGD(n, dev, stream, lr=0.5, max_norm=5.0)
    norms = []
    for _ in range(4):
        g = sk.to_device(2.0 * p.to_numpy(stream), stream)
        p, norm = opt.step(p, g)
        norms.append(round(norm, 3))
    print("grad norms before clipping:", norms)


if __name__ == "__main__":
    main()
