# fresh-expect: clean
# fresh-note: Truffle-dog scent map updated by a match over the handler log with guarded class patterns; every arm that launches rebinds the partition and wind tensor from sync_on, rest/empty arms touch nothing.
"""Truffle dog search in an oak grove: a scent-probability map driven by the handler's log.

Every log entry is matched (with guards) to an update of the scent map; each arm hands the
partition and the wind field back from sync_on before the next entry, and rest entries
skip the update without touching the map.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS, COLS = 32, 32
TILE = (16, 16)


@tile.kernel
def sniff(scent: Partition[f32], wind: Tensor[f32], gain: f32) -> None:
    s = scent.load()
    w = tile.load_like(wind, scent)
    scent.store(s * (1.0 + gain * w))


@tile.kernel
def dig(scent: Partition[f32], wind: Tensor[f32], found: f32) -> None:
    s = scent.load()
    w = tile.load_like(wind, scent)
    scent.store(tile.maximum(s - found * (1.0 - w), 0.0))


@dataclass
class Entry:
    kind: str
    strength: float = 0.0
    minutes: int = 0


HANDLER_LOG = [
    Entry("sniff", 0.8),
    Entry("rest", minutes=10),
    Entry("sniff", 0.2),
    Entry("dig", 0.3),
    Entry("sniff", 1.4),
    Entry("rest", minutes=4),
    Entry("dig", 0.0),
]


def normalise(field: np.ndarray) -> np.ndarray:
    total = field.sum()
    return field / total if total > 0 else field


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)

    prior = rng.random((ROWS, COLS)).astype(np.float32)
    scent = tile.from_numpy(prior).partition(TILE)
    wind = tile.from_numpy(np.clip(rng.normal(0.2, 0.1, (ROWS, COLS)), 0.0, 1.0).astype(np.float32))

    rested = 0
    digs = 0
    for entry in HANDLER_LOG:
        match entry:
            case Entry(kind="sniff", strength=s) if s > 1.0:
                # a strong indication: two passes, the second on the handed-back values
                scent, wind, _ = sniff(scent, wind, s / 2.0).sync_on(stream)
                scent, wind, _ = sniff(scent, wind, s / 2.0).sync_on(stream)
            case Entry(kind="sniff", strength=s):
                scent, wind, _ = sniff(scent, wind, s).sync_on(stream)
            case Entry(kind="dig", strength=found) if found > 0.0:
                scent, wind, _ = dig(scent, wind, found).sync_on(stream)
                digs += 1
            case Entry(kind="dig"):
                print("empty hole, map unchanged")
            case Entry(kind="rest", minutes=m):
                rested += m
            case _:
                raise ValueError(f"unknown log entry {entry!r}")

    field = normalise(scent.unpartition().to_numpy(stream))
    r, c = np.unravel_index(int(np.argmax(field)), field.shape)
    print(f"{digs} productive digs, {rested} min rest; best spot row {r}, col {c} (p={field[r, c]:.4f})")


if __name__ == "__main__":
    main()
