"""Twin of `clean_w0003_constructor_ops_chained_and_dropped`: the shared input is itself a kernel's result
(`scaled = scale(...).first().unpartition().shared()`), read by each window's launch; when no window closes it
is dropped unrun, so its kernel never runs (W0003 where it is bound, the line the runtime's
`UnusedDeviceOpWarning` names)."""

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

WINDOW = 16


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 0.5)


@tile.kernel
def window_sum(out: Partition[f32], events: Tensor[f32], w: i32) -> None:
    out.store(events.load((w,), (WINDOW,)) * 2.0)


def closed_windows(clicks: np.ndarray) -> Iterator[sk.DeviceOp]:
    n, x = len(clicks), tile.from_numpy(clicks)
    scaled = scale(tile.zeros((n,), f32).partition((n,)), x).first().unpartition().shared()  # expect: W0003
    for start in range(0, n, WINDOW):
        if n - start < WINDOW:
            continue
        yield window_sum(tile.zeros((WINDOW,), f32).partition((WINDOW,)), scaled, start // WINDOW).first()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    for op in closed_windows(np.ones(8, np.float32)):
        print(op.sync_on(stream).unpartition().to_numpy(stream).sum())
    for op in closed_windows(np.ones(40, np.float32)):
        print(op.sync_on(stream).unpartition().to_numpy(stream).sum())


if __name__ == "__main__":
    main()
