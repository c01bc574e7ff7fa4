# fresh-expect: clean
"""Sampling: softened logits are computed once as a shared op and read by two candidate samplers."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def temper(out: Partition[f32], logits: Tensor[f32]) -> None:
    out.store(tile.load_like(logits, out) * 0.5)


@tile.kernel
def shift(out: Partition[f32], src: Tensor[f32]) -> None:
    out.store(tile.load_like(src, out) + 1.0)


def sample_two(stream: sk.Stream, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = logits.shape[0]
    soft = temper(tile.zeros((n,), f32).partition((64,)), tile.from_numpy(logits)).first().unpartition().shared()
    greedy = shift(tile.zeros((n,), f32).partition((64,)), soft)
    nucleus = shift(tile.zeros((n,), f32).partition((64,)), soft)
    g_out, _ = greedy.sync_on(stream)
    n_out, _ = nucleus.sync_on(stream)
    return g_out.unpartition().to_numpy(stream), n_out.unpartition().to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    logits = np.linspace(-2, 2, 256, dtype=np.float32)
    greedy, nucleus = sample_two(stream, logits)
    print(int(np.argmax(greedy)), int(np.argmax(nucleus)))


if __name__ == "__main__":
    main()
