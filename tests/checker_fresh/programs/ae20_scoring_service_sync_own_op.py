# fresh-expect: clean
# idiom: service keeping in-flight launch_async ops in a dict per request; postprocessing syncs the request's own op before reading its logits
"""A small click-through-rate scoring service.

Requests arrive with a feature vector.  `submit` starts the linear stage asynchronously
(logits = features * weights + bias) and remembers the op and its output buffer under the request
id; `postprocess` turns a request's logits into probabilities with a sigmoid kernel; `flush` waits
for whatever is still in flight.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
FEATURES = 256


@simt.kernel
@simt.launch_contract(block=BLOCK)
def linear(x: Slice[f32], w: Slice[f32], logits: DisjointSlice[f32], bias: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := logits.get_mut(idx)) is not None:
        o.set(x[i] * w[i] + bias)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sigmoid(logits: Slice[f32], probs: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := probs.get_mut(idx)) is not None:
        o.set(1.0 / (1.0 + math.exp(-logits[i])))


class ScoringService:
    def __init__(self, weights: np.ndarray, bias: float, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.weights = sk.to_device(weights.astype(np.float32), self.stream)
        self.bias = bias
        config = simt.LaunchConfig1D.for_len(FEATURES, block=BLOCK)
        self.linear_launch = linear.prepare(config, device)
        self.sigmoid_launch = sigmoid.prepare(config, device)
        self.inflight: dict[int, Any] = {}
        self.logits: dict[int, sk.DeviceBuffer[f32]] = {}

    def submit(self, rid: int, features: np.ndarray) -> None:
        x = sk.to_device(features.astype(np.float32), self.stream)
        out = sk.zeros(FEATURES, f32, self.stream)
        self.inflight[rid] = linear.launch_async(self.linear_launch, x, self.weights, out, self.bias)
        self.logits[rid] = out

    def postprocess(self, rid: int) -> float:
        self.inflight.pop(rid).sync_on(self.stream)
        logits = self.logits.pop(rid)
        probs = sk.zeros(FEATURES, f32, self.stream)
        sigmoid.launch(self.sigmoid_launch, self.stream, logits, probs)
        return float(probs.to_numpy(self.stream).mean())

    def flush(self) -> None:
        for op in self.inflight.values():
            op.sync_on(self.stream)
        self.inflight.clear()


def main() -> None:
    rng = np.random.default_rng(12)
    service = ScoringService(rng.standard_normal(FEATURES) * 0.1, bias=-0.2, device=sk.Device.cpu())
    batch = {rid: rng.standard_normal(FEATURES) for rid in (101, 102, 103)}
    for rid, feats in batch.items():
        service.submit(rid, feats)
    scores = {rid: service.postprocess(rid) for rid in batch}
    service.flush()
    for rid, p in scores.items():
        print(f"request {rid}: mean click probability {p:.4f}")


if __name__ == "__main__":
    main()
