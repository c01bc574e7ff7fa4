# fresh-expect: E0133 at line 44
# fresh-note: A radial-distribution-function accumulator switches to an unchecked launch after its first validated frame, wrapping the call of a helper in `simt.unsafe()`, but the helper that actually calls `launch_unchecked` has no unsafe block of its own.
"""g(r) of particles in a periodic box, accumulated over frames; pair counts by atomics."""
import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, Slice, thread

BINS = 24
R_MAX = 2.4


@simt.kernel
@simt.launch_contract(block=64)
def pair_histogram(xs: Slice[f32], ys: Slice[f32], counts: AtomicSlice[u32], box: f32) -> None:
    i = thread.index_1d().get()
    n = len(xs)
    if i < n:
        for j in range(i + 1, n):
            dx = xs[j] - xs[i]
            dy = ys[j] - ys[i]
            dx = dx - box * f32(math.floor(dx / box + 0.5))
            dy = dy - box * f32(math.floor(dy / box + 0.5))
            r = math.sqrt(dx * dx + dy * dy)
            if r < R_MAX:
                counts.fetch_add(u32(r / R_MAX * BINS), u32(1))


class RDFAccumulator:
    def __init__(self, n: int, box: float, device: sk.Device, stream: sk.Stream) -> None:
        self.n, self.box, self.stream = n, box, stream
        self.counts = sk.zeros(BINS, u32, stream)
        self.config = simt.LaunchConfig1D.for_len(n, block=64)
        self.plan = pair_histogram.prepare(self.config, device)
        self.frames = 0
        self.validated = False

    def _launch_trusted(self, xs: sk.DeviceBuffer, ys: sk.DeviceBuffer) -> None:
        # the configuration was validated on the first frame; the caller holds the unsafe block
        pair_histogram.launch_unchecked(self.config, self.stream, xs, ys, self.counts, self.box)

    def add_frame(self, positions: np.ndarray) -> None:
        xs = sk.to_device(positions[:, 0].astype(np.float32), self.stream)
        ys = sk.to_device(positions[:, 1].astype(np.float32), self.stream)
        if self.validated:
            with simt.unsafe():
                self._launch_trusted(xs, ys)
        else:
            pair_histogram.launch(self.plan, self.stream, xs, ys, self.counts, self.box)
            self.validated = True
        self.frames += 1

    def g_of_r(self) -> np.ndarray:
        counts = self.counts.to_numpy(self.stream).astype(np.float64)
        edges = np.linspace(0.0, R_MAX, BINS + 1)
        shell = np.pi * (edges[1:] ** 2 - edges[:-1] ** 2)
        density = self.n / self.box**2
        return counts / (self.frames * 0.5 * self.n * density * shell)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    n, box = 120, 8.0
    rdf = RDFAccumulator(n, box, dev, stream)
    for _ in range(3):
        rdf.add_frame(rng.uniform(0.0, box, (n, 2)))
    g = rdf.g_of_r()
    assert 0.6 < g[BINS // 2 :].mean() < 1.4, g
    print("g(r) tail mean:", round(float(g[BINS // 2 :].mean()), 3))


if __name__ == "__main__":
    main()
