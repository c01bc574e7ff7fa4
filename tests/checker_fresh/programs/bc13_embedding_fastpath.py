# fresh-expect: E0133 at line 40
# fresh-note: Embedding-lookup server that validates its gather launch once at start-up and then serves every batch through a `launch_unchecked` fast path stored as a lambda. Bug: the lambda is defined inside `with simt.unsafe():` in `__init__`, but the unsafe block does not cover the lambda's body, which runs later from `lookup` (E0133).
"""An embedding-lookup server for a recommendation model: each request batch is a fixed number of ids, and
the rows are gathered from the device-resident table.  The batch shape never changes, so the launch is
validated once with `prepare` and the per-request path skips the validation.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

ROWS = 64
DIM = 16
BATCH = 8


@simt.kernel
@simt.launch_contract(block=128)
def gather_rows(table: Slice[f32], ids: Slice[i32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(out):
        row = ids[i // DIM]
        if (o := out.get_mut(idx)) is not None:
            o.set(table[row * DIM + i % DIM])


class EmbeddingServer:
    def __init__(self, table: np.ndarray, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.table = sk.to_device(table.astype(np.float32).ravel(), stream)
        cfg = simt.LaunchConfig1D.for_len(BATCH * DIM, block=128)
        gather_rows.prepare(cfg, dev)  # validates the contract and the device limits once
        with simt.unsafe():  # the shape is fixed from here on: skip re-validation per request
            self._fast = lambda ids, out: gather_rows.launch_unchecked(cfg, stream, self.table, ids, out)
        self.served = 0

    def lookup(self, ids: np.ndarray) -> np.ndarray:
        if ids.shape != (BATCH,):
            raise ValueError(f"expected a batch of {BATCH} ids, got {ids.shape}")
        if ids.min() < 0 or ids.max() >= ROWS:
            raise IndexError("embedding id out of range")
        dev_ids = sk.to_device(ids.astype(np.int32), self.stream)
        out = sk.zeros(BATCH * DIM, f32, self.stream)
        self._fast(dev_ids, out)
        self.served += 1
        return out.to_numpy(self.stream).reshape(BATCH, DIM)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    table = np.arange(ROWS * DIM, dtype=np.float32).reshape(ROWS, DIM) / 100.0
    server = EmbeddingServer(table, dev, stream)
    rng = np.random.default_rng(3)
    for _ in range(3):
        ids = rng.integers(0, ROWS, BATCH)
        rows = server.lookup(ids)
        assert np.allclose(rows, table[ids])
    print(f"served {server.served} batches of {BATCH} ids")


if __name__ == "__main__":
    main()
