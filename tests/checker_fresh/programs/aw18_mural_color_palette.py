# fresh-expect: clean
# fresh-note: A mural studio keeps per-section launch_async ops in a dict, drains them with a loop over values() and clear(), and only then blends adjacent sections at the seams.
"""Mural color palette matching: async per-section palette distance, drained before sections are blended at seams."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SWATCH = 192


@simt.kernel
@simt.launch_contract(block=64)
def palette_distance(pigment: Slice[f32], target: Slice[f32], dist: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dist.get_mut(idx)) is not None:
        d = pigment[i] - target[i]
        o.set(d * d)


@simt.kernel
@simt.launch_contract(block=64)
def seam_blend(left: Slice[f32], right: Slice[f32], blended: DisjointSlice[f32], weight: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := blended.get_mut(idx)) is not None:
        o.set(weight * left[i] + (1.0 - weight) * right[i])


@dataclass(frozen=True)
class Section:
    wall: str
    name: str
    hue: float


def sections() -> Iterator[Section]:
    for wall, hues in (("north", (0.1, 0.15, 0.4)), ("east", (0.55, 0.6))):
        for k, hue in enumerate(hues):
            yield Section(wall, f"{wall}-{k}", hue)


class MuralStudio:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        config = simt.LaunchConfig1D.for_len(SWATCH, block=64)
        self.dist_plan = palette_distance.prepare(config, dev)
        self.blend_plan = seam_blend.prepare(config, dev)
        self.target = sk.to_device(np.linspace(0.2, 0.8, SWATCH, dtype=np.float32), self.stream)
        self.distance: dict[str, sk.DeviceBuffer] = {}
        self.inflight: dict[str, sk.DeviceOp] = {}
        self.by_wall: defaultdict[str, list[str]] = defaultdict(list)

    def mix(self, section: Section) -> None:
        x = np.linspace(0.0, 1.0, SWATCH, dtype=np.float32)
        pigment = sk.to_device((0.2 + 0.6 * x + 0.1 * np.sin(8 * x + section.hue)).astype(np.float32), self.stream)
        self.distance[section.name] = out = sk.zeros(SWATCH, f32, self.stream)
        self.inflight[section.name] = palette_distance.launch_async(self.dist_plan, pigment, self.target, out)
        self.by_wall[section.wall].append(section.name)

    def drain(self) -> None:
        for op in self.inflight.values():
            op.sync_on(self.stream)
        self.inflight.clear()

    def seams(self) -> dict[tuple[str, str], float]:
        result = {}
        blended = sk.zeros(SWATCH, f32, self.stream)
        for wall, names in self.by_wall.items():
            for left, right in zip(names, names[1:]):
                seam_blend.launch(self.blend_plan, self.stream, self.distance[left], self.distance[right], blended, 0.5)
                if (err := float(blended.to_numpy(self.stream).mean())) > 1e-4:
                    result[(left, right)] = err
        return result


def main() -> None:
    studio = MuralStudio(sk.Device.default())
    for section in sections():
        studio.mix(section)
    studio.drain()
    scores = {name: float(buf.to_numpy(studio.stream).mean()) for name, buf in studio.distance.items()}
    print({k: f"{v:.4f}" for k, v in scores.items()})
    for (left, right), err in sorted(studio.seams().items(), key=lambda kv: -kv[1]):
        print(f"seam {left} | {right}: {err:.4f}")


if __name__ == "__main__":
    main()
