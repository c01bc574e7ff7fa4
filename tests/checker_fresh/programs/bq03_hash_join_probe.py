# fresh-expect: E0382 at line 63
# fresh-known-false-alarm: cli,mypy false E0382 at 71: the moved `join.table` is used again at 71 in a later iteration, after the use at 63 that the runtime stops at
# fresh-note: the semi-join probe moves the build side's table into its launch and drops the handle sync_on hands back, so the next inner-join probe passes a moved tensor.
"""Hash join over dense integer keys: a direct-address build table on the device, probed in batches.

The build relation's keys index a table that holds the build row id (or -1).  The probe side streams through
in batches: an inner join gathers the matching build row for every probe row, and a semi join (EXISTS)
only keeps probe rows that have a partner.  Both use tile kernels over one shared build table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import Partition, Tensor

TILE = 128


@tile.kernel
def probe_rows(out: Partition[i32], keys: Tensor[i32], table: Tensor[i32]) -> None:
    k = tile.load_like(keys, out)
    out.store(tile.gather(table, k, mask=k >= 0, other=-1))


@tile.kernel
def probe_exists(out: Partition[i32], keys: Tensor[i32], table: Tensor[i32]) -> None:
    k = tile.load_like(keys, out)
    hit = tile.gather(table, k, mask=k >= 0, other=-1)
    out.store(tile.where(hit >= 0, 1, 0))


@dataclass
class JoinStats:
    batches: int = 0
    probed: int = 0
    matched: int = 0
    history: list[str] = field(default_factory=list)


class DenseHashJoin:
    """Build once, probe many times; the table lives on the device for the lifetime of the operator."""

    def __init__(self, stream: sk.Stream, build_keys: np.ndarray, domain: int) -> None:
        self.stream = stream
        self.domain = domain
        host = np.full(domain, -1, np.int32)
        host[build_keys] = np.arange(len(build_keys), dtype=np.int32)
        self.table: Tensor[i32] = tile.from_numpy(host).sync_on(stream)
        self.stats = JoinStats()

    def _output(self, n: int) -> Partition[i32]:
        return tile.full((n,), -1, i32).sync_on(self.stream).partition((TILE,))

    def inner(self, probe_keys: np.ndarray) -> np.ndarray:
        out = self._output(len(probe_keys))
        op = probe_rows(out, tile.from_numpy(probe_keys), self.table)
        out, _keys, self.table = op.sync_on(self.stream)
        matches = out.unpartition().to_numpy(self.stream)
        self._record("inner", probe_keys, int((matches >= 0).sum()))
        return matches

    def semi(self, probe_keys: np.ndarray) -> np.ndarray:
        out = self._output(len(probe_keys))
        out, _keys, _table = probe_exists(out, tile.from_numpy(probe_keys), self.table).sync_on(self.stream)
        flags = out.unpartition().to_numpy(self.stream).astype(bool)
        self._record("semi", probe_keys, int(flags.sum()))
        return probe_keys[flags]

    def _record(self, kind: str, keys: np.ndarray, matched: int) -> None:
        self.stats.batches += 1
        self.stats.probed += len(keys)
        self.stats.matched += matched
        self.stats.history.append(f"{kind}:{len(keys)}->{matched}")


def probe_batches(rng: np.random.Generator, domain: int, sizes: list[int]) -> Iterator[np.ndarray]:
    for n in sizes:
        keys = rng.integers(0, domain, n).astype(np.int32)
        keys[rng.random(n) < 0.05] = -1  # NULL join keys never match
        yield keys


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(11)
    domain = 4096
    build_keys = rng.choice(domain, 1500, replace=False).astype(np.int32)
    join = DenseHashJoin(stream, build_keys, domain)
    lookup = {int(k): row for row, k in enumerate(build_keys)}

    for i, keys in enumerate(probe_batches(rng, domain, [700, 1000, 300, 900])):
        if i % 2 == 0:  # EXISTS (SELECT 1 FROM build WHERE build.k = probe.k)
            kept = join.semi(keys)
            assert all(int(k) in lookup for k in kept)
        else:
            rows = join.inner(keys)
            want = np.array([lookup.get(int(k), -1) if k >= 0 else -1 for k in keys], np.int32)
            np.testing.assert_array_equal(rows, want)
    print(f"{join.stats.batches} batches, {join.stats.probed} probed, {join.stats.matched} matched")
    print(", ".join(join.stats.history))


if __name__ == "__main__":
    main()
