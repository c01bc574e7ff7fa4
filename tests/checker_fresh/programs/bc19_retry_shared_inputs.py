# fresh-expect: clean
# fresh-note: KV-cache offload to a remote tier with retries, where each attempt builds a fresh tile compression op (and a fresh zip with the scale op) from a `.shared()` KV tensor and ships it through a `then` callback that fails once; the shared input may be read by every attempt.
"""Offloading cold KV-cache blocks from GPU memory to a remote memory tier: each block is compressed to a
scaled representation on the device and the result is pushed over the network.  The push sometimes fails,
so every attempt rebuilds its launch from the shared, read-only KV block.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BLOCK = 512
TILE = 128


@tile.kernel
def compress(out: Partition[f32], kv: Tensor[f32], inv_scale: f32) -> None:
    out.store(tile.load_like(kv, out) * inv_scale)


@tile.kernel
def absmax(out: Partition[f32], kv: Tensor[f32]) -> None:
    out.store(tile.maximum(tile.load_like(kv, out), -tile.load_like(kv, out)))


class RemoteTier:
    def __init__(self, failures: int, stream: sk.Stream) -> None:
        self.failures = failures
        self.stream = stream
        self.stored: dict[int, np.ndarray] = {}
        self.next_key = 0

    def push(self, results: tuple) -> int:
        if self.failures > 0:
            self.failures -= 1
            raise TimeoutError("remote tier did not acknowledge the block")
        (packed, _kv, _s), (_mag, _kv2) = results
        key = self.next_key
        self.stored[key] = packed.unpartition().to_numpy(self.stream)
        self.next_key += 1
        return key


class Offloader:
    def __init__(self, tier: RemoteTier, stream: sk.Stream, attempts: int = 3) -> None:
        self.tier = tier
        self.stream = stream
        self.attempts = attempts
        self.log: list[str] = []

    def offload(self, block: np.ndarray, scale: float) -> int:
        kv = tile.from_numpy(block).shared()
        for attempt in range(1, self.attempts + 1):
            packed = compress(tile.zeros((BLOCK,), f32).partition((TILE,)), kv, 1.0 / scale)
            mags = absmax(tile.zeros((BLOCK,), f32).partition((TILE,)), kv)
            try:
                return sk.zip(packed, mags).then(self.tier.push).sync_on(self.stream)
            except TimeoutError as err:
                self.log.append(f"attempt {attempt}: {err}")
            finally:
                self.log.append(f"attempt {attempt} done")
        raise RuntimeError("offload failed")


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    tier = RemoteTier(failures=1, stream=stream)
    off = Offloader(tier, stream)
    rng = np.random.default_rng(19)
    keys = [off.offload(rng.standard_normal(BLOCK).astype(np.float32), scale=4.0) for _ in range(2)]
    print("stored keys:", keys, "log:", off.log)
    print("first block absmax after compression:", round(float(np.abs(tier.stored[keys[0]]).max()), 3))


if __name__ == "__main__":
    main()
