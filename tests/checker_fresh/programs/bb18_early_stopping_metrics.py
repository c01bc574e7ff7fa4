# fresh-expect: clean
# fresh-note: Validation accuracy is counted on the device with atomics into per-name counters from a defaultdict whose factory allocates a new buffer; an EarlyStopping helper breaks out of the epoch loop when accuracy stops improving.
"""Early stopping on validation accuracy (like Lightning's EarlyStopping(monitor="val_acc", mode="max")).

Correct and total counts are accumulated on the device with atomic adds, one counter buffer per metric name,
created the first time a metric is used.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

BATCH = 384


@simt.kernel
@simt.launch_contract(block=128)
def tally(pred: Slice[i32], label: Slice[i32], correct: AtomicSlice[i32], total: AtomicSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(pred):
        total.fetch_add(0, 1)
        if pred[i] == label[i]:
            correct.fetch_add(0, 1)


@dataclass
class EarlyStopping:
    patience: int
    min_delta: float = 0.0
    best: float = -1.0
    bad_epochs: int = 0

    def should_stop(self, metric: float) -> bool:
        if metric > self.best + self.min_delta:
            self.best, self.bad_epochs = metric, 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


class Accuracy:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev, self.stream = dev, stream
        self.counts: defaultdict[str, sk.DeviceBuffer[i32]] = defaultdict(lambda: sk.zeros(1, i32, stream))

    def update(self, pred: np.ndarray, label: np.ndarray) -> None:
        p = sk.to_device(pred.astype(np.int32), self.stream)
        y = sk.to_device(label.astype(np.int32), self.stream)
        prep = tally.prepare(simt.LaunchConfig1D.for_len(len(pred), block=128), self.dev)
        tally.launch(prep, self.stream, p, y, self.counts["correct"], self.counts["total"])

    def compute_and_reset(self) -> float:
        c = int(self.counts["correct"].to_numpy(self.stream)[0])
        t = int(self.counts["total"].to_numpy(self.stream)[0])
        self.counts.clear()
        return c / max(t, 1)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(18)
    acc = Accuracy(dev, stream)
    stopper = EarlyStopping(patience=2, min_delta=0.005)
    quality = [0.55, 0.68, 0.74, 0.75, 0.745, 0.75, 0.76, 0.8]
    history = []
    for epoch, q in enumerate(quality):
        for _ in range(2):
            label = rng.integers(0, 5, BATCH)
            pred = np.where(rng.random(BATCH) < q, label, (label + 1) % 5)
            acc.update(pred, label)
        val_acc = acc.compute_and_reset()
        history.append(round(val_acc, 3))
        if stopper.should_stop(val_acc):
            break
    print(f"stopped at epoch {epoch}, best {stopper.best:.3f}, history {history}")


if __name__ == "__main__":
    main()
