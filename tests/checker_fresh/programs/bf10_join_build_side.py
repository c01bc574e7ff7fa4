# fresh-expect: clean
# fresh-note: A HashJoin object probes batches of fact keys against a direct-mapped build table held in two tile tensors on `self`; probe_batch rebinds both build tensors from the launch's value, so every batch gets live handles.
"""Hash-join probe on the Tile track: fact-table key batches probed against a direct-mapped dimension table."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import Partition, Tensor

SLOTS = 64
TILE = 32


@tile.kernel
def probe(out: Partition[i32], keys: Tensor[i32], slot_keys: Tensor[i32], slot_vals: Tensor[i32]) -> None:
    k = tile.load_like(keys, out)
    slot = k % SLOTS
    hit = tile.gather(slot_keys, slot) == k
    out.store(tile.where(hit, tile.gather(slot_vals, slot), -1))


class HashJoin:
    """The build side lives on the device; each probe batch hands the tables back through the launch."""

    def __init__(self, dim_keys: np.ndarray, dim_vals: np.ndarray, stream: sk.Stream) -> None:
        self.stream = stream
        keys = np.full(SLOTS, -1, np.int32)
        vals = np.zeros(SLOTS, np.int32)
        keys[dim_keys % SLOTS] = dim_keys
        vals[dim_keys % SLOTS] = dim_vals
        self.slot_keys, self.slot_vals = sk.zip(tile.from_numpy(keys), tile.from_numpy(vals)).sync_on(stream)
        self.batches = 0

    def probe_batch(self, fact_keys: np.ndarray) -> np.ndarray:
        out = tile.full((len(fact_keys),), -1, i32).partition((TILE,))
        batch = tile.from_numpy(fact_keys)
        out, _batch, self.slot_keys, self.slot_vals = probe(out, batch, self.slot_keys, self.slot_vals).sync_on(self.stream)
        self.batches += 1
        return out.unpartition().to_numpy(self.stream)


def fact_batches(rng: np.random.Generator, count: int, size: int) -> Iterator[np.ndarray]:
    for _ in range(count):
        yield rng.integers(0, 7 * SLOTS + 3, size).astype(np.int32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    dim_keys = (np.arange(SLOTS, dtype=np.int32) * 7 + 3).astype(np.int32)
    dim_vals = rng.integers(100, 999, SLOTS).astype(np.int32)
    lookup = dict(zip(dim_keys.tolist(), dim_vals.tolist()))
    join = HashJoin(dim_keys, dim_vals, stream)
    matched = 0
    for batch in fact_batches(rng, 3, 96):
        got = join.probe_batch(batch)
        want = np.array([lookup.get(int(k), -1) for k in batch], np.int32)
        np.testing.assert_array_equal(got, want)
        matched += int((got >= 0).sum())
    print(f"probed {join.batches} batches, {matched} matching rows")


if __name__ == "__main__":
    main()
