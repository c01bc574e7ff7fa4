# fresh-expect: clean
# fresh-note: steel rolling mill; thickness profile of top and bottom rolls written into the two disjoint halves of one buffer returned by a helper.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STANDS = 64


@simt.kernel
@simt.launch_contract(block=64)
def roll_gap(entry: Slice[f32], force: Slice[f32], top: DisjointSlice[f32], bottom: DisjointSlice[f32],
             modulus: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    deflection = force[i] / modulus
    if (t := top.get_mut(idx)) is not None:
        t.set(entry[i] * f32(0.5) - deflection)
    idx2 = thread.index_1d()
    if (b := bottom.get_mut(idx2)) is not None:
        b.set(entry[i] * f32(0.5) + deflection)


def halves(buf: sk.DeviceBuffer, n: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    mid = n // 2
    return buf[:mid], buf[mid:]


class MillLine:
    def __init__(self, dev: sk.Device, stream: sk.Stream, modulus: float) -> None:
        self.stream = stream
        self.modulus = modulus
        self.plan = roll_gap.prepare(simt.LaunchConfig1D.for_len(STANDS, block=64), dev)
        self.profile = sk.zeros(2 * STANDS, f32, stream)

    def pass_slab(self, entry_mm: np.ndarray, force_kn: np.ndarray) -> dict[str, np.ndarray]:
        entry = sk.to_device(entry_mm.astype(np.float32), self.stream)
        force = sk.to_device(force_kn.astype(np.float32), self.stream)
        top, bottom = halves(self.profile, 2 * STANDS)
        roll_gap.launch(self.plan, self.stream, entry, force, top, bottom, self.modulus)
        both = self.profile.to_numpy(self.stream)
        return {"top": both[:STANDS], "bottom": both[STANDS:]}


def schedule(n_slabs: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(11)
    return [(np.linspace(220.0, 40.0, STANDS) + rng.normal(0, 1, STANDS),
             rng.uniform(800.0, 1500.0, STANDS)) for _ in range(n_slabs)]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    mill = MillLine(dev, stream, modulus=2100.0)
    for slab_no, (entry, force) in enumerate(schedule(3)):
        gaps = mill.pass_slab(entry, force)
        crown = gaps["bottom"] - gaps["top"]
        print(f"slab {slab_no}: mean crown {crown.mean():.3f} mm, max {crown.max():.3f} mm")


if __name__ == "__main__":
    main()
