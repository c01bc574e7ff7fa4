# fresh-expect: clean
# fresh-note: Search reranker that turns cross-encoder logits into calibrated scores, using a `launch_unchecked` fast path for full-size batches (the unsafe block sits inside the method that makes the call) and the prepared, validated launch for ragged batches, with timing in try/finally.
"""Post-processing for a cross-encoder reranking service: raw relevance logits are calibrated with a
temperature-scaled sigmoid on the device.  Full batches take a fast path that skips launch validation;
the last, ragged batch of a query goes through the validated launch.
"""

from __future__ import annotations

import math
import time

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BATCH = 128


@simt.kernel
@simt.launch_contract(block=128)
def calibrate(logits: Slice[f32], scores: DisjointSlice[f32], inv_t: f32, shift: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(logits):
        if (s := scores.get_mut(idx)) is not None:
            s.set(1.0 / (1.0 + math.exp(-(logits[i] - shift) * inv_t)))


class Reranker:
    def __init__(self, dev: sk.Device, stream: sk.Stream, temperature: float = 2.0, shift: float = 0.5) -> None:
        self.dev = dev
        self.stream = stream
        self.inv_t = 1.0 / temperature
        self.shift = shift
        self.full_cfg = simt.LaunchConfig1D.for_len(BATCH, block=128)
        calibrate.prepare(self.full_cfg, dev)  # the full-batch config is valid on this device
        self.timings: list[float] = []

    def _fast(self, logits: sk.DeviceBuffer, scores: sk.DeviceBuffer) -> None:
        with simt.unsafe():  # full batches only: the config was validated in __init__
            calibrate.launch_unchecked(self.full_cfg, self.stream, logits, scores, self.inv_t, self.shift)

    def _checked(self, logits: sk.DeviceBuffer, scores: sk.DeviceBuffer, n: int) -> None:
        prepared = calibrate.prepare(simt.LaunchConfig1D.for_len(n, block=128), self.dev)
        calibrate.launch(prepared, self.stream, logits, scores, self.inv_t, self.shift)

    def score(self, logits: np.ndarray) -> np.ndarray:
        start = time.perf_counter()
        try:
            src = sk.to_device(logits.astype(np.float32), self.stream)
            out = sk.zeros(len(logits), f32, self.stream)
            if len(logits) == BATCH:
                self._fast(src, out)
            else:
                self._checked(src, out, len(logits))
            return out.to_numpy(self.stream)
        finally:
            self.timings.append(time.perf_counter() - start)

    def rerank(self, doc_ids: list[str], logits: np.ndarray) -> list[tuple[str, float]]:
        scores = np.concatenate([self.score(logits[s : s + BATCH]) for s in range(0, len(logits), BATCH)])
        order = np.argsort(-scores, kind="stable")
        return [(doc_ids[i], float(scores[i])) for i in order]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    reranker = Reranker(dev, stream)
    rng = np.random.default_rng(17)
    n_docs = 300
    docs = [f"doc-{i:03d}" for i in range(n_docs)]
    ranked = reranker.rerank(docs, rng.standard_normal(n_docs).astype(np.float32) * 3.0)
    print("top 3:", [(d, round(s, 3)) for d, s in ranked[:3]], "batches:", len(reranker.timings))


if __name__ == "__main__":
    main()
