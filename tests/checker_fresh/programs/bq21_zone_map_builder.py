# fresh-expect: E0382 at line 51
# fresh-known-miss: cli,mypy a generator refilling one staging buffer per chunk while the consumer moves each yielded chunk into a tile launch: the consumer's moves are not seen by the generator's next resumption (interleaved generators)
# fresh-note: the chunk generator reuses one staging buffer for every chunk, but the consumer moves each yielded chunk into the zone-stats tile launch, so refilling the staging buffer for the second chunk uses a moved buffer.
"""Zone maps for a columnar file: per-zone min/max computed on the device while streaming the column.

The column is read in fixed-size chunks from host memory; each chunk is cut into zones of ZONE rows and a tile
kernel computes every zone's min and max.  A query then skips the zones whose [min, max] cannot overlap its
predicate range, the way Parquet row-group statistics prune a scan.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ZONE = 128
CHUNK = 8 * ZONE


@tile.kernel
def zone_stats(mins: Partition[f32], maxs: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(0),), (ZONE,))
    mins.store(tile.min(t, axis=0, keepdims=True))
    maxs.store(tile.max(t, axis=0, keepdims=True))


class ChunkReader:
    """Streams a host column to the device one CHUNK at a time (the last chunk padded with its edge value)."""

    def __init__(self, host: np.ndarray, stream: sk.Stream) -> None:
        self.host = host.astype(np.float32)
        self.stream = stream

    def __len__(self) -> int:
        return -(-len(self.host) // CHUNK)

    def chunks(self) -> Iterator[tuple[int, sk.DeviceBuffer]]:
        staging = sk.empty(CHUNK, f32, self.stream)
        for start in range(0, len(self.host), CHUNK):
            piece = self.host[start : start + CHUNK]
            if len(piece) < CHUNK:
                piece = np.pad(piece, (0, CHUNK - len(piece)), mode="edge")
            staging.copy_from_numpy(piece)
            yield start, staging


@dataclass
class ZoneMap:
    mins: list[float] = field(default_factory=list)
    maxs: list[float] = field(default_factory=list)

    def extend(self, mins: np.ndarray, maxs: np.ndarray) -> None:
        self.mins.extend(mins.tolist())
        self.maxs.extend(maxs.tolist())

    def candidates(self, lo: float, hi: float) -> list[int]:
        return [z for z, (mn, mx) in enumerate(zip(self.mins, self.maxs)) if mx >= lo and mn <= hi]


def build_zone_map(reader: ChunkReader, stream: sk.Stream) -> ZoneMap:
    zmap = ZoneMap()
    zones_per_chunk = CHUNK // ZONE
    for start, chunk in reader.chunks():
        mins = tile.zeros((zones_per_chunk,), f32).partition((1,))
        maxs = tile.zeros((zones_per_chunk,), f32).partition((1,))
        mins, maxs, _chunk = zone_stats(mins, maxs, chunk).sync_on(stream)
        zmap.extend(mins.unpartition().to_numpy(stream), maxs.unpartition().to_numpy(stream))
    real_zones = -(-len(reader.host) // ZONE)
    del zmap.mins[real_zones:], zmap.maxs[real_zones:]
    return zmap


def scan_with_pruning(host: np.ndarray, zmap: ZoneMap, lo: float, hi: float) -> tuple[int, int]:
    zones = zmap.candidates(lo, hi)
    hits = sum(int(((z_rows >= lo) & (z_rows <= hi)).sum())
               for z_rows in (host[z * ZONE : (z + 1) * ZONE] for z in zones))
    return hits, len(zones)


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(31)
    # a timestamp-like column: mostly increasing, so zone maps prune well
    host = (np.cumsum(rng.random(3000)) + rng.normal(0, 0.5, 3000)).astype(np.float32)
    reader = ChunkReader(host, stream)
    zmap = build_zone_map(reader, stream)
    assert len(zmap.mins) == -(-len(host) // ZONE)
    for z, (mn, mx) in itertools.islice(enumerate(zip(zmap.mins, zmap.maxs)), 0, None, 7):
        rows = host[z * ZONE : (z + 1) * ZONE]
        assert mn == rows.min() and mx == rows.max(), z
    for lo, hi in ((100.0, 140.0), (900.0, 1000.0)):
        hits, scanned = scan_with_pruning(host, zmap, lo, hi)
        assert hits == int(((host >= lo) & (host <= hi)).sum())
        print(f"[{lo}, {hi}]: {hits} rows, scanned {scanned} of {len(zmap.mins)} zones")


if __name__ == "__main__":
    main()
