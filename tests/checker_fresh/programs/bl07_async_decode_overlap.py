# fresh-expect: E0505 at line 62
# fresh-note: decode step that issues dequantize with launch_async and, because overlap=True by default, only syncs it after _sample_stage has moved the still-borrowed logits buffer into the tile temperature launch (line 62).
"""Token decode step of a serving loop: SIMT dequantization followed by a tile temperature stage.

The dequantize launch is issued with `launch_async` so that, with `overlap=True`, the host can keep
building the rest of the step while the device works.  The logits it writes are then handed to a tile
kernel that applies the sampling temperature.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

VOCAB = 200
BLOCK = 64
TILE = 50


@simt.kernel
@simt.launch_contract(block=BLOCK)
def dequant(codes: Slice[i32], scale: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(f32(codes[i]) * scale[0])


@tile.kernel
def temperature(probs: Partition[f32], logits: Tensor[f32], inv_t: f32) -> None:
    probs.store(tile.load_like(logits, probs) * inv_t)


@dataclasses.dataclass
class StepConfig:
    temperature: float = 0.7
    overlap: bool = True


class DecodeStep:
    def __init__(self, device: sk.Device, cfg: StepConfig) -> None:
        self.device = device
        self.cfg = cfg
        self.stream = device.new_stream()
        self.scale = sk.to_device(np.array([0.125], np.float32), self.stream)
        self.prepared = dequant.prepare(simt.LaunchConfig1D.for_len(VOCAB, block=BLOCK), device)
        self.history: list[float] = []

    def _issue_dequant(self, codes: sk.DeviceBuffer, logits: sk.DeviceBuffer) -> sk.DeviceOp:
        return dequant.launch_async(self.prepared, codes, self.scale, logits)

    def _sample_stage(self, logits: sk.DeviceBuffer) -> np.ndarray:
        probs = tile.zeros((VOCAB,), f32).partition((TILE,))
        probs, _logits, _t = temperature(probs, logits, 1.0 / self.cfg.temperature).sync_on(self.stream)
        return probs.unpartition().to_numpy(self.stream)

    def run(self, host_codes: np.ndarray) -> int:
        codes = sk.to_device(host_codes.astype(np.int32), self.stream)
        logits = sk.zeros(VOCAB, f32, self.stream)
        pending: Optional[sk.DeviceOp] = self._issue_dequant(codes, logits)
        if not self.cfg.overlap:
            pending.sync_on(self.stream)
            pending = None
        scores = self._sample_stage(logits)
        if pending is not None:
            pending.sync_on(self.stream)
        token = int(np.argmax(scores))
        self.history.append(float(scores[token]))
        return token


def main() -> None:
    rng = np.random.default_rng(11)
    step = DecodeStep(sk.Device.cpu(), StepConfig())
    tokens = [step.run(rng.integers(-40, 40, VOCAB)) for _ in range(3)]
    print("sampled", tokens, "peak scores", [round(s, 3) for s in step.history])


if __name__ == "__main__":
    main()
