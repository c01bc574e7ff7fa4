# fresh-expect: E0382 at line 78
# fresh-note: Corrects ice-core delta-18O profiles per section class; GlacialIceSection.correct() calls super().correct(), whose tile launch moved self.profile.depth (only the output was taken back), then reads the moved depth tensor.
"""Ice-core isotope dating: correct delta-18O profiles for firn diffusion and turn them into temperatures."""
from __future__ import annotations

import abc
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64


@tile.kernel
def diffusion_correct(out: Partition[f32], d18o: Tensor[f32], depth: Tensor[f32], k: f32) -> None:
    raw = tile.load_like(d18o, out)
    dz = tile.load_like(depth, out)
    out.store(raw + dz * k)


@tile.kernel
def to_temperature(out: Partition[f32], d18o: Tensor[f32], slope: f32, offset: f32) -> None:
    out.store(tile.load_like(d18o, out) * slope + offset)


@dataclass
class IsotopeProfile:
    delta18o: Tensor[f32]
    depth: Tensor[f32]

    @classmethod
    def synthetic(cls, n: int, stream: sk.Stream, seed: int) -> "IsotopeProfile":
        rng = np.random.default_rng(seed)
        depth = np.linspace(0.0, 120.0, n, dtype=np.float32)
        d18o = (-35.0 + 2.5 * np.sin(depth / 7.0) + rng.normal(0, 0.2, n)).astype(np.float32)
        d_t = tile.from_numpy(d18o).sync_on(stream)
        z_t = tile.from_numpy(depth).sync_on(stream)
        return cls(delta18o=d_t, depth=z_t)


class CoreSection(abc.ABC):
    """A contiguous run of core; subclasses know how strongly diffusion smears the signal."""

    def __init__(self, name: str, profile: IsotopeProfile, stream: sk.Stream) -> None:
        self.name = name
        self.profile = profile
        self.stream = stream
        self.n = profile.depth.shape[0]

    @property
    @abc.abstractmethod
    def diffusion_rate(self) -> float: ...

    def correct(self) -> Tensor[f32]:
        out = tile.zeros((self.n,), f32).partition((TILE,))
        out, _, _, _ = diffusion_correct(out, self.profile.delta18o, self.profile.depth, self.diffusion_rate).sync_on(self.stream)
        return out.unpartition()


class FirnSection(CoreSection):
    @property
    def diffusion_rate(self) -> float:
        return 0.004


class GlacialIceSection(CoreSection):
    @property
    def diffusion_rate(self) -> float:
        return 0.0015

    def correct(self) -> Tensor[f32]:
        corrected = super().correct()
        # deep ice is thinned by flow: stretch the depth scale before dating
        depth = self.profile.depth.to_numpy(self.stream)
        self.layer_thickness = float(np.diff(depth).mean())
        return corrected


def temperatures(section: CoreSection, slope: float = 1.0 / 0.67, offset: float = 52.0) -> np.ndarray:
    corrected = section.correct()
    out = tile.zeros((section.n,), f32).partition((TILE,))
    out, _, _, _ = to_temperature(out, corrected, slope, offset).sync_on(section.stream)
    return out.unpartition().to_numpy(section.stream)


def main() -> None:
    stream = sk.Device.default().new_stream()
    sections: list[CoreSection] = [
        FirnSection("firn-A", IsotopeProfile.synthetic(256, stream, seed=1), stream),
        GlacialIceSection("ice-B", IsotopeProfile.synthetic(256, stream, seed=2), stream),
    ]
    for section in sections:
        temps = temperatures(section)
        print(f"{section.name:8s} mean T {temps.mean():7.2f}  coldest {temps.min():7.2f}")


if __name__ == "__main__":
    main()
