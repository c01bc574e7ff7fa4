# fresh-expect: clean
"""Capture a damping step once as a graph, replay it per frame, and read input and output from `graph.value`."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 512
TILE = 128


@tile.kernel
def damp(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 0.9)


def make_input(stream):
    return tile.from_numpy(np.ones(N, dtype=np.float32)).sync_on(stream)


def run_frames(frames: int, stream) -> np.ndarray:
    x = make_input(stream)
    out = tile.zeros((N,), f32).partition((TILE,))
    graph = damp(out, x).graph_on(stream)
    for _ in range(frames):
        graph.replay()
    out, x = graph.value
    print("input mean", float(x.to_numpy(stream).mean()))
    return out.unpartition().to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(run_frames(3, dev.new_stream())[:4])
