# fresh-expect: E0382 at line 51
# fresh-known-miss: cli,mypy `dict.fromkeys(..., sk.zeros(...))` stored in `__init__`, then a method moving `self.partial[half]` for a key parameter and storing the result back under that key: the one buffer behind both keys is not followed across method calls
# fresh-note: interleaved-angle tomography that back-projects the even and odd projection sets into separate accumulators with a tile kernel; the accumulators come from dict.fromkeys with one zeros buffer, so both keys hold the same buffer and partitioning the second one reuses the buffer the first half already moved.
from __future__ import annotations
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

ANGLES, DET, N = 16, 24, 24


@tile.kernel
def backproject_rows(img: Partition[f32], sino: Tensor[f32], trig: Tensor[f32]) -> None:
    xs = tile.iota(N, i32).astype(f32) - N / 2
    y = tile.bid(0) - N / 2
    acc = tile.zeros((N,), f32)
    for a in range(trig.shape[0] // 2):
        c = trig.load((2 * a,), (1,))
        s = trig.load((2 * a + 1,), (1,))
        t = (xs * c + y * s + DET / 2).astype(i32)
        ok = (t >= 0) & (t < DET)
        acc = acc + tile.gather(sino, a * DET + t, mask=ok, other=0.0)
    img.store(acc)


def projections(thetas: np.ndarray) -> np.ndarray:
    det = np.arange(DET) - DET / 2 + 0.5
    sino = np.zeros((len(thetas), DET), np.float32)
    for a, th in enumerate(thetas):
        s = det - (3.0 * np.cos(th) - 2.0 * np.sin(th))
        sino[a] = 2 * np.sqrt(np.clip(36.0 - s * s, 0, None))
    return sino.ravel()


def trig_table(thetas: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(thetas), np.sin(thetas)], axis=1).astype(np.float32).ravel()


class InterleavedScan:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        thetas = np.linspace(0, np.pi, ANGLES, endpoint=False)
        self.halves = {"even": thetas[0::2], "odd": thetas[1::2]}
        self.partial = dict.fromkeys(self.halves, sk.zeros(N * N, f32, stream))

    def backproject(self, half: str) -> None:
        thetas = self.halves[half]
        parts = self.partial[half].partition((N,))
        parts, _s, _t = backproject_rows(
            parts, tile.from_numpy(projections(thetas)), tile.from_numpy(trig_table(thetas))
        ).sync_on(self.stream)
        self.partial[half] = parts.unpartition()

    def combined(self) -> np.ndarray:
        total = sum(t.to_numpy(self.stream) for t in self.partial.values())
        return (total * np.pi / ANGLES).reshape(N, N)


def main() -> None:
    scan = InterleavedScan(sk.Device.cpu().new_stream())
    for half in ("even", "odd"):
        scan.backproject(half)
    img = scan.combined()
    peak = np.unravel_index(int(img.argmax()), img.shape)
    print("brightest pixel:", peak, "value:", round(float(img.max()), 3))


if __name__ == "__main__":
    main()
