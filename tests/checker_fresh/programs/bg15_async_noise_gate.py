# fresh-expect: W0003 at line 36
# fresh-note: Asyncio producer/consumer audio stream where process_chunk() builds the tile gain op before the noise-gate check, so a gated (silent) chunk returns early and drops the op unrun.
"""Asyncio audio streaming: a producer feeds chunks through a queue, a consumer gates silence and applies gain."""

from __future__ import annotations

import asyncio

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CHUNK = 512
TILE = 128
GATE = 0.05


@tile.kernel
def apply_gain(out: Partition[f32], x: Tensor[f32], g: f32) -> None:
    out.store(tile.load_like(x, out) * g)


async def producer(queue: asyncio.Queue[np.ndarray | None], chunks: list[np.ndarray]) -> None:
    for chunk in chunks:
        await queue.put(chunk)
        await asyncio.sleep(0)
    await queue.put(None)


async def process_chunk(chunk: np.ndarray, stream: sk.Stream, level: float) -> np.ndarray | None:
    x = tile.from_numpy(chunk)
    out = tile.zeros((CHUNK,), f32).partition((TILE,))
    op = apply_gain(out, x, level)
    if float(np.abs(chunk).max()) < GATE:
        return None  # noise gate: nothing worth sending downstream
    await asyncio.sleep(0)
    out, _x, _g = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


async def consumer(queue: asyncio.Queue[np.ndarray | None], stream: sk.Stream) -> list[np.ndarray | None]:
    results: list[np.ndarray | None] = []
    level = 0.5
    while (chunk := await queue.get()) is not None:
        results.append(await process_chunk(chunk, stream, level))
        level = min(level * 1.25, 1.0)
    return results


async def stream_all(chunks: list[np.ndarray], stream: sk.Stream) -> list[np.ndarray | None]:
    queue: asyncio.Queue[np.ndarray | None] = asyncio.Queue(maxsize=2)
    _, results = await asyncio.gather(producer(queue, chunks), consumer(queue, stream))
    return results


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    loud = [(0.4 * rng.standard_normal(CHUNK)).astype(np.float32) for _ in range(3)]
    quiet = (0.01 * rng.standard_normal(CHUNK)).astype(np.float32)
    chunks = [loud[0], quiet, loud[1], loud[2]]
    results = asyncio.run(stream_all(chunks, stream))
    level = 0.5
    for k, (chunk, got) in enumerate(zip(chunks, results)):
        if got is None:
            print(f"chunk {k}: gated")
        else:
            np.testing.assert_allclose(got, chunk * np.float32(level), rtol=1e-6)
            print(f"chunk {k}: gain {level:.3f}, peak {np.abs(got).max():.3f}")
        level = min(level * 1.25, 1.0)
    assert results[1] is None and all(r is not None for r in results[::2])


if __name__ == "__main__":
    main()
