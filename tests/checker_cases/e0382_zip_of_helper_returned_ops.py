"""`sk.zip(q_op, k_op)` of ops the pre-pass cannot tell are device values (items of a dict a helper builds)
consumes them all the same: `sk.zip` takes nothing but DeviceOps, so running `q_op` on its own afterwards is a use
after move (the look-alike: clean_zip_of_helper_returned_ops runs only the zipped op)."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def project(out: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(w, out))


def projections(x: np.ndarray) -> dict[str, sk.DeviceOp]:
    weights = {"q": np.full(256, 2.0, dtype=np.float32), "k": np.full(256, 3.0, dtype=np.float32)}
    return {
        name: project(tile.zeros((256,), f32).partition((64,)), tile.from_numpy(x), tile.from_numpy(w))
        for name, w in weights.items()
    }


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    ops = projections(np.ones(256, dtype=np.float32))
    q_op = ops["q"]
    k_op = ops["k"]
    both = sk.zip(q_op, k_op)
    q_op.sync_on(stream)  # expect: E0382
    (q, _, _), (k, _, _) = both.sync_on(stream)
    print(q.unpartition().to_numpy(stream)[:2], k.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
