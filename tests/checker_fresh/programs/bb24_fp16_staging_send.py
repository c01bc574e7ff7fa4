# fresh-expect: clean
# fresh-note: A generator owns one f32 staging buffer and refills it per batch; the consumer casts it to f16 with a tile launch and sends the buffer handle the launch hands back into the generator, which rebinds its staging name to it.
"""Mixed-precision input staging with dynamic loss scaling (GradScaler-style growth and backoff).

One f32 staging buffer is reused for every batch.  The cast kernel takes ownership of it, so the consumer
hands the buffer back to the staging generator with `send`, and the generator refills that handle.
"""

from __future__ import annotations

from typing import Generator, Iterable

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f16, f32
from safekernels.tile import Partition, Tensor

FEATURES = 1024
TILE = 256


@tile.kernel
def cast_scaled(out: Partition[f16], x: Tensor[f32], scale: f32) -> None:
    out.store((tile.load_like(x, out) * scale).astype(f16))


def staging_loop(batches: Iterable[np.ndarray], stream: sk.Stream) -> Generator[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32], None]:
    staging = sk.zeros(FEATURES, f32, stream)
    for host in batches:
        staging.copy_from_numpy(host)
        staging = yield staging


class LossScaler:
    def __init__(self, init: float = 2.0 ** 14, growth_interval: int = 2) -> None:
        self.scale = init
        self.growth_interval = growth_interval
        self.good_steps = 0

    def update(self, found_inf: bool) -> None:
        if found_inf:
            self.scale *= 0.5
            self.good_steps = 0
            return
        self.good_steps += 1
        if self.good_steps % self.growth_interval == 0:
            self.scale *= 2.0


def to_half(x: sk.DeviceBuffer[f32], scale: float, stream: sk.Stream) -> tuple[np.ndarray, sk.DeviceBuffer[f32]]:
    out = tile.zeros((FEATURES,), f16).partition((TILE,))
    out, x, _s = cast_scaled(out, x, scale).sync_on(stream)
    return out.unpartition().to_numpy(stream), x


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(24)
    batches = [rng.uniform(-4.0, 4.0, FEATURES).astype(np.float32) for _ in range(5)]
    scaler = LossScaler()
    gen = staging_loop(batches, stream)
    buf = next(gen)
    scales = []
    while True:
        half, buf = to_half(buf, scaler.scale, stream)
        scales.append(scaler.scale)
        scaler.update(found_inf=not np.isfinite(half).all())
        try:
            buf = gen.send(buf)
        except StopIteration:
            break
    print("loss scales used:", [int(s) for s in scales])


if __name__ == "__main__":
    main()
