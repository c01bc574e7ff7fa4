# fresh-expect: clean
# requests are sorted before groupby and the handed-back weights are stored after the per-group loop on every path, cancelled or not
"""Inference server batcher: group queued requests by model and run one scaled-projection launch per group."""
from __future__ import annotations

from itertools import groupby
from operator import itemgetter

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

DIM = 256


@tile.kernel
def project(out: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(w, out))


def load_registry(rng: np.random.Generator) -> dict[str, sk.DeviceOp]:
    return {name: tile.from_numpy(rng.standard_normal(DIM).astype(np.float32)) for name in ("small", "large")}


def serve(requests: list[tuple[str, np.ndarray, bool]], stream: sk.Stream) -> dict[str, list[float]]:
    weights = load_registry(np.random.default_rng(5))
    replies: dict[str, list[float]] = {}
    # sort first: groupby only merges consecutive runs
    for model, batch in groupby(sorted(requests, key=itemgetter(0)), key=itemgetter(0)):
        w = weights[model]
        for _, payload, cancelled in batch:
            if cancelled:
                print(f"{model}: client hung up, dropping the rest of the batch")
                break
            x = tile.from_numpy(payload)
            out = tile.zeros((DIM,), f32).partition((64,))
            out, x, w = project(out, x, w).sync_on(stream)
            replies.setdefault(model, []).append(float(out.unpartition().to_numpy(stream).sum()))
        weights[model] = w
    return replies


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(9)
    plan = [("small", False), ("small", True), ("large", False), ("small", False)]
    queue = [(m, rng.standard_normal(DIM).astype(np.float32), cancel) for m, cancel in plan]
    replies = serve(queue, stream)
    for model, scores in replies.items():
        print(model, [round(s, 3) for s in scores])


if __name__ == "__main__":
    main()
