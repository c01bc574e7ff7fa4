# fresh-expect: E0382 at line 38
# fresh-note: found since: sk.zip moves every place argument (it takes only DeviceOps), device-like or not
"""Inference step: Q and K projections zipped into one op, then the caller still syncs Q alone."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

D = 256


@tile.kernel
def project(out: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(w, out))


class Attention:
    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.wq = rng.standard_normal(D).astype(np.float32)
        self.wk = rng.standard_normal(D).astype(np.float32)

    def projections(self, x: np.ndarray) -> dict[str, sk.DeviceOp]:
        return {
            name: project(tile.zeros((D,), f32).partition((64,)), tile.from_numpy(x), tile.from_numpy(w))
            for name, w in (("q", self.wq), ("k", self.wk))
        }


stream = sk.Device.cpu().new_stream()
attn = Attention(0)
ops = attn.projections(np.ones(D, dtype=np.float32))
q_op = ops["q"]
k_op = ops["k"]
both = sk.zip(q_op, k_op)
q_only = q_op.sync_on(stream)
(q, _, _), (k, _, _) = both.sync_on(stream)
print(q.to_numpy(stream)[:2], k.to_numpy(stream)[:2])
