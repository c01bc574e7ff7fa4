# fresh-expect: E0382 at line 47
# fresh-note: found since: a keyed getter method (memoizing or not: `return self._entries[key]`) called with a literal key is the item stored under it
"""A feature cache hands out device buffers; one entry is later handed to a tile kernel."""
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def copy(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i])


@tile.kernel
def fill(out: Partition[f32], value: f32) -> None:
    out.store(tile.full(out.tile_shape, value, f32))


class FeatureCache:
    def __init__(self, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.n = n
        self._entries: dict[str, sk.DeviceBuffer[f32]] = {}

    def get(self, key: str) -> sk.DeviceBuffer[f32]:
        if key not in self._entries:
            self._entries[key] = sk.zeros(self.n, f32, self.stream)
        return self._entries[key]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    prep = copy.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    cache = FeatureCache(stream, n)
    user = cache.get("user")
    (filled, _) = fill(user.partition((128,)), 1.5).sync_on(stream)
    print(filled.to_numpy(stream)[:2])
    dst = sk.zeros(n, f32, stream)
    copy.launch(prep, stream, cache.get("user"), dst)
    print(dst.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
