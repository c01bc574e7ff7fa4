# fresh-expect: E0499 at line 46
# `slots` returns two overlapping computed slices of `self.packed`, passed as two outputs.
"""Transformer inference: K and V projections write into one packed KV cache buffer, per head."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HEADS = 4
HEAD_DIM = 64


@simt.kernel
@simt.launch_contract(block=64)
def kv_proj(x: Slice[f32], wk: Slice[f32], wv: Slice[f32], kout: DisjointSlice[f32], vout: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (k := kout.get_mut(idx)) is not None:
        k.set(x[i] * wk[i])
    jdx = thread.index_1d()
    if (v := vout.get_mut(jdx)) is not None:
        v.set(x[i] * wv[i])


class KVCache:
    def __init__(self, stream: sk.Stream) -> None:
        self.packed = sk.zeros(2 * HEADS * HEAD_DIM, f32, stream)

    def slots(self, head: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        base = 2 * head * HEAD_DIM
        # ported from a layout where K and V were interleaved per half-head
        return self.packed[base : base + HEAD_DIM], self.packed[base + HEAD_DIM // 2 : base + HEAD_DIM + HEAD_DIM // 2]


dev = sk.Device.cpu()
stream = dev.new_stream()
cache = KVCache(stream)
prep = kv_proj.prepare(simt.LaunchConfig1D.for_len(HEAD_DIM, block=64), dev)
rng = np.random.default_rng(7)
x = sk.to_device(rng.standard_normal(HEAD_DIM).astype(np.float32), stream)
wk, wv = (sk.to_device(rng.standard_normal(HEAD_DIM).astype(np.float32), stream) for _ in range(2))
for head in range(HEADS):
    k_slot, v_slot = cache.slots(head)
    kv_proj.launch(prep, stream, x, wk, wv, k_slot, v_slot)
print(cache.packed.to_numpy(stream)[:4])
