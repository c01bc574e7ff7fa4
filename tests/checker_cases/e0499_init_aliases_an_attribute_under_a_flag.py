"""A cache's `__init__` shares one buffer for keys and values when its config asks for a latent cache
(`self.values = self.keys if share_kv else sk.zeros(...)`); `append` passes `self.keys` and `self.values` as the
two outputs of one launch, so a shared cache hands one buffer out twice (E0499, as the runtime's `AliasingError`
says).  A conditional expression `__init__` binds is either arm in the class's other methods: here `self.keys`'s
object or a new one."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DIM = 32


@simt.kernel
@simt.launch_contract(block=32)
def kv_append(k_new: Slice[f32], v_new: Slice[f32], keys: DisjointSlice[f32], values: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (k := keys.get_mut(idx)) is not None:
        k.set(k_new[i])
    again = thread.index_1d()
    if (v := values.get_mut(again)) is not None:
        v.set(v_new[i])


class KVCache:
    def __init__(self, dev: sk.Device, stream: sk.Stream, share_kv: bool) -> None:
        self.stream = stream
        self.keys = sk.zeros(DIM, f32, stream)
        self.values = self.keys if share_kv else sk.zeros(DIM, f32, stream)
        self.launch = kv_append.prepare(simt.LaunchConfig1D.for_len(DIM, block=32), dev)

    def append(self, k_new: sk.DeviceBuffer, v_new: sk.DeviceBuffer) -> None:
        kv_append.launch(self.launch, self.stream, k_new, v_new, self.keys, self.values)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    k = sk.to_device(np.ones(DIM, np.float32), stream)
    v = sk.to_device(np.full(DIM, 2.0, np.float32), stream)
    for share in (False, True):
        cache = KVCache(dev, stream, share)
        cache.append(k, v)
        print(share, cache.values.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
