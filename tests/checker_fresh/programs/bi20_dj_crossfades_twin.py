# fresh-expect: clean
# fresh-note: Same DJ crossfade batch, but all pending crossfade ops in `inflight` are synced and cleared before the meter closure moves the output buffers into the tile launch.
"""Equal-power crossfades between consecutive tracks of a DJ set, then per-block loudness of each transition.

Every transition is queued as a SIMT `launch_async` op and kept in `inflight` keyed by its name, so all the
crossfades can be submitted before the host waits; they are all run before the meter takes their outputs.  The loudness meter is a tile kernel that sums squares per
block of samples.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 128
METER = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def crossfade(outgoing: Slice[f32], incoming: Slice[f32], mixed: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(mixed)
    if (o := mixed.get_mut(idx)) is not None:
        theta = f32(i) / f32(n - 1) * f32(math.pi / 2.0)
        o.set(outgoing[i] * math.cos(theta) + incoming[i] * math.sin(theta))


@tile.kernel
def block_energy(energy: Partition[f32], x: Tensor[f32]) -> None:
    chunk = x.load((tile.bid(0),), (METER,))
    energy.store(tile.sum(chunk * chunk, axis=0, keepdims=True))


class Transition(NamedTuple):
    name: str
    outgoing: sk.DeviceBuffer
    incoming: sk.DeviceBuffer


def tone(n: int, freq: float) -> np.ndarray:
    t = np.arange(n, dtype=np.float32)
    return (0.7 * np.sin(freq * t)).astype(np.float32)


def make_meter(n: int, stream: sk.Stream):
    blocks = n // METER

    def measure(mixed: sk.DeviceBuffer) -> np.ndarray:
        energy = tile.zeros((blocks,), f32).partition((1,))
        energy, _mixed = block_energy(energy, mixed).sync_on(stream)
        return energy.unpartition().to_numpy(stream)

    return measure


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = a.shape[0]
    theta = np.arange(n, dtype=np.float32) / np.float32(n - 1) * np.float32(math.pi / 2)
    mixed = a * np.cos(theta) + b * np.sin(theta)
    return (mixed.reshape(-1, METER) ** 2).sum(axis=1)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 512
    freqs = {"intro": 0.02, "anthem": 0.05, "breakdown": 0.013, "closer": 0.031}
    hosts = {name: tone(n, f) for name, f in freqs.items()}
    tracks = {name: sk.to_device(x, stream) for name, x in hosts.items()}
    names = list(tracks)
    transitions = [Transition(f"{a}->{b}", tracks[a], tracks[b]) for a, b in zip(names, names[1:])]
    prepared = crossfade.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    measure = make_meter(n, stream)

    inflight: dict[str, sk.DeviceOp] = {}
    outputs: dict[str, sk.DeviceBuffer] = {}
    for tr in transitions:
        mixed = sk.zeros(n, f32, stream)
        inflight[tr.name] = crossfade.launch_async(prepared, tr.outgoing, tr.incoming, mixed)
        outputs[tr.name] = mixed

    for op in inflight.values():
        op.sync_on(stream)
    inflight.clear()
    loudness = {}
    for name, mixed in outputs.items():
        loudness[name] = measure(mixed)

    for a, b in zip(names, names[1:]):
        name = f"{a}->{b}"
        np.testing.assert_allclose(loudness[name], reference(hosts[a], hosts[b]), rtol=1e-4, atol=1e-4)
        print(f"{name:>18}: peak block energy {float(loudness[name].max()):.2f}")
    print("crossfades ok")


if __name__ == "__main__":
    main()
