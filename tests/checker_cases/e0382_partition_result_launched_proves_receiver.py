"""A parameter of no safekernels type (`Any`) whose `partition` is handed to a tile kernel is a tile tensor: the partition moved it,
so reading it afterwards is a use after move (the runtime raises `UseAfterMoveError` there)."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition


@tile.kernel
def double(z: Partition[f32]) -> None:
    z.store(z.load() * 2.0)


def run(t: Any, stream: Any) -> Any:
    parts = t.partition((32,))
    try:
        (parts,) = double(parts).sync_on(stream)
        return parts.unpartition()
    finally:
        print(t.to_numpy(stream))  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    run(tile.arange(64, f32).sync_on(stream), stream)
