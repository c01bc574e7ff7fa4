# fresh-expect: E0502 at line 67
# fresh-known-miss: cli,mypy a layer looked up in a dict attribute by a method whose fallback (a property) gives the base layer: a dict item chosen by a key the caller computes, through a property, is not followed
# fresh-note: Plans Kente strip weaving by laying motifs over named loom layers; the adwinasa motif has no target layer, so destination falls back to its base layer and LoomBank.lay passes the same 'panel' buffer as both the read-only base and the woven output.
"""Kente strip weaving planner: lays each motif's shuttle pattern over a named loom layer, strip by strip."""
from __future__ import annotations
from dataclasses import dataclass
from typing import Optional

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STRIP_THREADS = 384


@simt.kernel
@simt.launch_contract(block=128)
def interlace(base: Slice[f32], shuttle: Slice[f32], woven: DisjointSlice[f32], beat: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := woven.get_mut(idx)) is not None:
        cell.set(base[i] * (1.0 - beat) + shuttle[i % len(shuttle)] * beat)


@dataclass(frozen=True)
class Motif:
    name: str
    base_layer: str
    beat: float
    shuttle: tuple[float, ...]
    target_layer: Optional[str] = None  # None: the motif is finished on the layer it was laid over

    @property
    def destination(self) -> str:
        return self.target_layer or self.base_layer


class LoomBank:
    """Owns the device layers of one strip; every layer is addressed by its name."""

    LAYERS = ("ground", "border", "panel")

    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        self._layers: dict[str, sk.DeviceBuffer] = {name: sk.zeros(n, f32, self.stream) for name in self.LAYERS}
        self._plan = interlace.prepare(simt.LaunchConfig1D.for_len(n, block=128), device)
        self.log: list[str] = []

    def layer(self, name: str) -> sk.DeviceBuffer:
        try:
            return self._layers[name]
        except KeyError:
            raise KeyError(f"loom has no layer {name!r}; known: {sorted(self._layers)}") from None

    def warp_up(self, pattern: np.ndarray) -> "LoomBank":
        self._layers["ground"] = sk.to_device(pattern.astype(np.float32), self.stream)
        self.log.append("warped")
        return self

    def lay(self, motif: Motif) -> "LoomBank":
        shuttle = sk.to_device(np.asarray(motif.shuttle, dtype=np.float32), self.stream)
        source = self.layer(motif.base_layer)
        target = self.layer(motif.destination)
        interlace.launch(self._plan, self.stream, source, shuttle, target, motif.beat)
        self.log.append(f"{motif.name}: {motif.base_layer} -> {motif.destination}")
        return self

    def snapshot(self) -> dict[str, np.ndarray]:
        return {name: buf.to_numpy(self.stream) for name, buf in self._layers.items()}


MOTIFS = [
    Motif("nyankonton", base_layer="ground", target_layer="border", beat=0.6, shuttle=(1.0, 0.0, 0.0, 1.0)),
    Motif("obaakofo", base_layer="border", target_layer="panel", beat=0.4, shuttle=(0.2, 0.8, 0.2)),
    Motif("adwinasa", base_layer="panel", beat=0.5, shuttle=(0.9, 0.1)),
]


def weave_strip(bank: LoomBank, pattern: np.ndarray, motifs: list[Motif]) -> dict[str, float]:
    bank.warp_up(pattern)
    for motif in motifs:
        bank.lay(motif)
    layers = bank.snapshot()
    return {name: float(values.mean()) for name, values in layers.items()}


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(7)
    summaries = []
    for strip in range(2):
        bank = LoomBank(device, STRIP_THREADS)
        pattern = (rng.random(STRIP_THREADS) > 0.5).astype(np.float32)
        summaries.append(weave_strip(bank, pattern, MOTIFS))
        print(f"strip {strip}: " + "; ".join(bank.log))
    for strip, summary in enumerate(summaries):
        print(strip, {k: round(v, 3) for k, v in summary.items()})


if __name__ == "__main__":
    main()
