# fresh-expect: E0499 at line 51
# fresh-known-miss: cli,mypy a `defaultdict(lambda: blank)` attribute: the factory's one buffer behind two keys of an attribute container is not followed
# fresh-note: Evaluation metric tracker counting per-class true/false positives with atomics into counters created on demand by a defaultdict. Bug: the default factory `lambda: blank` returns one shared buffer, so `counters["tp"]` and `counters["fp"]` are the same buffer, passed as two AtomicSlice outputs (E0499).
"""Per-class true/false positive counters for an evaluation loop (torchmetrics-style, updated on the device).
Each eval batch adds its predictions to running counters with atomics; precision per class is computed on the
host at the end of the epoch.  Counters are created on first use so new metrics can be registered by name.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

NUM_CLASSES = 10
BATCH = 512


@simt.kernel
@simt.launch_contract(block=128)
def count_hits(pred: Slice[i32], label: Slice[i32], tp: AtomicSlice[i32], fp: AtomicSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(pred):
        p = pred[i]
        if p == label[i]:
            tp.fetch_add(p, 1)
        else:
            fp.fetch_add(p, 1)


class MetricTracker:
    def __init__(self, dev: sk.Device, stream: sk.Stream, num_classes: int) -> None:
        self.dev = dev
        self.stream = stream
        self.num_classes = num_classes
        blank = sk.zeros(num_classes, i32, stream)
        self.counters: defaultdict[str, sk.DeviceBuffer[i32]] = defaultdict(lambda: blank)
        self.batches = 0

    def update(self, pred: np.ndarray, label: np.ndarray) -> None:
        p = sk.to_device(pred.astype(np.int32), self.stream)
        y = sk.to_device(label.astype(np.int32), self.stream)
        prep = count_hits.prepare(simt.LaunchConfig1D.for_len(len(pred), block=128), self.dev)
        tp, fp = self.counters["tp"], self.counters["fp"]
        count_hits.launch(prep, self.stream, p, y, tp, fp)
        self.batches += 1

    def compute(self) -> dict[str, np.ndarray]:
        tp = self.counters["tp"].to_numpy(self.stream).astype(np.float64)
        fp = self.counters["fp"].to_numpy(self.stream).astype(np.float64)
        return {"precision": tp / np.maximum(tp + fp, 1.0), "support": tp + fp}

    def reset(self) -> None:
        for buf in self.counters.values():
            buf.copy_from_numpy(np.zeros(self.num_classes, np.int32))
        self.batches = 0


def fake_model(rng: np.random.Generator, label: np.ndarray, accuracy: float) -> np.ndarray:
    wrong = rng.random(len(label)) > accuracy
    noise = rng.integers(0, NUM_CLASSES, len(label))
    return np.where(wrong, noise, label)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    tracker = MetricTracker(dev, stream, NUM_CLASSES)
    for epoch in range(2):
        tracker.reset()
        for _ in range(3):
            label = rng.integers(0, NUM_CLASSES, BATCH)
            tracker.update(fake_model(rng, label, accuracy=0.7 + 0.1 * epoch), label)
        result = tracker.compute()
        print(f"epoch {epoch}: mean precision {result['precision'].mean():.3f} over {int(result['support'].sum())} preds")


if __name__ == "__main__":
    main()
