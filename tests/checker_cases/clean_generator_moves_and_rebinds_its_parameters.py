"""A generator of the module moves its parameters into a launch and rebinds its own names to what the launch hands
back, yielding a host copy per round; the caller takes every item with a `for`.  The generator's body runs once
over the whole loop, so the caller's `z, x, y` are handed over once, at the call: not again per item (the checker
takes the items' loans from the generator's summary, not its moves)."""

from collections.abc import Iterator

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def epochs(stream: sk.Stream, z: Partition[f32], x: Tensor[f32], y: Tensor[f32], n: int) -> Iterator[object]:
    for _ in range(n):
        z, x, y = add(z, x, y).sync_on(stream)
        yield z.to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    for host in epochs(stream, z, x, y, 3):
        print(host[:2])
