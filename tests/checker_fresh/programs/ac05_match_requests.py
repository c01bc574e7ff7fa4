# fresh-expect: E0382 at line 61
# idiom: match statement with dataclass class patterns dispatching preprocessing requests
"""Preprocess sensor windows according to a list of typed requests.

Requests are small dataclasses; a `match` on their class picks the tile kernel to run.  After
each request the raw window is summarized for the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 1024
TILE = 128


@tile.kernel
def scaled(z: Partition[f32], x: Tensor[f32], s: f32) -> None:
    z.store(tile.load_like(x, z) * s)


@tile.kernel
def shifted(z: Partition[f32], x: Tensor[f32], b: f32) -> None:
    z.store(tile.load_like(x, z) + b)


@dataclass
class Scale:
    factor: float


@dataclass
class Shift:
    offset: float


@dataclass
class Skip:
    reason: str


def process(requests: list, raw: np.ndarray, stream: sk.Stream) -> list[float]:
    summaries = []
    for req in requests:
        x = tile.from_numpy(raw).sync_on(stream)
        out = tile.zeros((N,), f32).sync_on(stream).partition((TILE,))
        match req:
            case Scale(factor=f):
                out, x, _ = scaled(out, x, f).sync_on(stream)
            case Shift(offset=b):
                out, _, _ = shifted(out, x, b).sync_on(stream)
            case Skip(reason=why):
                print("skipped:", why)
        audit = float(x.to_numpy(stream).mean())
        result = out.unpartition().to_numpy(stream)
        summaries.append(float(result.mean()) - audit)
    return summaries


def main() -> None:
    stream = sk.Device.default().new_stream()
    raw = np.linspace(-1.0, 1.0, N, dtype=np.float32) ** 2
    requests = [Scale(2.0), Skip("calibration window"), Shift(0.5), Scale(0.5)]
    for req, delta in zip(requests, process(requests, raw, stream)):
        print(f"{type(req).__name__:>5}: mean moved by {delta:+.4f}")


if __name__ == "__main__":
    main()
