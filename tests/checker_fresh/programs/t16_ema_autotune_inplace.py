# fresh-expect: E0502 at line 31
"""Exponential moving average of model weights with an autotuned SIMT kernel, updated in place."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.autotune(configs=[128, 256], key=["w"], warmup=1, rep=1)
@simt.kernel
@simt.launch_contract(domain=1)
def ema(w: Slice[f32], avg: Slice[f32], out: DisjointSlice[f32], decay: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(decay * avg[i] + (1.0 - decay) * w[i])


class EmaTracker:
    def __init__(self, weights: dict, stream, decay: float = 0.9) -> None:
        self.stream = stream
        self.decay = decay
        self.averages = {name: sk.to_device(w.to_numpy(stream), stream) for name, w in weights.items()}

    def update(self, weights: dict) -> None:
        for name, w in weights.items():
            avg = self.averages[name]
            ema.launch(self.stream, w, avg, avg, self.decay)  # BUG: reads and writes `avg`


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    weights = {"fc": sk.to_device(np.ones(512, np.float32), stream)}
    tracker = EmaTracker(weights, stream)
    for _ in range(2):
        tracker.update(weights)
    print(tracker.averages["fc"].to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
