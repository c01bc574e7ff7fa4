# fresh-expect: E0382 at line 38
# fresh-known-miss: cli,mypy a generator yields its one staging buffer, the consumer moves it into a tile launch, and the generator's next `copy_from_numpy` uses it: moves of a yielded object are not followed back into the generator
# fresh-note: A generator owns one f32 staging buffer that it refills and yields for each batch; a tile kernel casts it to f16 with the loss scale. Bug: `to_half` passes the yielded buffer to a tile launch, which moves it (the handed-back `_x` is dropped), so the generator's next `staging.copy_from_numpy` uses a moved value (E0382).
"""Mixed-precision input staging: f32 host batches are copied into a device staging buffer and cast to f16
with the loss scale folded in, like `torch.autocast` plus a GradScaler on the input side.
A generator owns the staging buffer and refills it for every batch, so only one f32 copy of the input lives on
the device at a time.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f16, f32
from safekernels.tile import Partition, Tensor

FEATURES = 2048
TILE = 512


@tile.kernel
def cast_scaled(out: Partition[f16], x: Tensor[f32], scale: f32) -> None:
    out.store((tile.load_like(x, out) * scale).astype(f16))


@tile.kernel
def half_sum(acc: Partition[f32], h: Tensor[f16]) -> None:
    acc.store(acc.load() + tile.load_like(h, acc).astype(f32))


def staged(batches: Iterable[np.ndarray], stream: sk.Stream) -> Iterator[sk.DeviceBuffer[f32]]:
    staging = sk.zeros(FEATURES, f32, stream)
    for host in batches:
        staging.copy_from_numpy(host)
        yield staging


class HalfPrecisionFeeder:
    def __init__(self, stream: sk.Stream, loss_scale: float) -> None:
        self.stream = stream
        self.loss_scale = loss_scale
        self.acc = tile.zeros((FEATURES,), f32).partition((TILE,))
        self.seen = 0

    def to_half(self, x: sk.DeviceBuffer[f32]) -> Tensor[f16]:
        out = tile.zeros((FEATURES,), f16).partition((TILE,))
        out, _x, _s = cast_scaled(out, x, self.loss_scale).sync_on(self.stream)
        return out.unpartition()

    def consume(self, h: Tensor[f16]) -> None:
        self.acc, _h = half_sum(self.acc, h).sync_on(self.stream)
        self.seen += 1

    def mean_input(self) -> np.ndarray:
        return self.acc.to_numpy(self.stream) / (self.loss_scale * max(self.seen, 1))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    batches = [rng.uniform(-1.0, 1.0, FEATURES).astype(np.float32) for _ in range(4)]
    feeder = HalfPrecisionFeeder(stream, loss_scale=256.0)
    for buf in staged(batches, stream):
        feeder.consume(feeder.to_half(buf))
    err = np.abs(feeder.mean_input() - np.mean(batches, axis=0)).max()
    print(f"fed {feeder.seen} batches through f16 staging, max error {err:.2e}")


if __name__ == "__main__":
    main()
