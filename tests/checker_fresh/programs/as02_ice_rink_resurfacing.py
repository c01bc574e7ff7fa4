# fresh-expect: E0502 at line 68
# fresh-note: Ice-rink resurfacing thermal model; the ping-pong scratch pair is built as `[sk.zeros(...)] * 2`, so both slots are one buffer and the relax step reads and writes it.
"""Ice-sheet temperature relaxation after a Zamboni flood pass."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
LANES = 8     # cross-rink sensor lanes
CELLS = 64    # cells per lane
ALPHA = 0.2   # diffusion number of one relaxation pass



@simt.kernel
@simt.launch_contract(block=64)
def flood(surface: Slice[f32], dst: DisjointSlice[f32], water_temp: f32, mix: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(surface[i] * (1.0 - mix) + water_temp * mix)


@simt.kernel
@simt.launch_contract(block=64)
def relax(src: Slice[f32], dst: DisjointSlice[f32], alpha: f32, width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        left = src[i]
        right = src[i]
        if i % width > 0:
            left = src[i - 1]
        if i % width < width - 1:
            right = src[i + 1]
        out.set(src[i] + alpha * (left + right - 2.0 * src[i]))


class IceSheet:
    """Holds the measured surface and a pair of work buffers that alternate each pass."""

    def __init__(self, dev: sk.Device, stream: sk.Stream, surface: np.ndarray) -> None:
        self.stream = stream
        self.n = surface.size
        self.surface = sk.to_device(surface.astype(np.float32).ravel(), stream)
        self._scratch = [sk.zeros(self.n, f32, stream)] * 2
        self._tick = 0
        cfg = simt.LaunchConfig1D.for_len(self.n, block=64)
        self._flood = flood.prepare(cfg, dev)
        self._relax = relax.prepare(cfg, dev)
        self.history: list[float] = []

    @property
    def front(self) -> sk.DeviceBuffer:
        return self._scratch[self._tick % 2]

    @property
    def back(self) -> sk.DeviceBuffer:
        return self._scratch[(self._tick + 1) % 2]

    def resurface(self, water_temp: float, mix: float = 0.35) -> "IceSheet":
        flood.launch(self._flood, self.stream, self.surface, self.front, water_temp, mix)
        self._record()
        return self

    def settle(self, passes: int) -> "IceSheet":
        for _ in range(passes):
            relax.launch(self._relax, self.stream, self.front, self.back, ALPHA, CELLS)
            self._tick += 1
            self._record()
        return self

    def _record(self) -> None:
        self.history.append(float(self.front.to_numpy(self.stream).max()))

    def snapshot(self) -> np.ndarray:
        return self.front.to_numpy(self.stream).reshape(LANES, CELLS)


def measured_surface(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = np.full((LANES, CELLS), -5.5, dtype=np.float32)
    base[:, :6] += 1.2   # goal creases run warmer near the boards
    base[:, -6:] += 1.2
    return base + rng.normal(0.0, 0.1, base.shape).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    sheet = IceSheet(dev, stream, measured_surface(7))
    grid = sheet.resurface(water_temp=60.0).settle(passes=5).snapshot()
    soft = int((grid > -3.0).sum())
    print(f"peak temps per pass: {[round(t, 2) for t in sheet.history]}")
    print(f"soft cells after settling: {soft} of {grid.size}")
    if soft > grid.size // 2:
        print("hold the next period: ice needs more time")


if __name__ == "__main__":
    main()
