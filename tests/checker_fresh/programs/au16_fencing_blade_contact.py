# fresh-expect: clean
# fresh-note: Fencing bout blade-contact scoring; a class-based context manager launches the SIMT contact-force op on enter and syncs it on exit, and the force buffer is partitioned for the tile scoring kernel only after the with block.
"""Touch validation from the blade strain gauges of an electric fencing piste."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SAMPLES = 128


@simt.kernel
@simt.launch_contract(block=64)
def contact_force(strain: Slice[f32], force: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (f := force.get_mut(idx)) is not None:
        f.set(abs(strain[i]) * gain)


@tile.kernel
def valid_touch(score: Partition[f32], force: Partition[f32], threshold: f32) -> None:
    score.store(tile.where(force.load() > threshold, 1.0, 0.0))


class ContactCapture:
    def __init__(self, prepared, stream: sk.Stream, strain: sk.DeviceBuffer, gain: float) -> None:
        self.prepared = prepared
        self.stream = stream
        self.strain = strain
        self.gain = gain
        self.force = sk.zeros(SAMPLES, f32, stream)
        self.op = None

    def __enter__(self) -> "ContactCapture":
        self.op = contact_force.launch_async(self.prepared, self.strain, self.force, self.gain)
        return self

    def __exit__(self, *exc) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def score_phrase(dev: sk.Device, stream: sk.Stream, strain: np.ndarray, weapon: str) -> int:
    prepared = contact_force.prepare(simt.LaunchConfig1D.for_len(SAMPLES, block=64), dev)
    gain, threshold = {"foil": (2.0, 4.9), "epee": (1.5, 7.4), "sabre": (1.0, 2.5)}[weapon]
    with ContactCapture(prepared, stream, sk.to_device(strain, stream), gain) as capture:
        peak_strain = float(np.abs(strain).max())
    score = tile.zeros((SAMPLES,), f32).partition((32,))
    score, _, _ = valid_touch(score, capture.force.partition((32,)), threshold).sync_on(stream)
    hits = int(score.unpartition().to_numpy(stream).sum())
    print(f"{weapon}: peak strain {peak_strain:.2f}, {hits} samples over threshold")
    return hits


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(10)
    bout = {weapon: rng.normal(0, 2.0, SAMPLES).astype(np.float32) for weapon in ("foil", "epee", "sabre")}
    board = {weapon: score_phrase(dev, stream, strain, weapon) for weapon, strain in bout.items()}
    match max(board, key=board.get):
        case "sabre":
            print("right-of-way review needed")
        case winner:
            print(f"most contact in {winner}")


if __name__ == "__main__":
    main()
