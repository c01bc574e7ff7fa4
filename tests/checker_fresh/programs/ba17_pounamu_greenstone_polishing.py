# fresh-expect: E0505 at line 71
# fresh-known-miss: cli,mypy a base method keeps a launch_async op pending while it calls self.inspect(...), which a subclass overrides with a tile launch moving the borrowed buffer: a method's own check runs it for its own class only, and a call's summary does not report the conflicts inside it
# fresh-note: Grinds pounamu pieces with a launch_async op kept in Polisher.inflight and inspects them; the LustrePolisher override of inspect() partitions piece.surface for its tile lustre kernel before calling super().inspect(), which is where the pending grind op is settled, so the buffer is moved while still mutably borrowed.
"""Pounamu (greenstone) carving studio: grinds each piece's surface, then inspects lustre before it is bound."""
from __future__ import annotations
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SURFACE = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def grind(rough: Slice[f32], surface: DisjointSlice[f32], grit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := surface.get_mut(idx)) is not None:
        cell.set(rough[i] * (1.0 - grit))


@tile.kernel
def lustre(gloss: Partition[f32], surface: Tensor[f32]) -> None:
    s = tile.load_like(surface, gloss)
    gloss.store(tile.exp(-s * 4.0))


@dataclass
class Piece:
    name: str
    form: str
    rough: sk.DeviceBuffer
    surface: sk.DeviceBuffer
    score: float = 0.0


class Polisher:
    """Grinds asynchronously; inspect() waits for a piece's grind before looking at it."""

    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.prepared = grind.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)
        self.inflight: dict[str, sk.DeviceOp] = {}

    def settle(self, piece: Piece) -> None:
        op = self.inflight.pop(piece.name, None)
        if op is not None:
            op.sync_on(self.stream)

    def inspect(self, piece: Piece) -> float:
        self.settle(piece)
        return float(piece.surface.to_numpy(self.stream).std())

    def process(self, piece: Piece, grit: float) -> Piece:
        self.inflight[piece.name] = grind.launch_async(self.prepared, piece.rough, piece.surface, grit)
        piece.score = self.inspect(piece)
        return piece


class LustrePolisher(Polisher):
    """Scores the surface by its gloss in tiles, then applies the base roughness check."""

    def inspect(self, piece: Piece) -> float:
        gloss = tile.zeros((SURFACE,), f32).partition((TILE,))
        gloss, surface = lustre(gloss, piece.surface.partition((TILE,)).unpartition()).sync_on(self.stream)
        piece.surface = sk.as_buffer(surface)
        shine = float(gloss.unpartition().to_numpy(self.stream).mean())
        return shine - super().inspect(piece)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(61)
    pieces = [
        Piece(name, form, sk.to_device(rng.uniform(0.1, 0.5, SURFACE).astype(np.float32), stream),
              sk.zeros(SURFACE, f32, stream))
        for name, form in (("toki-3", "adze"), ("koru-9", "spiral"), ("hei-matau-1", "hook"))
    ]
    polisher = LustrePolisher(device, SURFACE)
    done = []
    while pieces:
        piece = pieces.pop()
        done.append(polisher.process(piece, grit=0.35))
    for piece in done:
        print(f"{piece.name:>12} ({piece.form}): lustre score {piece.score:.4f}")


if __name__ == "__main__":
    main()
