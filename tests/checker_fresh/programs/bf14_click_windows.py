# fresh-expect: clean
# fresh-note: A generator builds one lazy tile launch per closed tumbling window over a shared click-event tensor and yields it; the still-open trailing window is skipped before any op is built for it.
"""Tumbling-window sum/max over a click-event stream on the Tile track, synced in one zip of all window ops."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

WINDOW = 64


@tile.kernel
def window_stats(out: Partition[f32], events: Tensor[f32], w: i32) -> None:
    t = events.load((w,), (WINDOW,))
    first = tile.iota(2, i32) == 0
    out.store(tile.where(first, tile.sum(t, axis=0, keepdims=True), tile.max(t, axis=0, keepdims=True)))


def closed_windows(clicks: np.ndarray) -> Iterator[tuple[int, sk.DeviceOp]]:
    events = tile.from_numpy(clicks).shared()  # uploaded once, read by every window's launch
    for start in range(0, len(clicks), WINDOW):
        chunk = clicks[start:start + WINDOW]
        if len(chunk) < WINDOW:
            continue  # the trailing window is still open: it is emitted on a later tick
        op = window_stats(tile.zeros((2,), f32).partition((2,)), events, start // WINDOW)
        yield start // WINDOW, op.first()


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(17)
    clicks = rng.poisson(3.0, WINDOW * 4 + 23).astype(np.float32)
    labels, ops = zip(*closed_windows(clicks))
    stats = sk.zip(*ops).then(lambda parts: [part.unpartition() for part in parts]).sync_on(stream)
    table = {label: t.to_numpy(stream) for label, t in zip(labels, stats)}
    for label, (total, peak) in table.items():
        window = clicks[label * WINDOW:(label + 1) * WINDOW]
        assert total == window.sum() and peak == window.max(), label
    busiest = max(table, key=lambda w: table[w][0])
    print(f"{len(table)} closed windows; busiest window {busiest} with {table[busiest][0]:.0f} clicks")


if __name__ == "__main__":
    main()
