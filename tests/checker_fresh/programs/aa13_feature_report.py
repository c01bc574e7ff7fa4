# fresh-expect: W0003 at line 44
# bug: FeatureReport.add builds the row-norm launch before checking whether the feature is skipped, so for a skipped feature the op is dropped unrun on the early return
"""Feature report: per-row L2 norms of several feature matrices, computed on the device with a tile kernel.

Features named in the report's skip set (too large, or known to be constant) are left out of the table.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS, COLS = 8, 16


@tile.kernel
def row_norms(out: Partition[f32], x: Tensor[f32]) -> None:
    r = tile.bid(0)
    t = x.load((r, 0), (1, COLS))
    s = tile.sum(t * t, axis=1, keepdims=True)
    out.store(tile.sqrt(s))


class Status(enum.Enum):
    OK = "ok"
    SKIPPED = "skipped"


@dataclass
class FeatureReport:
    stream: sk.Stream
    skip: frozenset[str] = frozenset()
    rows: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, name: str, values: np.ndarray) -> Status:
        out = tile.zeros((ROWS, 1), f32).partition((1, 1))
        op = row_norms(out, tile.from_numpy(values.astype(np.float32)))
        if name in self.skip:
            return Status.SKIPPED
        norms, _ = op.sync_on(self.stream)
        self.rows[name] = norms.unpartition().to_numpy(self.stream)[:, 0]
        return Status.OK

    def render(self) -> str:
        lines = [f"{'feature':<10}" + "".join(f"{r:>8d}" for r in range(ROWS))]
        for name, norms in sorted(self.rows.items()):
            lines.append(f"{name:<10}" + "".join(f"{v:8.2f}" for v in norms))
        return "\n".join(lines)


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(5)
    features = {
        "pixels": rng.standard_normal((ROWS, COLS)),
        "bias": np.ones((ROWS, COLS)),
        "grads": rng.standard_normal((ROWS, COLS)) * 0.01,
    }
    report = FeatureReport(stream, skip=frozenset({"bias"}))
    statuses = {name: report.add(name, values) for name, values in features.items()}
    print(report.render())
    print({k: s.value for k, s in statuses.items()})


if __name__ == "__main__":
    main()
