# fresh-expect: E0499 at line 52
# fresh-note: Seed bank germination triage that sorts accessions into viable and dormant score buffers; the output dict is built with dict.fromkeys around one allocation, so both mutable outputs of the classify launch are the same buffer.
"""Seed bank: classify stored accessions from a germination test into viable and dormant lots."""
from __future__ import annotations


import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
PHASES = ("viable", "dormant")


@simt.kernel
@simt.launch_contract(block=BLOCK)
def classify(germinated: Slice[f32], sown: Slice[f32], viable: DisjointSlice[f32],
             dormant: DisjointSlice[f32], cutoff: f32) -> None:
    i = thread.index_1d().get()
    if i < len(sown):
        rate = germinated[i] / sown[i]
        a = thread.index_1d()
        if (v := viable.get_mut(a)) is not None:
            if rate >= cutoff:
                v.set(rate)
            else:
                v.set(f32(0.0))
        b = thread.index_1d()
        if (d := dormant.get_mut(b)) is not None:
            if rate < cutoff:
                d.set(f32(1.0) - rate)
            else:
                d.set(f32(0.0))


class GerminationTest:
    def __init__(self, dev: sk.Device, stream: sk.Stream, accessions: int) -> None:
        self.stream = stream
        self.accessions = accessions
        self._prepared = classify.prepare(simt.LaunchConfig1D.for_len(accessions, block=BLOCK), dev)
        self.outputs = self._allocate_outputs()

    def _allocate_outputs(self) -> dict[str, sk.DeviceBuffer]:
        return dict.fromkeys(PHASES, sk.zeros(self.accessions, f32, self.stream))

    def run(self, germinated: np.ndarray, sown: np.ndarray, cutoff: float = 0.85) -> dict[str, np.ndarray]:
        g = sk.to_device(germinated.astype(np.float32), self.stream)
        s = sk.to_device(sown.astype(np.float32), self.stream)
        classify.launch(self._prepared, self.stream, g, s, *(self.outputs[p] for p in PHASES), cutoff)
        return {phase: buf.to_numpy(self.stream) for phase, buf in self.outputs.items()}


def trial(accessions: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    sown = np.full(accessions, 50.0)
    vigour = rng.beta(6.0, 1.5, accessions)
    return rng.binomial(50, vigour).astype(np.float64), sown


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    test = GerminationTest(dev, stream, accessions=300)
    germinated, sown = trial(300, seed=2)
    result = test.run(germinated, sown)
    regenerate = np.flatnonzero(result["dormant"] > 0.0)
    print(f"{int((result['viable'] > 0).sum())} accessions viable")
    print(f"{regenerate.size} accessions flagged for regeneration, e.g. {regenerate[:5].tolist()}")


if __name__ == "__main__":
    main()
