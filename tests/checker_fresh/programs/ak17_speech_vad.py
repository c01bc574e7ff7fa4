# fresh-expect: E0502 at line 78
# fresh-known-miss: cli,mypy a helper carves views of one arena in a loop with offsets rounded down (`off = (off + size) // align * align`), so two views overlap; the checker does not evaluate such offset arithmetic
# fresh-note: Energy-based voice activity detection that carves its scratch arena into aligned views, but the carve helper rounds each offset down, so the flags view overlaps the tail of the energy view it is computed from.
from __future__ import annotations
import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

RATE = 8000
N = 1024
WIN, HOP = 64, 16
FRAMES = (N - WIN) // HOP + 1


@simt.kernel
@simt.launch_contract(block=128)
def pre_emphasis(x: Slice[f32], y: DisjointSlice[f32], a: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(x) and (o := y.get_mut(idx)) is not None:
        prev = f32(0.0)
        if i > 0:
            prev = x[i - 1]
        o.set(x[i] - a * prev)


@simt.kernel
@simt.launch_contract(block=64, requires=("len(y) >= (len(e) - 1) * hop + win",))
def frame_energy(y: Slice[f32], e: DisjointSlice[f32], win: u32, hop: u32) -> None:
    idx = thread.index_1d()
    f = idx.get()
    if f < len(e) and (o := e.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(win):
            s = y[f * hop + k]
            acc += s * s
        o.set(f32(10.0) * math.log10(acc / f32(win) + f32(1e-10)))


@simt.kernel
@simt.launch_contract(block=64)
def vad_decide(e: Slice[f32], flags: DisjointSlice[f32], floor_db: f32, margin_db: f32) -> None:
    idx = thread.index_1d()
    f = idx.get()
    if f < len(e) and (o := flags.get_mut(idx)) is not None:
        o.set(f32(1.0) if e[f] > floor_db + margin_db else f32(0.0))


def carve(arena: sk.DeviceBuffer, sizes: dict[str, int], align: int = 4) -> dict[str, sk.DeviceBuffer]:
    views, off = {}, 0
    for name, size in sizes.items():
        views[name] = arena.view(off, off + size)
        off = (off + size) // align * align
    return views


class EnergyVAD:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.arena = sk.zeros(N + 2 * (FRAMES + 4), f32, stream)
        self.launches = {
            "emph": pre_emphasis.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev),
            "energy": frame_energy.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev),
            "vad": vad_decide.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev),
        }

    def detect(self, pcm: np.ndarray, margin_db: float = 6.0) -> np.ndarray:
        v = carve(self.arena, {"emph": N, "energy": FRAMES, "flags": FRAMES})
        x = sk.to_device(pcm.astype(np.float32), self.stream)
        pre_emphasis.launch(self.launches["emph"], self.stream, x, v["emph"], 0.97)
        frame_energy.launch(self.launches["energy"], self.stream, v["emph"], v["energy"], WIN, HOP)
        floor_db = float(np.percentile(v["energy"].to_numpy(self.stream), 10))
        vad_decide.launch(self.launches["vad"], self.stream, v["energy"], v["flags"], floor_db, margin_db)
        return v["flags"].to_numpy(self.stream) > 0.5


def synth_utterance(rng: np.random.Generator) -> np.ndarray:
    t = np.arange(N) / RATE
    noise = 0.01 * rng.standard_normal(N)
    voiced = (t > 0.04) & (t < 0.09)
    speech = 0.5 * np.sin(2 * np.pi * 180 * t) * np.sin(2 * np.pi * 4 * t) ** 2
    return noise + np.where(voiced, speech, 0.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    vad = EnergyVAD(dev, stream)
    flags = vad.detect(synth_utterance(np.random.default_rng(6)))
    active = np.nonzero(flags)[0]
    print(f"{flags.sum()} of {FRAMES} frames voiced; first {active.min() * HOP / RATE * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
