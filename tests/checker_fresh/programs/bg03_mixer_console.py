# fresh-expect: E0502 at line 44
# fresh-known-miss: cli,mypy pending ops a method appends to a list attribute hold loans of dict-attribute items chosen by string parameters (`self.bus[dst]`), and another method reads an item chosen by its own string parameter (`self.bus[name].to_numpy`): items keyed by a method's parameters are not matched across calls
# fresh-note: Two-bus audio mixer queues launch_async gain/mix ops in a list and meters levels through peak_db(); the meter reads the master bus that a pending op still writes (before flush), an E0502 in the method's to_numpy.
"""A two-bus audio mixer: queued gain/mix launches per block, with level meters for the console."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 512
RATE = 16_000


@simt.kernel
@simt.launch_contract(block=128)
def gain_mix(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32], ga: f32, gb: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(ga * a[i] + gb * b[i])


class Mixer:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = gain_mix.prepare(simt.LaunchConfig1D.for_len(BLOCK, block=128), dev)
        names = ("music", "voice", "master", "monitor")
        self.bus = {name: sk.zeros(BLOCK, f32, stream) for name in names}
        self.pending: list[sk.DeviceOp] = []

    def load(self, music: np.ndarray, voice: np.ndarray) -> None:
        self.bus["music"].copy_from_numpy(music)
        self.bus["voice"].copy_from_numpy(voice)

    def queue(self, a: str, b: str, dst: str, ga: float, gb: float) -> None:
        op = gain_mix.launch_async(self.prep, self.bus[a], self.bus[b], self.bus[dst], ga, gb)
        self.pending.append(op)

    def peak_db(self, name: str) -> float:
        peak = float(np.abs(self.bus[name].to_numpy(self.stream)).max())
        return 20.0 * np.log10(max(peak, 1e-9))

    def flush(self) -> None:
        while self.pending:
            self.pending.pop(0).sync_on(self.stream)


def tone(freq: float, start: int) -> np.ndarray:
    t = (np.arange(BLOCK) + start) / RATE
    return (0.6 * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    mixer = Mixer(dev, stream)
    meters: list[tuple[float, float]] = []
    for blk in range(4):
        music = tone(440.0, blk * BLOCK)
        voice = (0.3 * rng.standard_normal(BLOCK)).astype(np.float32)
        mixer.load(music, voice)
        duck = 0.4 if blk % 2 else 0.8
        mixer.queue("music", "voice", "master", duck, 1.0)
        mixer.queue("music", "voice", "monitor", 0.5, 0.5)
        level = mixer.peak_db("master")
        mixer.flush()
        meters.append((level, mixer.peak_db("monitor")))
        want = duck * music + voice
        np.testing.assert_allclose(mixer.bus["master"].to_numpy(stream), want, rtol=1e-5, atol=1e-6)
    for blk, (level, mon) in enumerate(meters):
        print(f"block {blk}: meter {level:6.1f} dBFS, monitor {mon:6.1f} dBFS")


if __name__ == "__main__":
    main()
