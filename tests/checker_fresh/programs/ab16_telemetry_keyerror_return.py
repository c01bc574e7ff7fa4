# fresh-expect: W0003 at line 29
# record() builds the stats launch before looking up the metric's unit; an unknown metric's KeyError handler returns and the op is dropped unrun
"""Training telemetry: a tile kernel squares activations for a running energy metric, logged per named metric."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

WIDTH = 256
UNITS = {"act_energy": "J", "grad_energy": "J"}


@tile.kernel
def square(out: Partition[f32], x: Tensor[f32]) -> None:
    v = tile.load_like(x, out)
    out.store(v * v)


class Telemetry:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.rows: list[str] = []

    def record(self, metric: str, values: np.ndarray) -> float | None:
        op = square(tile.zeros((WIDTH,), f32).partition((64,)), tile.from_numpy(values))
        try:
            unit = UNITS[metric]
        except KeyError:
            print(f"telemetry: unknown metric {metric!r}, not logged")
            return None
        out, _ = op.sync_on(self.stream)
        energy = float(out.unpartition().to_numpy(self.stream).sum())
        self.rows.append(f"{metric}={energy:.3f}{unit}")
        return energy


def main() -> None:
    stream = sk.Device.default().new_stream()
    tel = Telemetry(stream)
    rng = np.random.default_rng(13)
    for step in range(2):
        acts = rng.standard_normal(WIDTH).astype(np.float32)
        tel.record("act_energy", acts)
        tel.record("act_energy_ema" if step else "grad_energy", acts * 0.1)
    print("\n".join(tel.rows))


if __name__ == "__main__":
    main()
