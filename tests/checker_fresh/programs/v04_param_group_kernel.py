# fresh-expect: E0308 at line 48
# fresh-note: -
"""Parameter groups as a list of dicts, each naming its update rule, like torch.optim."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def sgd_update(p: Slice[f32], g: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(p[i] - g[i])


@simt.kernel
@simt.launch_contract(block=256)
def momentum_update(p: Slice[f32], g: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(p[i] - g[i] - g[i])


N = 1024
dev = sk.Device.cpu()
stream = dev.new_stream()
launches = {
    "sgd": sgd_update.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev),
    "momentum": momentum_update.prepare(simt.LaunchConfig1D.for_len(N, block=256), dev),
}
groups = [
    {"name": "embeddings", "rule": "sgd", "params": sk.to_device(np.ones(N, dtype=np.float32), stream)},
    {"name": "heads", "rule": "momentum", "params": sk.to_device(np.ones(N, dtype=np.float32), stream)},
]
grad = sk.to_device(np.full(N, 0.01, dtype=np.float32), stream)
new_params = []
for group in groups:
    out = sk.zeros(N, f32, stream)
    if group["rule"] == "sgd":
        sgd_update.launch(launches["sgd"], stream, group["params"], grad, out)
    else:
        momentum_update.launch(launches["sgd"], stream, group["params"], grad, out)
    new_params.append(out)
print([p.to_numpy(stream)[0] for p in new_params])
