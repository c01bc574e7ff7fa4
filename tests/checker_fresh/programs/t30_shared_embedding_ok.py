# fresh-expect: clean
"""Two towers read one embedding table through a shared op: both launches and the final sync read it."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def lookup_scale(z: Partition[f32], table: Tensor[f32], gain: f32) -> None:
    z.store(tile.load_like(table, z) * gain)


def two_towers(table_host: np.ndarray, stream) -> tuple:
    n = table_host.size
    table = tile.from_numpy(table_host).shared()
    query = tile.zeros((n,), f32).partition((128,))
    key = tile.zeros((n,), f32).partition((128,))
    q_op = lookup_scale(query, table, 1.0)
    k_op = lookup_scale(key, table, 0.5)
    (query, _, _), (key, _, _) = q_op.zip(k_op).sync_on(stream)
    return query.unpartition().to_numpy(stream), key.unpartition().to_numpy(stream)


if __name__ == "__main__":
    stream = sk.Device.cpu().new_stream()
    q, k = two_towers(np.arange(512, dtype=np.float32), stream)
    print(q[:3], k[:3])
