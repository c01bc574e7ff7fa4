"""The twin of e0382_partition_result_launched_proves_receiver: the caller reads the tensor `unpartition` gives
back, never the moved parameter; and `str.partition` on a parameter stays an ordinary call."""

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
        t = parts.unpartition()
    finally:
        print("done")
    return t.to_numpy(stream)


def parse(line: Any) -> Any:
    key, _, value = line.partition("=")
    print(line.partition(":"), key, value)
    return line


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    print(run(tile.arange(64, f32).sync_on(stream), stream), parse("a=b"))
