# fresh-expect: E0499 at line 38
# (fixed: dict.fromkeys gives every key the one value object: two pending launches write one buffer)
"""Batch inference scheduler: launch one async activation job per request, then collect them all."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH = 256


@simt.kernel
@simt.launch_contract(block=64)
def gelu_approx(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i]
        o.set(v / (f32(1.0) + math.exp(f32(-1.702) * v)))


class Scheduler:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = gelu_approx.prepare(simt.LaunchConfig1D.for_len(WIDTH, block=64), dev)

    def submit_all(self, requests: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        inputs = {rid: sk.to_device(x, self.stream) for rid, x in requests.items()}
        outputs = dict.fromkeys(requests, sk.zeros(WIDTH, f32, self.stream))
        inflight = []
        for rid in sorted(requests):
            inflight.append((rid, gelu_approx.launch_async(self.prepared, inputs[rid], outputs[rid])))
        results = {}
        for rid, op in inflight:
            op.sync_on(self.stream)
            results[rid] = outputs[rid].to_numpy(self.stream)
        return results


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    requests = {f"req-{k}": rng.standard_normal(WIDTH).astype(np.float32) for k in range(3)}
    results = Scheduler(dev, stream).submit_all(requests)
    for rid, y in results.items():
        print(rid, round(float(y.mean()), 4))


if __name__ == "__main__":
    main()
