# fresh-expect: E0382 at line 51
# fresh-note: Tea factory withering and oxidation model that keeps the trough humidity constructor op in a dict of inputs and passes that same op to both the withering and the oxidation launches, so the second launch uses the moved humidity op.
"""Tea factory: withering-trough moisture loss and oxidation progress for a batch of trays."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 32


@tile.kernel
def wither(moisture: Partition[f32], humidity: Tensor[f32], airflow: Tensor[f32], hours: f32) -> None:
    m = moisture.load()
    drive = (1.0 - tile.load_like(humidity, moisture)) * tile.load_like(airflow, moisture)
    moisture.store(m - (m - 0.6) * (1.0 - tile.exp(-0.2 * drive * hours)))


@tile.kernel
def oxidise(browning: Partition[f32], humidity: Tensor[f32], rolled: f32, minutes: f32) -> None:
    rate = 0.012 * rolled * (0.5 + tile.load_like(humidity, browning))
    browning.store(1.0 - (1.0 - browning.load()) * tile.exp(-rate * minutes))


class Batch:
    def __init__(self, trays: int, grade: str, rng: np.random.Generator) -> None:
        self.grade = grade
        self.trays = trays
        self.fresh = rng.uniform(0.74, 0.80, trays).astype(np.float32)
        self.humidity = rng.uniform(0.55, 0.85, trays).astype(np.float32)
        self.airflow = rng.uniform(0.8, 1.6, trays).astype(np.float32)

    def inputs(self) -> dict[str, sk.DeviceOp]:
        return {
            "humidity": tile.from_numpy(self.humidity),
            "airflow": tile.from_numpy(self.airflow),
        }


def process(batch: Batch, stream: sk.Stream, wither_h: float, oxidise_min: float) -> tuple[np.ndarray, np.ndarray]:
    inputs = batch.inputs()
    moisture = tile.from_numpy(batch.fresh).partition((TILE,))
    browning = tile.zeros((batch.trays,), f32).partition((TILE,))
    withering = wither(moisture, inputs["humidity"], inputs["airflow"], wither_h)
    rolled = 1.4 if batch.grade == "CTC" else 1.0
    oxidation = oxidise(browning, inputs["humidity"], rolled, oxidise_min)
    (moisture, *_), (browning, *_) = sk.zip(withering, oxidation).sync_on(stream)
    return moisture.unpartition().to_numpy(stream), browning.unpartition().to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(17)
    for grade, hours, minutes in (("orthodox", 14.0, 90.0), ("CTC", 10.0, 60.0)):
        batch = Batch(80, grade, rng)
        moisture, browning = process(batch, stream, hours, minutes)
        ready = int(((moisture < 0.66) & (browning > 0.6)).sum())
        print(f"{grade}: moisture {moisture.mean():.3f}, oxidation {browning.mean():.2f}, {ready} trays ready to fire")


if __name__ == "__main__":
    main()
