# fresh-expect: clean
# idiom: late-binding lambda in a loop passed to DeviceOp.then, dict comprehension of output partitions, sk.zip(*chains)
"""Per-channel conditioning of a multichannel recording with two chained tile kernels.

For every channel a `center` launch removes the per-tile mean; `.then` chains a `gain`
launch that writes the channel's calibrated output into a preallocated partition.  All
channel chains are submitted together with `sk.zip` and synchronised once.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 512
TILE = 128
CALIBRATION = {"fz": 1.0, "cz": 0.85, "pz": 1.2, "oz": 0.9}


@tile.kernel
def center(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    mean = tile.sum(t, axis=0, keepdims=True) / TILE
    out.store(t - tile.broadcast_to(mean, (TILE,)))


@tile.kernel
def gain(out: Partition[f32], x: Tensor[f32], g: f32) -> None:
    out.store(tile.load_like(x, out) * g)


def record(rng: np.random.Generator) -> dict[str, np.ndarray]:
    t = np.arange(N, dtype=np.float32)
    return {
        name: (np.sin(t / (8.0 + k)) + 3.0 + 0.2 * rng.standard_normal(N)).astype(np.float32)
        for k, name in enumerate(CALIBRATION)
    }


def build_chains(channels: dict[str, np.ndarray]) -> tuple[list[str], list[sk.DeviceOp]]:
    outs = {name: tile.zeros((N,), f32).partition((TILE,)) for name in channels}
    names: list[str] = []
    chains: list[sk.DeviceOp] = []
    for name, data in channels.items():
        first = center(tile.zeros((N,), f32).partition((TILE,)), tile.from_numpy(data))
        names.append(name)
        chains.append(first.then(lambda v, name=name: gain(outs[name], v[0].unpartition(), CALIBRATION[name])))
    return names, chains


def main() -> None:
    stream = sk.Device.default().new_stream()
    channels = record(np.random.default_rng(31))
    names, chains = build_chains(channels)
    results = sk.zip(*chains).sync_on(stream)
    for name, (out, _src, g) in zip(names, results):
        host = out.unpartition().to_numpy(stream)
        print(f"{name}: gain {g:.2f}, mean {host.mean():+.4f}, rms {float(np.sqrt((host**2).mean())):.4f}")


if __name__ == "__main__":
    main()
