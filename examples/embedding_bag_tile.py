"""Tile track: an embedding bag with a token histogram, `tile.gather` + `tile.atomic_add`.

Each tile block owns one bag (one row of the output): it gathers the embedding rows of the bag's token ids
(`-1` pads a short bag and is masked off), sums them, and counts every token it saw into a vocabulary-sized
histogram that all blocks update with atomics.  The histogram is an `AtomicTensor` parameter: the launch moves
it like every tile argument (nothing else can alias it), and inside the body it can only be updated with
`tile.atomic_*`, never read or stored, because the blocks run concurrently on the GPU.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

DIM = 64  # embedding width (one output tile row)
BAG = 16  # token slots per bag (-1 = padding)


@tile.function
def bag_rows(ids: Any) -> Any:
    """The (BAG, 1) column of this bag's ids, to index rows of the table."""
    return tile.reshape(ids, (BAG, 1))


@tile.kernel
def embedding_bag(out: Partition[f32], counts: AtomicTensor[i32], table: Tensor[f32], ids: Tensor[i32]) -> None:
    bag = ids.load((tile.bid(0), 0), (1, BAG))  # (1, BAG) token ids of this block's bag
    rows = bag_rows(bag)
    cols = tile.reshape(tile.iota(DIM, i32), (1, DIM))
    vectors = tile.gather(table, (rows, cols), mask=rows >= 0)  # (BAG, DIM); padding reads 0
    out.store(tile.sum(vectors, axis=0, keepdims=True))
    tile.atomic_add(counts, bag, 1, mask=bag >= 0)  # token histogram over the whole batch


tile.specialize(
    embedding_bag,
    tile.spec((256, DIM), f32, tile=(1, DIM)),
    tile.spec((1000,), i32),
    tile.spec((1000, DIM), f32),
    tile.spec((256, BAG), i32),
)


def run(
    device: sk.Device, bags: int, vocab: int, seed: int = 0
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """Embedding-bag sums and token counts on `device`, and their numpy references."""
    rng = np.random.default_rng(seed)
    table_np = rng.standard_normal((vocab, DIM)).astype(np.float32)
    ids_np = rng.integers(0, vocab, (bags, BAG)).astype(np.int32)
    lengths = rng.integers(1, BAG + 1, bags)
    ids_np[np.arange(BAG)[None, :] >= lengths[:, None]] = -1  # ragged bags, padded with -1
    stream = device.new_stream()
    out = tile.zeros((bags, DIM), f32).partition((1, DIM))  # one tile block per bag
    counts = tile.zeros((vocab,), i32)
    out, counts, _table, _ids = embedding_bag(out, counts, tile.from_numpy(table_np), tile.from_numpy(ids_np)).sync_on(
        stream
    )
    valid = ids_np >= 0
    want = np.stack([table_np[row[ok]].sum(axis=0) for row, ok in zip(ids_np, valid, strict=True)])
    want_counts = np.bincount(ids_np[valid], minlength=vocab).astype(np.int32)
    return out.unpartition().to_numpy(stream), want, counts.to_numpy(stream), want_counts


def main() -> None:
    bags, vocab = 256, 1000
    device = sk.Device.default()
    got, want, counts, want_counts = run(device, bags, vocab)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(counts, want_counts)
    print(
        f"embedding_bag_tile: {bags} bags of up to {BAG} tokens, {DIM}-wide rows gathered from a {vocab}-row table, "
        f"{int(counts.sum())} tokens counted with atomics on {device!r}"
    )
    print("PASSED")


if __name__ == "__main__":
    main()
