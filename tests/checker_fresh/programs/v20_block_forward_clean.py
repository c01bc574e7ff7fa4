# fresh-expect: clean
# fresh-note: -
"""A small transformer inference step: packed KV cache split per head, residual into a fresh buffer."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

D = 128


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


@simt.kernel
@simt.launch_contract(block=64)
def residual(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class DecoderLayer:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        cfg = simt.LaunchConfig1D.for_len(D, block=64)
        self.stream = stream
        self.kv_prep, self.res_prep = kv_proj.prepare(cfg, dev), residual.prepare(cfg, dev)
        rng = np.random.default_rng(0)
        self.weights = {name: sk.to_device(rng.standard_normal(D).astype(np.float32), stream) for name in ("wk", "wv")}
        self.kv = sk.zeros(2 * D, f32, stream)

    def __call__(self, hidden: sk.DeviceBuffer) -> sk.DeviceBuffer:
        k_half, v_half = self.kv.split_at(D)
        kv_proj.launch(self.kv_prep, self.stream, hidden, self.weights["wk"], self.weights["wv"], k_half, v_half)
        out = sk.zeros(D, f32, self.stream)
        residual.launch(self.res_prep, self.stream, hidden, v_half, out)
        return out


dev = sk.Device.cpu()
stream = dev.new_stream()
layers = [DecoderLayer(dev, stream) for _ in range(2)]
hidden = sk.to_device(np.ones(D, dtype=np.float32), stream)
for layer in layers:
    hidden = layer(hidden)
print(hidden.to_numpy(stream)[:3])
