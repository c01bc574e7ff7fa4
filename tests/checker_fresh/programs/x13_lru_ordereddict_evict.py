# fresh-expect: E0505 at line 53
# fresh-known-miss: cli,mypy collections.OrderedDict of buffers: the caller holds a buffer returned by lru.get (self.entries[key] = buf; return buf), a later lru.get evicts it with self.entries.popitem(last=False) and moves it with .to(dev, s) while the caller launch_async op writes it
"""An LRU pool of device buffers; evicted buffers are offloaded to a second device."""
from collections import OrderedDict

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def decay(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(0.5))


class BufferLRU:
    def __init__(self, capacity: int, home: sk.Device, spill: sk.Device) -> None:
        self.capacity = capacity
        self.spill = spill
        self.spill_stream = spill.new_stream()
        self.entries: "OrderedDict[str, sk.DeviceBuffer[f32]]" = OrderedDict()
        self.spilled: dict[str, sk.DeviceBuffer[f32]] = {}

    def get(self, key: str, n: int, stream: sk.Stream) -> sk.DeviceBuffer[f32]:
        if key in self.entries:
            self.entries.move_to_end(key)
            return self.entries[key]
        if len(self.entries) >= self.capacity:
            old_key, old = self.entries.popitem(last=False)
            self.spilled[old_key] = old.to(self.spill, self.spill_stream)
        buf = sk.zeros(n, f32, stream)
        self.entries[key] = buf
        return buf


def main() -> None:
    home, spill = sk.Device.cpu(0), sk.Device.cpu(1)
    stream = home.new_stream()
    n = 256
    lru = BufferLRU(2, home, spill)
    prep = decay.prepare(simt.LaunchConfig1D.for_len(n, block=128), home)
    src = sk.to_device(np.ones(n, dtype=np.float32), stream)
    a = lru.get("a", n, stream)
    pending = decay.launch_async(prep, src, a)
    lru.get("b", n, stream)
    lru.get("c", n, stream)  # evicts "a" while the decay launch still writes it
    pending.sync_on(stream)
    print(sorted(lru.spilled))


if __name__ == "__main__":
    main()
