"""The clean twin of `e0382_loop_over_a_display_spreading_a_list`: `normalize` rebinds the attribute to the tensor
`sync_on` hands back, so the property reads a live tensor; iterating the list after the moves reads nothing moved
(a loop binding its target to an item is no use of the item's fields)."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(out: Partition[f32], raw: Tensor[f32], gain: f32) -> None:
    out.store(tile.load_like(raw, out) * gain)


class Session:
    def __init__(self, name: str, stream: sk.Stream) -> None:
        self.name = name
        self.stream = stream
        self.intervals = sk.to_device(np.ones(64, dtype=np.float32), stream)

    @property
    def mean_interval(self) -> float:
        return float(self.intervals.to_numpy(self.stream).mean())

    def normalize(self) -> None:
        out = tile.zeros((64,), f32).partition((32,))
        out, self.intervals, _ = scale(out, self.intervals, 0.5).sync_on(self.stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    enrolled = [Session("a", stream), Session("b", stream)]
    unknown = Session("c", stream)
    for session in [*enrolled, unknown]:
        session.normalize()
    for session in enrolled:
        print(session.name)
    print(unknown.mean_interval)


if __name__ == "__main__":
    main()
