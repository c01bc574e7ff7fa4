"""A loop over a display that spreads a list of known length (`for session in [*enrolled, unknown]:`) runs its body
once per item of the list and once for the last name, in order: a method that moves an attribute of its object
into a tile launch (`normalize`) moves each listed object's and `unknown.intervals`, so a later read through a
property of `unknown` uses a moved value (E0382 inside the getter, where the runtime raises).  Iterating the list
after the moves (`for session in enrolled: print(session.name)`) is no use of the moved fields."""

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
        return float(self.intervals.to_numpy(self.stream).mean())  # expect: E0382

    def normalize(self) -> None:
        out = tile.zeros((64,), f32).partition((32,))
        out, _, _ = scale(out, self.intervals, 0.5).sync_on(self.stream)


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
