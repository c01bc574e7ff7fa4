"""`safekernels.zip(a, b)` consumes every op it is given."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32


def main() -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((1024,), f32)
    y = tile.full((1024,), 2.0, f32)
    both = sk.zip(x, y)
    xs, ys = both.sync_on(stream)
    print(y.sync_on(stream), xs, ys)  # expect: E0382
