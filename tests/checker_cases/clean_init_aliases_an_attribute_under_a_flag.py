"""The clean twin of `e0499_init_aliases_an_attribute_under_a_flag`: a shared cache launches a kernel with one
output (`latent_append`), and only a cache with its own values buffer launches the two-output kernel."""

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


@simt.kernel
@simt.launch_contract(block=32)
def latent_append(k_new: Slice[f32], latent: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (k := latent.get_mut(idx)) is not None:
        k.set(k_new[i])


class KVCache:
    def __init__(self, dev: sk.Device, stream: sk.Stream, share_kv: bool) -> None:
        self.stream = stream
        self.keys = sk.zeros(DIM, f32, stream)
        self.values = self.keys if share_kv else sk.zeros(DIM, f32, stream)
        self.shared = share_kv
        self.launch = kv_append.prepare(simt.LaunchConfig1D.for_len(DIM, block=32), dev)
        self.latent_launch = latent_append.prepare(simt.LaunchConfig1D.for_len(DIM, block=32), dev)

    def append(self, k_new: sk.DeviceBuffer, v_new: sk.DeviceBuffer) -> None:
        if self.shared:
            latent_append.launch(self.latent_launch, self.stream, k_new, self.keys)
        else:
            kv_append.launch(self.launch, self.stream, k_new, v_new, self.keys, sk.zeros(DIM, f32, self.stream))


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
