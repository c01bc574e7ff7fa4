# fresh-expect: E0308 at line 71
# fresh-known-miss: cli,mypy a plan cache class keyed `(n, block)` without the kernel, reached as `self.cache.get(...)` from two methods: a cached launch prepared for another kernel is not followed across methods
# fresh-note: Unscale-then-weight-decay gradient pipeline that caches prepared launches in a PlanCache. Bug: the cache key is `(n, block)` without the kernel, so `_decay` gets the launch prepared for `unscale` on a same-sized tensor and launches `add_decay` with it (E0308).
"""Gradient post-processing before the optimizer: unscale the gradients, then add L2 weight decay.
The training loop runs the same few elementwise kernels on tensors of a handful of sizes every step, so it
caches the prepared launches instead of validating a configuration per call.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def unscale(grad: Slice[f32], out: DisjointSlice[f32], inv_scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(grad[i] * inv_scale)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def add_decay(grad: Slice[f32], param: Slice[f32], out: DisjointSlice[f32], wd: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(grad[i] + wd * param[i])


class PlanCache:
    """Prepared launches, reused across steps."""

    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self._plans: dict[tuple[int, int], object] = {}
        self.hits = 0

    def get(self, kernel, n: int, block: int = BLOCK):
        key = (n, block)
        if key in self._plans:
            self.hits += 1
        else:
            self._plans[key] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=block), self.dev)
        return self._plans[key]


class GradPipeline:
    def __init__(self, cache: PlanCache, stream: sk.Stream, loss_scale: float, wd: float) -> None:
        self.cache = cache
        self.stream = stream
        self.loss_scale = loss_scale
        self.wd = wd

    def _unscale(self, grad: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        out = sk.zeros(len(grad), f32, self.stream)
        unscale.launch(self.cache.get(unscale, len(grad)), self.stream, grad, out, 1.0 / self.loss_scale)
        return out

    def _decay(self, grad: sk.DeviceBuffer[f32], param: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        out = sk.zeros(len(grad), f32, self.stream)
        plan = self.cache.get(add_decay, len(grad))
        add_decay.launch(plan, self.stream, grad, param, out, self.wd)
        return out

    def __call__(self, grads: dict[str, sk.DeviceBuffer[f32]], params: dict[str, sk.DeviceBuffer[f32]]):
        return {name: self._decay(self._unscale(g), params[name]) for name, g in grads.items()}


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2)
    sizes = {"embed": 1024, "proj": 1024, "norm": 64}
    params = {k: sk.to_device(rng.standard_normal(n).astype(np.float32), stream) for k, n in sizes.items()}
    scale = 1024.0
    grads = {k: sk.to_device((scale * rng.standard_normal(n)).astype(np.float32), stream) for k, n in sizes.items()}
    pipeline = GradPipeline(PlanCache(dev), stream, loss_scale=scale, wd=0.01)
    for _ in range(2):
        processed = pipeline(grads, params)
    norms = {k: float(np.linalg.norm(v.to_numpy(stream))) for k, v in processed.items()}
    print("grad norms:", {k: round(v, 3) for k, v in norms.items()}, "cache hits:", pipeline.cache.hits)


if __name__ == "__main__":
    main()
