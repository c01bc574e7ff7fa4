# fresh-expect: clean
# fresh-note: Same beamformer, but the prepared-launch registry prepares each steering mode with its own kernel, matching the kernel registry used by `steer`.
"""A four-microphone linear-array beamformer with two steering strategies.

Microphone signals are stored channel-major (mic 0's samples, then mic 1's, ...).  Delay-and-sum shifts each
channel by an integer delay and averages; the weighted beamformer applies one gain per microphone.  Kernels and
their prepared launches are kept in registries keyed by the `Steering` enum.
"""

from __future__ import annotations

import enum
import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

MICS = 4
BLOCK = 64


class Steering(enum.Enum):
    DELAY_SUM = enum.auto()
    WEIGHTED = enum.auto()


@simt.kernel
@simt.launch_contract(block=BLOCK)
def delay_and_sum(mics: Slice[f32], params: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(out)
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for m in range(MICS):
            d = i32(params[m])
            if i >= d:
                acc += mics[m * n + i - d]
        o.set(acc / f32(MICS))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def weighted_sum(mics: Slice[f32], params: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(out)
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for m in range(MICS):
            acc += params[m] * mics[m * n + i]
        o.set(acc)


KERNELS = {Steering.DELAY_SUM: delay_and_sum, Steering.WEIGHTED: weighted_sum}


class Beamformer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, channels: np.ndarray) -> None:
        self.stream = stream
        self.n = channels.shape[1]
        self.mics = sk.to_device(channels.astype(np.float32).reshape(-1), stream)
        cfg = simt.LaunchConfig1D.for_len(self.n, block=BLOCK)
        self.prepared = {
            Steering.DELAY_SUM: delay_and_sum.prepare(cfg, dev),
            Steering.WEIGHTED: weighted_sum.prepare(cfg, dev),
        }

    @functools.cached_property
    def params(self) -> dict[Steering, sk.DeviceBuffer]:
        delays = np.arange(MICS, dtype=np.float32) * 2.0
        weights = np.array([0.1, 0.4, 0.4, 0.1], np.float32)
        return {
            Steering.DELAY_SUM: sk.to_device(delays, self.stream),
            Steering.WEIGHTED: sk.to_device(weights, self.stream),
        }

    def steer(self, mode: Steering) -> np.ndarray:
        out = sk.zeros(self.n, f32, self.stream)
        kernel = KERNELS[mode]
        kernel.launch(self.prepared[mode], self.stream, self.mics, self.params[mode], out)
        return out.to_numpy(self.stream)


def reference(channels: np.ndarray, mode: Steering) -> np.ndarray:
    n = channels.shape[1]
    match mode:
        case Steering.DELAY_SUM:
            acc = np.zeros(n, np.float32)
            for m in range(MICS):
                d = 2 * m
                acc[d:] += channels[m, : n - d]
            return acc / MICS
        case Steering.WEIGHTED:
            return (np.array([0.1, 0.4, 0.4, 0.1], np.float32)[:, None] * channels).sum(axis=0)
    raise ValueError(mode)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 256
    t = np.arange(n, dtype=np.float32)
    source = np.sin(0.09 * t).astype(np.float32)
    channels = np.stack([np.roll(source, 2 * m) for m in range(MICS)]).astype(np.float32)
    channels += 0.01 * np.random.default_rng(3).standard_normal(channels.shape).astype(np.float32)
    bf = Beamformer(dev, stream, channels)
    for mode in Steering:
        got = bf.steer(mode)
        np.testing.assert_allclose(got, reference(channels, mode), rtol=1e-4, atol=1e-5)
        print(f"{mode.name:>9}: output power {float(np.mean(got**2)):.4f}")
        if not np.isfinite(got).all():
            print("non-finite output, stopping")
            break
    else:
        print("beamformer ok")


if __name__ == "__main__":
    main()
