"""A tensor constructor's op runs no kernel (`tile.from_numpy`, `tile.zeros`), and neither do the ops its
combinators give: `events = tile.from_numpy(clicks).shared()` uploaded once for the window launches, dropped unrun
when no window closes, and `blank = tile.zeros(...).then(...)` never run, lose no work.  The runtime gives no
`UnusedDeviceOpWarning` for them, and the checker no W0003."""

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

WINDOW = 16


@tile.kernel
def window_sum(out: Partition[f32], events: Tensor[f32], w: i32) -> None:
    out.store(events.load((w,), (WINDOW,)) * 2.0)


def closed_windows(clicks: np.ndarray) -> Iterator[sk.DeviceOp]:
    events = tile.from_numpy(clicks).shared()
    for start in range(0, len(clicks), WINDOW):
        if len(clicks) - start < WINDOW:
            continue
        yield window_sum(tile.zeros((WINDOW,), f32).partition((WINDOW,)), events, start // WINDOW).first()


def padded(clicks: np.ndarray, stream: sk.Stream) -> np.ndarray:
    blank = tile.zeros((WINDOW,), f32).then(lambda t: t)
    if len(clicks) >= WINDOW:
        return clicks
    return blank.sync_on(stream).to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    for op in closed_windows(np.ones(8, np.float32)):
        print(op.sync_on(stream).unpartition().to_numpy(stream).sum())
    for op in closed_windows(np.ones(40, np.float32)):
        print(op.sync_on(stream).unpartition().to_numpy(stream).sum())
    print(padded(np.ones(20, np.float32), stream).sum())


if __name__ == "__main__":
    main()
