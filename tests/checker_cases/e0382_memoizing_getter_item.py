"""A memoizing getter (`def get(self, key)` storing a new buffer under a missing key, then `return
self._entries[key]`) hands back the object stored under its key: two `cache.get("user")` calls give one buffer, so
after the first one's partition moved it into a tile launch, the second one's is a use after move (the runtime
raises `UseAfterMoveError` there).  Another key is another buffer."""

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
    prep = copy.prepare(simt.LaunchConfig1D.for_len(256, block=128), dev)
    cache = FeatureCache(stream, 256)
    user = cache.get("user")
    (filled, _) = fill(user.partition((128,)), 1.5).sync_on(stream)
    print(filled.unpartition().to_numpy(stream)[:2])
    dst = sk.zeros(256, f32, stream)
    copy.launch(prep, stream, cache.get("item"), dst)
    copy.launch(prep, stream, cache.get("user"), dst)  # expect: E0382
