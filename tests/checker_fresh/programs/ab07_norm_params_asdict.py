# fresh-expect: E0382 at line 36
# fresh-known-miss: cli,mypy f(**params._asdict()) of a NamedTuple: the fields splatted by _asdict() are not mapped to the helper's parameters, so the moves of gamma and beta are not moves of the tuple's fields
"""Decoder-style inference: a scale/shift norm applied to each token's hidden state with shared parameters."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

HIDDEN = 256


@tile.kernel
def scale_shift(out: Partition[f32], x: Tensor[f32], gamma: Tensor[f32], beta: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(gamma, out) + tile.load_like(beta, out))


class NormParams(NamedTuple):
    gamma: sk.DeviceOp
    beta: sk.DeviceOp
    eps: float = 1e-5

    @classmethod
    def init(cls, hidden: int) -> "NormParams":
        return cls(gamma=tile.ones((hidden,), f32), beta=tile.zeros((hidden,), f32))


def apply_norm(x: np.ndarray, stream: sk.Stream, gamma: sk.DeviceOp, beta: sk.DeviceOp, eps: float) -> np.ndarray:
    centred = (x - x.mean()) / np.sqrt(x.var() + eps)
    out = tile.zeros((HIDDEN,), f32).partition((64,))
    out, _, gamma, beta = scale_shift(out, tile.from_numpy(centred.astype(np.float32)), gamma, beta).sync_on(stream)
    return out.unpartition().to_numpy(stream)


def decode(tokens: int, stream: sk.Stream) -> list[float]:
    params = NormParams.init(HIDDEN)
    rng = np.random.default_rng(2)
    norms = []
    for step in range(tokens):
        hidden = rng.standard_normal(HIDDEN).astype(np.float32) * (step + 1)
        y = apply_norm(hidden, stream, **params._asdict())
        norms.append(float(np.linalg.norm(y)))
    return norms


def main() -> None:
    stream = sk.Device.default().new_stream()
    print("per-token norms:", [round(n, 2) for n in decode(3, stream)])


if __name__ == "__main__":
    main()
