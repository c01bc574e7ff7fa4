# fresh-expect: clean
# fresh-note: Clean twin: when pairs() pads the odd texture with itself, upload() sends the duplicate write to a separate scratch buffer, so the two blit outputs never overlap.
"""A texture atlas in the SIMT track: small textures are packed into one linear atlas buffer with a guard padding
between regions, and uploaded two at a time with a paired blit kernel into views of the atlas."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def blit_pair(src_a: Slice[f32], src_b: Slice[f32], dst_a: DisjointSlice[f32], dst_b: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(src_a):
        if (oa := dst_a.get_mut(thread.index_1d())) is not None:
            oa.set(src_a[i])
    if i < len(src_b):
        if (ob := dst_b.get_mut(thread.index_1d())) is not None:
            ob.set(src_b[i])


class AtlasFullError(RuntimeError):
    pass


@dataclass(frozen=True)
class Region:
    name: str
    start: int
    length: int

    @property
    def stop(self) -> int:
        return self.start + self.length


@dataclass
class ShelfAllocator:
    capacity: int
    padding: int = 4
    cursor: int = 0

    def allocate(self, name: str, length: int) -> Region:
        start = self.cursor + self.padding
        if start + length > self.capacity:
            raise AtlasFullError(f"{name}: needs {length} texels at {start}, atlas holds {self.capacity}")
        self.cursor = start + length
        return Region(name, start, length)


@dataclass
class TextureAtlas:
    capacity: int
    device: sk.Device
    regions: dict[str, Region] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.stream = self.device.new_stream()
        self.buffer = sk.zeros(self.capacity, f32, self.stream)
        self.allocator = ShelfAllocator(self.capacity)
        self.scratch = sk.zeros(self.capacity // 4, f32, self.stream)  # sink for a padded pair's duplicate

    def __getitem__(self, name: str) -> sk.DeviceBuffer:
        region = self.regions[name]
        return self.buffer.view(region.start, region.stop)

    def __contains__(self, name: str) -> bool:
        return name in self.regions

    def reserve(self, name: str, texels: np.ndarray) -> Region:
        region = self.allocator.allocate(name, texels.size)
        self.regions[name] = region
        return region

    def upload(self, textures: dict[str, np.ndarray]) -> int:
        for name, texels in textures.items():
            self.reserve(name, texels)
        launches = 0
        for (name_a, tex_a), (name_b, tex_b) in pairs(textures.items()):
            src_a = sk.to_device(tex_a.reshape(-1), self.stream)
            src_b = sk.to_device(tex_b.reshape(-1), self.stream)
            longest = max(tex_a.size, tex_b.size)
            prep = blit_pair.prepare(simt.LaunchConfig1D.for_len(longest, block=64), self.device)
            dst_a = self[name_a]
            dst_b = self[name_b] if name_b != name_a else self.scratch
            blit_pair.launch(prep, self.stream, src_a, src_b, dst_a, dst_b)
            launches += 1
        return launches

    def read(self, name: str) -> np.ndarray:
        return self[name].to_numpy(self.stream)


def pairs(items: Iterable[tuple[str, np.ndarray]]) -> Iterator[tuple[tuple[str, np.ndarray], tuple[str, np.ndarray]]]:
    it = iter(items)
    while True:
        chunk = list(itertools.islice(it, 2))
        if len(chunk) < 2:
            if chunk:  # an odd one out: pad the pair with itself
                yield chunk[0], chunk[0]
            return
        yield chunk[0], chunk[1]


def main() -> None:
    rng = np.random.default_rng(2)
    textures = {f"glyph_{k}": rng.random((8, 8 + 2 * k)).astype(np.float32) for k in range(5)}
    atlas = TextureAtlas(capacity=1024, device=sk.Device.default())
    launches = atlas.upload(textures)
    for name, texels in textures.items():
        np.testing.assert_array_equal(atlas.read(name), texels.reshape(-1))
    used = max(r.stop for r in atlas.regions.values())
    print(f"packed {len(textures)} textures in {launches} launches, {used}/{atlas.capacity} texels used")


if __name__ == "__main__":
    main()
